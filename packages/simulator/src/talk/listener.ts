import { decodeAudioFrame, OggOpusWriter, opusPacketSamples, type AudioFrame } from '@bwc/protocol';

/**
 * What a simulated terminal hears: the binary audio frames of the console-service socket,
 * checked (the header decodes, the group is the one it listens to), counted per group and per
 * talker, with the frames lost inside a burst (gaps of the sequence number), and, on demand, the
 * packets of the last burst of each group, to write as an Ogg file and decode.
 */

/** A jump of the sequence number beyond this many frames (5 s) starts a new burst rather than counting losses. */
const MAX_GAP = 250;
/** libopus's encoder delay at 48 kHz, which the packets the terminals send carry (they come from ffmpeg's libopus). */
const OPUS_PRE_SKIP = 312;

export interface HeardBurst {
  tgid: number;
  /** the talker (written by the server) */
  uid: number;
  emergency: boolean;
  frames: number;
  bytes: number;
  /** frames missing between the first sequence number (0 when the burst began with the first frame) and the last */
  lost: number;
  lastSeq: number;
  /** epoch ms of the first and the last frame received */
  firstAt: number;
  lastAt: number;
  /** the Opus packets, when the listener keeps them */
  packets: Uint8Array[];
}

export interface GroupHearing {
  frames: number;
  bytes: number;
  lost: number;
  bursts: number;
  /** frames per talker uid */
  talkers: Record<number, number>;
}

export interface HearingStats {
  frames: number;
  lost: number;
  bursts: number;
  /** binary frames that do not decode (length, kind) */
  invalid: number;
  /** frames of a group this terminal does not listen to */
  foreign: number;
  groups: Record<number, GroupHearing>;
}

export interface TalkListenerOptions {
  /** whether the terminal listens to this group now (attached to it with hear) */
  listensTo: (tgid: number) => boolean;
  /** keep the packets of each group's last burst (default false) */
  keepPackets?: boolean;
  now?: () => number;
}

export class TalkListener {
  readonly stats: HearingStats = { frames: 0, lost: 0, bursts: 0, invalid: 0, foreign: 0, groups: {} };
  /** the burst heard last in each group */
  private readonly last = new Map<number, HeardBurst>();
  private latest: HeardBurst | null = null;
  private readonly now: () => number;

  constructor(private readonly options: TalkListenerOptions) {
    this.now = options.now ?? Date.now;
  }

  /** A binary frame arrived: the frame when it is one this terminal should hear, else null. */
  receive(data: Uint8Array): AudioFrame | null {
    const frame = decodeAudioFrame(data);
    if (!frame) {
      this.stats.invalid += 1;
      return null;
    }
    if (!this.options.listensTo(frame.tgid)) {
      this.stats.foreign += 1;
      return null;
    }
    const at = this.now();
    const group = (this.stats.groups[frame.tgid] ??= { frames: 0, bytes: 0, lost: 0, bursts: 0, talkers: {} });
    let burst = this.last.get(frame.tgid);
    const gap = burst ? (frame.seq - burst.lastSeq - 1) & 0xffff : MAX_GAP;
    if (!burst || burst.uid !== frame.uid || gap >= MAX_GAP) {
      // a sender numbers each burst from 0: a later first sequence number means lost frames
      const missed = frame.seq < MAX_GAP ? frame.seq : 0;
      burst = {
        tgid: frame.tgid,
        uid: frame.uid,
        emergency: false,
        frames: 0,
        bytes: 0,
        lost: missed,
        lastSeq: frame.seq,
        firstAt: at,
        lastAt: at,
        packets: [],
      };
      this.last.set(frame.tgid, burst);
      group.bursts += 1;
      group.lost += missed;
      this.stats.bursts += 1;
      this.stats.lost += missed;
    } else {
      burst.lost += gap;
      group.lost += gap;
      this.stats.lost += gap;
    }
    burst.emergency ||= (frame.flags & 1) === 1;
    burst.frames += 1;
    burst.bytes += frame.opus.byteLength;
    burst.lastSeq = frame.seq;
    burst.lastAt = at;
    if (this.options.keepPackets) burst.packets.push(frame.opus.slice());
    this.latest = burst;
    group.frames += 1;
    group.bytes += frame.opus.byteLength;
    group.talkers[frame.uid] = (group.talkers[frame.uid] ?? 0) + 1;
    this.stats.frames += 1;
    return frame;
  }

  /** The burst heard last (in `tgid`, or in any group). */
  lastBurst(tgid?: number): HeardBurst | null {
    return (tgid === undefined ? this.latest : this.last.get(tgid)) ?? null;
  }

  /** The last burst's packets as an Ogg Opus file (null without one, or when packets are not kept). */
  lastBurstOgg(tgid?: number): Uint8Array | null {
    const burst = this.lastBurst(tgid);
    if (!burst?.packets.length) return null;
    return oggOf(burst.packets, burst.uid);
  }
}

/** Opus packets as heard, in an Ogg Opus file (for ffmpeg to decode). */
export function oggOf(packets: readonly Uint8Array[], serial: number): Uint8Array {
  const writer = new OggOpusWriter({ serial, preSkip: OPUS_PRE_SKIP });
  const pages = [writer.header(), ...packets.map((p) => writer.packet(p, opusPacketSamples(p))), writer.end()];
  const out = new Uint8Array(pages.reduce((n, p) => n + p.length, 0));
  pages.reduce((at, p) => (out.set(p, at), at + p.length), 0);
  return out;
}
