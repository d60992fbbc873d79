import {
  AUDIO_FRAME_MS,
  AUDIO_SAMPLE_RATE,
  AudioKind,
  CALL_ENDED,
  CallNotice,
  CallStatus,
  decodeAudioFrame,
  DtmfNotice,
  encodeAudioFrame,
} from '@bwc/protocol';
import { oggOf } from './listener';
import { burstPackets, decodeOgg, type BurstSource } from './media';
import type { TalkLink } from './terminal-talk';
import { dominantTone, toneOf, type DetectedTone } from './tone';

/**
 * Voice calls of a simulated terminal (issue 14 section 4): it answers a call that rings for it
 * after `answerAfterMs`, says its tone (toneOf its uid) as CALL frames paced every 20 ms while the
 * call is up, keeps and counts the frames it hears, and measures their tone with ffmpeg on demand.
 * The call ends for it when the console hangs up (the service ends it for both parties).
 */

export interface TerminalCallOptions {
  /** answer a ringing call after this long, ms (default 1000; null: never, the test answers) */
  answerAfterMs?: number | null;
  /** what it says in a call (default: its tone) */
  source?: BurstSource;
  /** ffmpeg for encoding and decoding (default: @ffmpeg-installer/ffmpeg) */
  ffmpeg?: string | null;
  /** the directory of encoded clips (default TALK_CACHE_DIR) */
  cacheDir?: string;
  onError?: (err: unknown) => void;
}

/** What one terminal did in calls, for tests and benches. */
export interface CallSummary {
  /** the call up or ringing now, null when none */
  callid: number | null;
  status: number | null;
  callsRung: number;
  callsAnswered: number;
  framesSent: number;
  /** CALL frames heard in the current (or last) call */
  framesHeard: number;
  /** DTMF digits the other party keyed in the current (or last) call */
  dtmf: string;
}

/** The length of the clip said over and over while a call is up. */
const CLIP_S = 2;
/** At most this many packets heard are kept for the tone measure (a minute). */
const KEEP_PACKETS = 3000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class TerminalCall {
  private call: CallNotice | null = null;
  private heard: Uint8Array[] = [];
  private readonly stats = { callsRung: 0, callsAnswered: 0, framesSent: 0, framesHeard: 0, dtmf: '' };
  private sending: Promise<void> | null = null;

  constructor(
    private readonly link: TalkLink,
    private readonly options: TerminalCallOptions = {},
  ) {}

  summary(): CallSummary {
    return { callid: this.call?.callid ?? null, status: this.call?.status ?? null, ...this.stats };
  }

  /** A notice from the connection: its calls' changes and DTMF digits. */
  notice(m: Record<string, unknown>): void {
    if (m.msg_code === 'notice_dtmf') {
      const dtmf = DtmfNotice.safeParse(m);
      if (dtmf.success && dtmf.data.callid === this.call?.callid) this.stats.dtmf += dtmf.data.value;
      return;
    }
    if (m.msg_code !== 'notice_call_status') return;
    const parsed = CallNotice.safeParse(m);
    const uid = this.link.uid();
    if (!parsed.success || uid === null) return;
    const call = parsed.data;
    if (call.demander !== uid && call.target !== uid) return;
    if (CALL_ENDED.includes(call.status)) {
      if (this.call?.callid === call.callid) this.call = { ...this.call, status: call.status };
      return;
    }
    const fresh = this.call?.callid !== call.callid;
    this.call = call;
    if (call.status === CallStatus.RINGING && fresh) {
      this.heard = [];
      this.stats.framesHeard = 0;
      this.stats.dtmf = '';
      if (call.target !== uid) return;
      this.stats.callsRung += 1;
      const after = this.options.answerAfterMs === undefined ? 1000 : this.options.answerAfterMs;
      if (after !== null)
        setTimeout(() => {
          if (this.call?.callid === call.callid && this.call.status === CallStatus.RINGING)
            void this.answer().catch((err: unknown) => this.options.onError?.(err));
        }, after).unref();
    } else if (call.status === CallStatus.ANSWERED && !this.sending) {
      this.stats.callsAnswered += 1;
      this.sending = this.talk(call.callid)
        .catch((err: unknown) => this.options.onError?.(err))
        .finally(() => (this.sending = null));
    }
  }

  /** Answer the call ringing for it. */
  async answer(): Promise<void> {
    if (!this.call) return;
    await this.link.request('req_call_status', { callid: this.call.callid, status: CallStatus.ANSWERED });
  }

  /** Hang up its call. */
  async hangUp(): Promise<void> {
    if (!this.call) return;
    await this.link.request('req_call_status', { callid: this.call.callid, status: CallStatus.HANGUP });
  }

  /** A binary frame from the connection: counted and kept when it is of its call. */
  binary(data: Uint8Array): boolean {
    const frame = decodeAudioFrame(data, AudioKind.CALL);
    if (!frame) return false;
    if (frame.tgid !== this.call?.callid) return true;
    this.stats.framesHeard += 1;
    if (this.heard.length < KEEP_PACKETS) this.heard.push(frame.opus.slice());
    return true;
  }

  /** Decode what it heard in its current (or last) call with ffmpeg and measure the strongest tone. */
  async heardTone(): Promise<DetectedTone | null> {
    if (!this.heard.length) return null;
    const pcm = await decodeOgg(oggOf(this.heard, this.call?.callid ?? 1), this.options.ffmpeg);
    return dominantTone(pcm, AUDIO_SAMPLE_RATE);
  }

  /** Say its clip over and over, one frame every 20 ms on an absolute schedule, while the call is up. */
  private async talk(callid: number): Promise<void> {
    const source = this.options.source ?? { tone: toneOf(this.link.uid() ?? 0) };
    const packets = await burstPackets(source, CLIP_S, {
      ffmpeg: this.options.ffmpeg,
      cacheDir: this.options.cacheDir,
    });
    const up = () => this.call?.callid === callid && this.call.status === CallStatus.ANSWERED;
    const start = Date.now();
    for (let seq = 0; up(); seq += 1) {
      const frame = encodeAudioFrame({
        kind: AudioKind.CALL,
        flags: 0,
        tgid: callid,
        uid: 0,
        seq,
        clock: Date.now() % 2 ** 32,
        opus: packets[seq % packets.length]!,
      });
      if (!this.link.sendBinary(frame)) break;
      this.stats.framesSent += 1;
      const wait = start + (seq + 1) * AUDIO_FRAME_MS - Date.now();
      if (wait > 0) await sleep(wait);
    }
  }
}
