import {
  AUDIO_FRAME_MS,
  AUDIO_OPUS_MAX_BYTES,
  AUDIO_SAMPLE_RATE,
  AudioKind,
  decodeAudioFrame,
  encodeAudioFrame,
} from '@bwc/protocol';
import type { RealtimeSdk } from '../../../realtime/sdk/RealtimeSdk';
import { JitterBuffer } from './jitterBuffer';
import { MicCapture, MicError } from './micCapture';
import { displayLevel, dominantFrequency, rms, toneShare } from './pcm';
import { talkSupport, type TalkSupport } from './support';
import { playTone, type ToneKind } from './tones';

export { MicError, TALK_MIC_CONSTRAINTS } from './micCapture';

/** What the engine needs of the console-service connection. */
export type TalkSdk = Pick<RealtimeSdk, 'sendBinary' | 'onBinary'>;

const FRAME_US = AUDIO_FRAME_MS * 1000;
/** Audio counts as flowing (level animation on) this long after its last frame. */
const ACTIVE_MS = 300;
/** Frames the decoder has not given back are forgotten this many frames later. */
const PENDING_MAX = 100;

/**
 * Counters of one panel's audio. The page also copies them into `window.__bwcTalkStats` when a
 * test has put that object there (Playwright's addInitScript), so an end-to-end test can check
 * that audio went out and came back, and which tone it carried (`tone1k`, `dominantHz`).
 */
export interface TalkStats {
  /** encoded frames handed to the socket while holding the floor */
  framesSent: number;
  /** sends refused by the socket (closed, or its backlog full) */
  framesUnsent: number;
  /** binary frames received (any group) */
  framesReceived: number;
  /** frames of the panel's group that the decoder turned into PCM */
  framesDecoded: number;
  /** frames scheduled on the audio output */
  framesPlayed: number;
  /** frames decoded after their place: the delay grew and they played later, or (an old one) were left out */
  framesLate: number;
  /** frames the jitter buffer left out to shorten its delay or catch up after a stall */
  framesSkipped: number;
  /** frames never received (sequence gaps) */
  framesLost: number;
  /** current jitter delay (ms) */
  jitterMs: number;
  /** uid of the talker of the last frame */
  talker: number;
  /** share (0..1) of the last decoded frame's energy at 1 kHz */
  tone1k: number;
  /** strongest frequency (Hz) of the last decoded frame, 100-4000 in 50 Hz steps */
  dominantHz: number;
  /** RMS of the last decoded frame */
  rms: number;
}

/** The audio of a talk panel, as the panel uses it (a fake in the panel's tests). */
export interface TalkAudio {
  readonly support: TalkSupport;
  /** play the frames of group `tgid` (the only group this console is attached to) */
  listen(tgid: number): void;
  /** open the microphone and start encoding (frames go out only after `send`) */
  startCapture(): Promise<void>;
  stopCapture(): void;
  /** send the encoded frames to `tgid` (the floor is ours), or stop sending (null) */
  send(target: { tgid: number; emergency: boolean } | null): void;
  /** 0..1: the level of what is heard or said now, 0 when nothing flows */
  level(): number;
  tone(kind: ToneKind): void;
  /** resume the audio output after a user gesture (browsers start it suspended otherwise) */
  resume(): void;
  close(): void;
}

/** bench/talk-latency.ts's record of frames sent and played (window.__bwcTalkTrace). */
export interface TalkTrace {
  sent: { seq: number; at: number }[];
  played: { seq: number; uid: number; at: number }[];
}

/**
 * The browser side of group talk (issue 14). Send: microphone (voice processing on) -> AudioWorklet
 * (20 ms frames) -> WebCodecs Opus encoder (48 kHz mono, 20 ms packets) -> binary frame -> the
 * console-service socket, only while this console holds the floor. Receive: binary frame ->
 * Opus decoder -> adaptive jitter buffer (its place on the AudioContext clock) -> one buffer
 * source per frame, back to back. A new talker gets a fresh decoder and jitter buffer (his
 * sequence numbers start over), keeping the delay the last one needed.
 */
export class TalkEngine implements TalkAudio {
  readonly support: TalkSupport;
  /** wall-clock time each captured frame reached the page, by its AudioData timestamp (trace only) */
  private readonly capturedAt = new Map<number, number>();
  readonly stats: TalkStats = {
    framesSent: 0,
    framesUnsent: 0,
    framesReceived: 0,
    framesDecoded: 0,
    framesPlayed: 0,
    framesLate: 0,
    framesSkipped: 0,
    framesLost: 0,
    jitterMs: 0,
    talker: 0,
    tone1k: 0,
    dominantHz: 0,
    rms: 0,
  };
  private context: AudioContext | null = null;
  private decoder: AudioDecoder | null = null;
  private jitter: JitterBuffer | null = null;
  private tgid = 0;
  private chunkId = 0;
  /** chunk id -> its frame's sequence number and the jitter buffer of its talker, until decoded */
  private readonly pending = new Map<number, { seq: number; jitter: JitterBuffer }>();
  private capture: MicCapture | null = null;
  private target: { tgid: number; emergency: boolean } | null = null;
  private seq = 0;
  private levelValue = 0;
  private levelAt = -Infinity;
  private readonly offBinary: () => void;

  /**
   * `kind`: the frames it sends and hears. A voice call (AudioKind.CALL) uses the same engine: the
   * call id takes the group's place (`listen(callid)`, `send({ tgid: callid })`), and the call
   * page sends for as long as the call is answered (full duplex) instead of while holding a floor.
   */
  constructor(
    private readonly sdk: TalkSdk,
    private readonly scope: typeof globalThis = globalThis,
    private readonly kind: (typeof AudioKind)[keyof typeof AudioKind] = AudioKind.GROUP,
  ) {
    this.support = talkSupport(scope);
    this.offBinary = sdk.onBinary((bytes) => this.received(bytes));
  }

  private audioContext(): AudioContext {
    this.context ??= new this.scope.AudioContext({ sampleRate: AUDIO_SAMPLE_RATE, latencyHint: 'interactive' });
    return this.context;
  }

  private clockMs(): number {
    return this.scope.performance.now();
  }

  listen(tgid: number): void {
    this.tgid = tgid;
    this.resetReceiver();
    // the panel opens on a click: the output starts now, not suspended at the first frame heard
    this.resume();
  }

  resume(): void {
    if (this.support.canHear && this.audioContext().state === 'suspended') void this.context!.resume();
  }

  level(): number {
    return this.clockMs() - this.levelAt < ACTIVE_MS ? this.levelValue : 0;
  }

  tone(kind: ToneKind): void {
    if (!this.support.canHear) return;
    this.resume();
    playTone(this.audioContext(), kind);
  }

  private measure(value: number): void {
    this.levelValue = displayLevel(value);
    this.levelAt = this.clockMs();
  }

  // ---- receive

  private closeDecoder(): void {
    if (this.decoder && this.decoder.state !== 'closed') this.decoder.close();
    this.decoder = null;
  }

  /** A new talker or group: his own decoder (made at his first frame) and jitter buffer, the last delay kept. */
  private resetReceiver(previousDelay?: number): void {
    this.closeDecoder();
    this.pending.clear();
    this.jitter = new JitterBuffer(previousDelay ? { initialMs: previousDelay } : {});
  }

  private createDecoder(): AudioDecoder {
    const decoder = new this.scope.AudioDecoder({
      output: (data) => this.decoded(data),
      // a broken stream closed it: the next frame gets a fresh decoder (not when a newer one took over)
      error: () => {
        if (this.decoder === decoder) this.decoder = null;
      },
    });
    decoder.configure({ codec: 'opus', sampleRate: AUDIO_SAMPLE_RATE, numberOfChannels: 1 });
    return decoder;
  }

  private received(bytes: Uint8Array): void {
    const frame = decodeAudioFrame(bytes, this.kind);
    if (!frame) return;
    this.stats.framesReceived += 1;
    if (frame.tgid !== this.tgid || !this.support.canHear) {
      this.publish();
      return;
    }
    if (frame.uid !== this.stats.talker) {
      this.stats.talker = frame.uid;
      this.resetReceiver(this.jitter?.delayMs);
    }
    if (!this.decoder || this.decoder.state === 'closed') this.decoder = this.createDecoder();
    const id = ++this.chunkId;
    this.pending.set(id, { seq: frame.seq, jitter: this.jitter! });
    this.pending.delete(id - PENDING_MAX);
    // every packet goes through the decoder, also one that will not play: its state follows the talk
    this.decoder.decode(new this.scope.EncodedAudioChunk({ type: 'key', timestamp: id * FRAME_US, data: frame.opus }));
    this.publish();
  }

  /**
   * A frame's PCM: its place is found now, when it can be played, not when it came. The decoder
   * answers in a task of its own, and on a busy page (the panel rendering the floor notice that
   * comes with a new talker) that is often longer after the frame came than the jitter delay: a
   * place given on arrival had passed, and the start of each burst was cut.
   */
  private decoded(data: AudioData): void {
    const id = Math.round(data.timestamp / FRAME_US);
    const frame = this.pending.get(id);
    this.pending.delete(id);
    const pcm = new Float32Array(data.numberOfFrames);
    data.copyTo(pcm, { planeIndex: 0, format: 'f32-planar' });
    const sampleRate = data.sampleRate;
    data.close();
    this.stats.framesDecoded += 1;
    const value = rms(pcm);
    this.stats.rms = value;
    this.measure(value);
    if (this.testStats()) {
      this.stats.tone1k = toneShare(pcm, sampleRate, 1000);
      this.stats.dominantHz = dominantFrequency(pcm, sampleRate);
    }
    // a frame of a talker who is no longer heard (another began meanwhile) has no place
    if (frame && frame.jitter === this.jitter) this.play(frame.seq, frame.jitter, pcm, sampleRate);
    this.publish();
  }

  private play(seq: number, jitter: JitterBuffer, pcm: Float32Array<ArrayBuffer>, sampleRate: number): void {
    const context = this.audioContext();
    const running = context.state === 'running';
    // a suspended output has a stopped clock: place by the page's clock (nothing is scheduled then)
    const now = running ? context.currentTime * 1000 : this.clockMs();
    const lateBefore = jitter.late;
    const skippedBefore = jitter.skipped;
    const placement = jitter.place(seq, now);
    this.stats.framesLate += jitter.late - lateBefore;
    this.stats.framesSkipped += jitter.skipped - skippedBefore;
    this.stats.framesLost = jitter.lost;
    this.stats.jitterMs = jitter.delayMs;
    if (placement.kind !== 'play' || !running) return;
    const buffer = context.createBuffer(1, pcm.length, sampleRate);
    buffer.copyToChannel(pcm, 0);
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(context.destination);
    source.start(placement.at / 1000);
    this.stats.framesPlayed += 1;
    const trace = this.trace();
    if (trace)
      trace.played.push({
        seq,
        uid: this.stats.talker,
        at: this.wallMs() + (placement.at - now) + (context.outputLatency || context.baseLatency) * 1000,
      });
  }

  // ---- send

  async startCapture(): Promise<void> {
    if (this.capture) return;
    if (!this.support.canTalk)
      throw new MicError(this.support.lacks.includes('insecure') ? 'unsupported.insecure' : 'unsupported.noEncoder');
    const context = this.audioContext();
    this.resume();
    const capture = await MicCapture.open(this.scope, context, {
      pcm: (pcm, timestamp) => {
        if (this.target) this.measure(rms(pcm));
        if (this.trace()) this.capturedAt.set(timestamp, this.wallMs());
      },
      opus: (opus, timestamp) => this.encoded(opus, timestamp),
    });
    // closed meanwhile, or opened twice at once
    if (this.capture) capture.close();
    else this.capture = capture;
  }

  private encoded(opus: Uint8Array, timestamp: number): void {
    const target = this.target;
    const capturedAt = this.capturedAt.get(timestamp);
    this.capturedAt.delete(timestamp);
    if (this.capturedAt.size > 500) this.capturedAt.clear();
    if (!target || opus.byteLength > AUDIO_OPUS_MAX_BYTES) return;
    if (capturedAt !== undefined) this.trace()?.sent.push({ seq: this.seq, at: capturedAt });
    const frame = encodeAudioFrame({
      kind: this.kind,
      flags: target.emergency ? 1 : 0,
      tgid: target.tgid,
      uid: 0,
      seq: this.seq,
      clock: Math.round(this.clockMs()) >>> 0,
      opus,
    });
    this.seq = (this.seq + 1) & 0xffff;
    if (this.sdk.sendBinary(frame)) this.stats.framesSent += 1;
    else this.stats.framesUnsent += 1;
    this.publish();
  }

  send(target: { tgid: number; emergency: boolean } | null): void {
    // each turn on the floor is a burst of its own: sequence numbers start over
    if (target && !this.target) this.seq = 0;
    this.target = target;
  }

  stopCapture(): void {
    const capture = this.capture;
    this.capture = null;
    this.target = null;
    capture?.close();
  }

  close(): void {
    this.stopCapture();
    this.offBinary();
    this.closeDecoder();
    void this.context?.close();
    this.context = null;
  }

  /**
   * The mouth-to-ear bench's record (bench/talk-latency.ts), when the page put one on window: per
   * frame sent, the wall-clock time its 20 ms of microphone PCM reached the page; per frame
   * played, when it leaves the speaker (its place on the output clock plus the output latency).
   * Wall clock: performance.timeOrigin + performance.now(), the same for every page of a browser.
   */
  private trace(): TalkTrace | undefined {
    return (this.scope as { __bwcTalkTrace?: TalkTrace }).__bwcTalkTrace;
  }

  private wallMs(): number {
    return this.scope.performance.timeOrigin + this.scope.performance.now();
  }

  private testStats(): Record<string, unknown> | undefined {
    return (this.scope as { __bwcTalkStats?: Record<string, unknown> }).__bwcTalkStats;
  }

  /** Copy the counters for an end-to-end test, when it asked for them. */
  private publish(): void {
    const target = this.testStats();
    if (target) Object.assign(target, this.stats);
  }
}
