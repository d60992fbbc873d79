import { AUDIO_FRAME_MS } from '@bwc/protocol';
import { CAPTURE_PROCESSOR, captureWorkletSource } from './captureWorklet';

/** Microphone constraints: the browser's voice processing, as in a call. */
export const TALK_MIC_CONSTRAINTS: MediaStreamConstraints = {
  audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
};
/** Opus at 24 kbit/s: clear speech, a 60-byte packet per 20 ms frame. */
const OPUS_BITRATE = 24_000;
const FRAME_US = AUDIO_FRAME_MS * 1000;

/** A microphone that cannot be used, with the catalogue key that says why. */
export class MicError extends Error {
  constructor(
    readonly key: 'unsupported.insecure' | 'unsupported.noEncoder' | 'mic.denied' | 'mic.missing' | 'mic.failed',
    readonly reason = '',
  ) {
    super(key);
  }
}

/** getUserMedia's refusal as the key the panels show. */
export function micError(error: unknown): MicError {
  const name = error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return new MicError('mic.denied');
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return new MicError('mic.missing');
  return new MicError('mic.failed', error instanceof Error ? error.message : String(error));
}

export interface MicHooks {
  /** each 20 ms of microphone PCM, with the AudioData timestamp its packet will carry (µs) */
  pcm?(pcm: Float32Array<ArrayBuffer>, timestampUs: number): void;
  /** each Opus packet, with the timestamp of its PCM (µs) */
  opus(packet: Uint8Array, timestampUs: number): void;
}

/** Worklet modules loaded per audio context (loaded once, again after a failure). */
const worklets = new WeakMap<BaseAudioContext, Promise<void>>();

/**
 * The microphone of a talk, call or conference: getUserMedia (voice processing on) -> AudioWorklet
 * (whole 20 ms frames) -> WebCodecs Opus encoder (mono, 20 ms packets, 24 kbit/s). The node writes
 * silence to the output; being connected keeps it processing.
 */
export class MicCapture {
  private captured = 0;
  private closed = false;

  private constructor(
    private readonly scope: typeof globalThis,
    private readonly context: AudioContext,
    private readonly stream: MediaStream,
    private readonly source: MediaStreamAudioSourceNode,
    private readonly node: AudioWorkletNode,
    private readonly encoder: AudioEncoder,
    private readonly hooks: MicHooks,
  ) {
    node.port.onmessage = (event: MessageEvent<Float32Array<ArrayBuffer>>) => this.frame(event.data);
    source.connect(node).connect(context.destination);
  }

  /** Opens the microphone; a MicError says why it cannot. */
  static async open(scope: typeof globalThis, context: AudioContext, hooks: MicHooks): Promise<MicCapture> {
    let stream: MediaStream;
    try {
      stream = await scope.navigator.mediaDevices.getUserMedia(TALK_MIC_CONSTRAINTS);
    } catch (error) {
      throw micError(error);
    }
    try {
      let loaded = worklets.get(context);
      if (!loaded) {
        loaded = context.audioWorklet.addModule(
          URL.createObjectURL(new Blob([captureWorkletSource()], { type: 'text/javascript' })),
        );
        worklets.set(context, loaded);
      }
      await loaded;
      const source = context.createMediaStreamSource(stream);
      const node = new scope.AudioWorkletNode(context, CAPTURE_PROCESSOR, { numberOfOutputs: 1 });
      let capture: MicCapture | null = null;
      const encoder = new scope.AudioEncoder({
        output: (chunk) => capture?.packet(chunk),
        error: () => undefined,
      });
      encoder.configure({
        codec: 'opus',
        sampleRate: context.sampleRate,
        numberOfChannels: 1,
        bitrate: OPUS_BITRATE,
        opus: { frameDuration: FRAME_US, format: 'opus' },
      });
      capture = new MicCapture(scope, context, stream, source, node, encoder, hooks);
      return capture;
    } catch (error) {
      stream.getTracks().forEach((track) => track.stop());
      worklets.delete(context);
      throw new MicError('mic.failed', error instanceof Error ? error.message : String(error));
    }
  }

  private frame(pcm: Float32Array<ArrayBuffer>): void {
    if (this.closed || this.encoder.state !== 'configured') return;
    const sampleRate = this.context.sampleRate;
    const timestamp = Math.round((this.captured * 1e6) / sampleRate);
    this.hooks.pcm?.(pcm, timestamp);
    const data = new this.scope.AudioData({
      format: 'f32-planar',
      sampleRate,
      numberOfChannels: 1,
      numberOfFrames: pcm.length,
      timestamp,
      data: pcm,
    });
    this.captured += pcm.length;
    this.encoder.encode(data);
    data.close();
  }

  private packet(chunk: EncodedAudioChunk): void {
    if (this.closed) return;
    const opus = new Uint8Array(chunk.byteLength);
    chunk.copyTo(opus);
    this.hooks.opus(opus, chunk.timestamp);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.node.port.onmessage = null;
    this.source.disconnect();
    this.node.disconnect();
    this.stream.getTracks().forEach((track) => track.stop());
    if (this.encoder.state !== 'closed') this.encoder.close();
  }
}
