import {
  AUDIO_FRAME_MS,
  AudioKind,
  decodeAudioFrame,
  encodeAudioFrame,
  StartConfNotice,
  StopConfNotice,
} from '@bwc/protocol';
import { burstPackets, type BurstSource } from './media';
import type { TalkLink } from './terminal-talk';
import { toneOf } from './tone';

/**
 * Video conferences of a simulated terminal (issue 14 section 5). Its video needs nothing here:
 * the service asks it to publish with the same `startlive` command as req_play_video, and the
 * terminal's camera answers it. Its audio: once a conference it takes part in starts, it says its
 * tone (toneOf its uid) as CONFERENCE frames paced every 20 ms, full duplex, until the conference
 * stops; it counts the conference frames it hears, by sender.
 */

export interface TerminalConferenceOptions {
  /** say something in a conference it takes part in (default true) */
  speak?: boolean;
  /** what it says (default: its tone) */
  source?: BurstSource;
  /** ffmpeg for encoding (default: @ffmpeg-installer/ffmpeg) */
  ffmpeg?: string | null;
  /** the directory of encoded clips (default TALK_CACHE_DIR) */
  cacheDir?: string;
  onError?: (err: unknown) => void;
}

export interface ConferenceSummary {
  /** the group of the conference it takes part in now, null when none */
  tgid: number | null;
  conferences: number;
  framesSent: number;
  framesHeard: number;
  /** frames heard per sender uid (of the current or last conference) */
  heardFrom: Record<number, number>;
}

/** The length of the clip said over and over while the conference lasts. */
const CLIP_S = 2;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class TerminalConference {
  private tgid: number | null = null;
  private readonly stats = { conferences: 0, framesSent: 0, framesHeard: 0 };
  private heardFrom: Record<number, number> = {};
  private sending: Promise<void> | null = null;

  constructor(
    private readonly link: TalkLink,
    private readonly options: TerminalConferenceOptions = {},
  ) {}

  summary(): ConferenceSummary {
    return { tgid: this.tgid, ...this.stats, heardFrom: { ...this.heardFrom } };
  }

  /** A notice from the connection: a conference it takes part in started or stopped. */
  notice(m: Record<string, unknown>): void {
    const uid = this.link.uid();
    if (uid === null) return;
    if (m.msg_code === 'notice_start_video_conf') {
      const parsed = StartConfNotice.safeParse(m);
      if (!parsed.success || parsed.data.event !== 'started') return;
      if (!parsed.data.participants.some((p) => p.uid === uid) || this.tgid === parsed.data.tgid) return;
      this.tgid = parsed.data.tgid;
      this.heardFrom = {};
      this.stats.conferences += 1;
      if (this.options.speak !== false && !this.sending)
        this.sending = this.speak(parsed.data.tgid)
          .catch((err: unknown) => this.options.onError?.(err))
          .finally(() => (this.sending = null));
    } else if (m.msg_code === 'notice_stop_video_conf') {
      const parsed = StopConfNotice.safeParse(m);
      if (parsed.success && parsed.data.tgid === this.tgid) this.tgid = null;
    }
  }

  /** A binary frame from the connection: counted when it is of its conference. */
  binary(data: Uint8Array): boolean {
    const frame = decodeAudioFrame(data, AudioKind.CONFERENCE);
    if (!frame) return false;
    if (frame.tgid !== this.tgid) return true;
    this.stats.framesHeard += 1;
    this.heardFrom[frame.uid] = (this.heardFrom[frame.uid] ?? 0) + 1;
    return true;
  }

  /** Say its clip over and over, one frame every 20 ms on an absolute schedule, while the conference lasts. */
  private async speak(tgid: number): Promise<void> {
    const source = this.options.source ?? { tone: toneOf(this.link.uid() ?? 0) };
    const packets = await burstPackets(source, CLIP_S, {
      ffmpeg: this.options.ffmpeg,
      cacheDir: this.options.cacheDir,
    });
    const start = Date.now();
    for (let seq = 0; this.tgid === tgid; seq += 1) {
      const frame = encodeAudioFrame({
        kind: AudioKind.CONFERENCE,
        flags: 0,
        tgid,
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
