import {
  AUDIO_FRAME_MS,
  AUDIO_OPUS_MAX_BYTES,
  AUDIO_SAMPLE_RATE,
  AudioKind,
  decodeAudioFrame,
  encodeAudioFrame,
} from '@bwc/protocol';
import type { RealtimeSdk } from '../../realtime/sdk/RealtimeSdk';
import { JitterBuffer } from '../talk/audio/jitterBuffer';
import { displayLevel, rms } from '../talk/audio/pcm';
import { talkSupport, type TalkSupport } from '../talk/audio/support';
import { MicCapture, MicError } from '../talk/audio/micCapture';

/** What the conference audio needs of the console-service connection. */
export type ConferenceAudioSdk = Pick<RealtimeSdk, 'sendBinary' | 'onBinary'>;

/** Opus at 24 kbit/s, 20 ms packets: the talk engine's settings. */
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
  private readonly peers = new Map<number, Peer>();
  private capture: MicCapture | null = null;
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
    const context = this.audioContext();
    this.resume();
    const capture = await MicCapture.open(this.scope, context, {
      pcm: (pcm) => this.measure(pcm),
      opus: (opus) => this.encoded(opus),
    });
    if (this.capture) {
      capture.close();
      return;
    }
    this.seq = 0;
    this.capture = capture;
  }

  private encoded(opus: Uint8Array): void {
    if (!this.capture || opus.byteLength > AUDIO_OPUS_MAX_BYTES) return;
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
    capture?.close();
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
