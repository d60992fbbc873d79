import {
  AUDIO_FRAME_MS,
  AUDIO_OPUS_MAX_BYTES,
  AUDIO_SAMPLE_RATE,
  AudioKind,
  decodeAudioFrame,
  encodeAudioFrame,
} from '@bwc/protocol';
import type { RealtimeSdk } from '../../realtime/sdk/RealtimeSdk';
import { CAPTURE_PROCESSOR, captureWorkletSource } from '../talk/audio/captureWorklet';
import { JitterBuffer } from '../talk/audio/jitterBuffer';
import { displayLevel, rms } from '../talk/audio/pcm';
import { talkSupport, type TalkSupport } from '../talk/audio/support';
import { MicError, TALK_MIC_CONSTRAINTS } from '../talk/audio/TalkEngine';

/** What the conference audio needs of the console-service connection. */
export type ConferenceAudioSdk = Pick<RealtimeSdk, 'sendBinary' | 'onBinary'>;

/** Opus at 24 kbit/s, 20 ms packets: the talk engine's settings. */
const OPUS_BITRATE = 24_000;
const FRAME_US = AUDIO_FRAME_MS * 1000;
/** Audio counts as flowing this long after its last frame (the level meter). */
const ACTIVE_MS = 300;
/** Frames a decoder has not given back are forgotten this many frames later. */
const PENDING_MAX = 100;

export interface ConferenceAudioStats {
  framesSent: number;
  framesReceived: number;
  framesPlayed: number;
  /** participants heard so far */
  talkers: number;
}

/** One participant heard: his own decoder and jitter buffer (sequence numbers are per sender). */
interface Peer {
  decoder: AudioDecoder;
  jitter: JitterBuffer;
  pending: Map<number, number>;
  chunkId: number;
}

interface Capture {
  stream: MediaStream;
  source: MediaStreamAudioSourceNode;
  node: AudioWorkletNode;
  encoder: AudioEncoder;
  captured: number;
}

/**
 * The audio of a video conference: full duplex, no floor. The microphone, while on, goes out
 * continuously as AudioKind.CONFERENCE frames of the group (the talk engine's capture: worklet,
 * WebCodecs Opus); every other participant's frames are decoded and played at once, each sender
 * with a decoder and jitter buffer of his own, so that several voices mix on the output. The talk
 * engine serves one talker at a time behind a floor, hence this class; it reuses its pieces.
 */
export class ConferenceAudio {
  readonly support: TalkSupport;
  readonly stats: ConferenceAudioStats = { framesSent: 0, framesReceived: 0, framesPlayed: 0, talkers: 0 };
  private context: AudioContext | null = null;
  private workletLoaded: Promise<void> | null = null;
  private readonly peers = new Map<number, Peer>();
  private capture: Capture | null = null;
  private seq = 0;
  private levelValue = 0;
  private levelAt = -Infinity;
  private readonly offBinary: () => void;

  constructor(
    private readonly sdk: ConferenceAudioSdk,
    private readonly tgid: number,
    private readonly scope: typeof globalThis = globalThis,
  ) {
    this.support = talkSupport(scope);
    this.offBinary = sdk.onBinary((bytes) => this.received(bytes));
  }

  get micOn(): boolean {
    return this.capture !== null;
  }

  private audioContext(): AudioContext {
    this.context ??= new this.scope.AudioContext({ sampleRate: AUDIO_SAMPLE_RATE, latencyHint: 'interactive' });
    return this.context;
  }

  /** Start the output (after a click: browsers keep it suspended otherwise). */
  resume(): void {
    if (this.support.canHear && this.audioContext().state === 'suspended') void this.context!.resume();
  }

  /** 0..1: the level of what is heard or said now. */
  level(): number {
    return this.scope.performance.now() - this.levelAt < ACTIVE_MS ? this.levelValue : 0;
  }

  private measure(pcm: Float32Array): void {
    this.levelValue = displayLevel(rms(pcm));
    this.levelAt = this.scope.performance.now();
  }

  // ---- receive

  private received(bytes: Uint8Array): void {
    const frame = decodeAudioFrame(bytes, AudioKind.CONFERENCE);
    if (!frame || frame.tgid !== this.tgid || !this.support.canHear) return;
    this.stats.framesReceived += 1;
    this.publish();
    let peer = this.peers.get(frame.uid);
    if (!peer || peer.decoder.state === 'closed') {
      peer = this.createPeer();
      if (!this.peers.has(frame.uid)) this.stats.talkers += 1;
      this.peers.set(frame.uid, peer);
    }
    const id = ++peer.chunkId;
    peer.pending.set(id, frame.seq);
    peer.pending.delete(id - PENDING_MAX);
    peer.decoder.decode(new this.scope.EncodedAudioChunk({ type: 'key', timestamp: id * FRAME_US, data: frame.opus }));
  }

  private createPeer(): Peer {
    const peer = { jitter: new JitterBuffer(), pending: new Map<number, number>(), chunkId: 0 } as Peer;
    peer.decoder = new this.scope.AudioDecoder({
      output: (data) => this.decoded(peer, data),
      // a broken stream closed it: the sender's next frame makes a new one
      error: () => undefined,
    });
    peer.decoder.configure({ codec: 'opus', sampleRate: AUDIO_SAMPLE_RATE, numberOfChannels: 1 });
    return peer;
  }

  /** A frame's PCM is placed when decoded (the decoder answers later than the frame came). */
  private decoded(peer: Peer, data: AudioData): void {
    const id = Math.round(data.timestamp / FRAME_US);
    const seq = peer.pending.get(id);
    peer.pending.delete(id);
    const pcm = new Float32Array(data.numberOfFrames);
    data.copyTo(pcm, { planeIndex: 0, format: 'f32-planar' });
    const sampleRate = data.sampleRate;
    data.close();
    this.measure(pcm);
    const context = this.audioContext();
    if (seq === undefined || context.state !== 'running') return;
    const placement = peer.jitter.place(seq, context.currentTime * 1000);
    if (placement.kind !== 'play') return;
    const buffer = context.createBuffer(1, pcm.length, sampleRate);
    buffer.copyToChannel(pcm, 0);
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(context.destination);
    source.start(placement.at / 1000);
    this.stats.framesPlayed += 1;
    this.publish();
  }

  /** Copy the counters for an end-to-end test, when it put window.__bwcConferenceStats there. */
  private publish(): void {
    const target = (this.scope as { __bwcConferenceStats?: Record<string, unknown> }).__bwcConferenceStats;
    if (target) Object.assign(target, this.stats);
  }

  // ---- send

  /** Open the microphone: from now on everything it hears goes to the conference. */
  async startMic(): Promise<void> {
    if (this.capture) return;
    if (!this.support.canTalk)
      throw new MicError(this.support.lacks.includes('insecure') ? 'unsupported.insecure' : 'unsupported.noEncoder');
    let stream: MediaStream;
    try {
      stream = await this.scope.navigator.mediaDevices.getUserMedia(TALK_MIC_CONSTRAINTS);
    } catch (error) {
      const name = error instanceof Error ? error.name : '';
      if (name === 'NotAllowedError' || name === 'SecurityError') throw new MicError('mic.denied');
      if (name === 'NotFoundError' || name === 'OverconstrainedError') throw new MicError('mic.missing');
      throw new MicError('mic.failed', error instanceof Error ? error.message : String(error));
    }
    try {
      const context = this.audioContext();
      this.resume();
      this.workletLoaded ??= context.audioWorklet.addModule(
        URL.createObjectURL(new Blob([captureWorkletSource()], { type: 'text/javascript' })),
      );
      await this.workletLoaded;
      const source = context.createMediaStreamSource(stream);
      const node = new this.scope.AudioWorkletNode(context, CAPTURE_PROCESSOR, { numberOfOutputs: 1 });
      const encoder = new this.scope.AudioEncoder({ output: (chunk) => this.encoded(chunk), error: () => undefined });
      encoder.configure({
        codec: 'opus',
        sampleRate: context.sampleRate,
        numberOfChannels: 1,
        bitrate: OPUS_BITRATE,
        opus: { frameDuration: FRAME_US, format: 'opus' },
      });
      const capture: Capture = { stream, source, node, encoder, captured: 0 };
      node.port.onmessage = (event: MessageEvent<Float32Array<ArrayBuffer>>) => this.captured(capture, event.data);
      source.connect(node).connect(context.destination);
      this.seq = 0;
      this.capture = capture;
    } catch (error) {
      stream.getTracks().forEach((track) => track.stop());
      this.workletLoaded = null;
      throw new MicError('mic.failed', error instanceof Error ? error.message : String(error));
    }
  }

  private captured(capture: Capture, pcm: Float32Array<ArrayBuffer>): void {
    if (this.capture !== capture || capture.encoder.state !== 'configured') return;
    const sampleRate = this.context!.sampleRate;
    this.measure(pcm);
    const data = new this.scope.AudioData({
      format: 'f32-planar',
      sampleRate,
      numberOfChannels: 1,
      numberOfFrames: pcm.length,
      timestamp: Math.round((capture.captured * 1e6) / sampleRate),
      data: pcm,
    });
    capture.captured += pcm.length;
    capture.encoder.encode(data);
    data.close();
  }

  private encoded(chunk: EncodedAudioChunk): void {
    if (!this.capture || chunk.byteLength > AUDIO_OPUS_MAX_BYTES) return;
    const opus = new Uint8Array(chunk.byteLength);
    chunk.copyTo(opus);
    const frame = encodeAudioFrame({
      kind: AudioKind.CONFERENCE,
      flags: 0,
      tgid: this.tgid,
      uid: 0,
      seq: this.seq,
      clock: Math.round(this.scope.performance.now()) >>> 0,
      opus,
    });
    this.seq = (this.seq + 1) & 0xffff;
    if (this.sdk.sendBinary(frame)) this.stats.framesSent += 1;
    this.publish();
  }

  stopMic(): void {
    const capture = this.capture;
    this.capture = null;
    if (!capture) return;
    capture.node.port.onmessage = null;
    capture.source.disconnect();
    capture.node.disconnect();
    capture.stream.getTracks().forEach((track) => track.stop());
    if (capture.encoder.state !== 'closed') capture.encoder.close();
  }

  close(): void {
    this.stopMic();
    this.offBinary();
    for (const peer of this.peers.values()) if (peer.decoder.state !== 'closed') peer.decoder.close();
    this.peers.clear();
    void this.context?.close();
    this.context = null;
  }
}
