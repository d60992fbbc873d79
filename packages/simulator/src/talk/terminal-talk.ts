import {
  AUDIO_FRAME_MS,
  AUDIO_SAMPLE_RATE,
  AudioKind,
  EnterLeaveNotice,
  encodeAudioFrame,
  PttOnAnswer,
  PttStatusNotice,
  type FloorReason,
  type FloorResult,
} from '@bwc/protocol';
import { TalkListener, type HeardBurst, type HearingStats } from './listener';
import { burstPackets, decodeOgg, type BurstSource } from './media';
import { dominantTone, type DetectedTone } from './tone';

/**
 * Group talk of a simulated terminal (issue 14): it enters a group it is a member of, so that it
 * hears (req_enter_group; the service attaches a user to one group at a time), counts what it
 * hears (listener.ts) and, when asked to, decodes each burst and measures its tone; and it talks:
 * asks for the floor (req_ptt_on), waits until granted, sends its burst as binary frames paced
 * every 20 ms, stops early when a notice says somebody else holds the floor, and gives the floor
 * back (req_ptt_off).
 */

/** The connection of the terminal, as talk needs it. */
export interface TalkLink {
  /** its uid once logged on */
  uid(): number | null;
  request(code: string, payload?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** send a binary frame; false when there is no open connection */
  sendBinary(frame: Uint8Array): boolean;
}

export interface TerminalTalkOptions {
  /** enter a group at logon and hear it (default true) */
  listen?: boolean;
  /** keep the packets of each group's last burst heard (lastBurstOgg, analyseLastBurst; default false) */
  keepBursts?: boolean;
  /** decode every burst heard once it ends and measure its tone (lastHeard.tone; needs keepBursts, default false) */
  analyse?: boolean;
  /** what the terminal's bursts say (default: a tone) */
  source?: BurstSource;
  /** how long a queued request waits for the floor before giving up, ms (default 10 s) */
  grantTimeoutMs?: number;
  /** ffmpeg for encoding and decoding (default: @ffmpeg-installer/ffmpeg) */
  ffmpeg?: string | null;
  /** the directory of encoded clips (default TALK_CACHE_DIR) */
  cacheDir?: string;
  /** an analysis failed (no ffmpeg): the burst is still counted */
  onError?: (err: unknown) => void;
}

export interface TalkRequest {
  /** length of the burst (default 2 s) */
  seconds?: number;
  emergency?: boolean;
  /** what it says (default: the terminal's source) */
  source?: BurstSource;
}

export interface TalkResult {
  tgid: number;
  /** what became of the request: granted (and talked), queued (and never granted in time) or denied */
  result: FloorResult;
  /** why it was denied, or why it lost the floor before the end of the burst */
  reason?: FloorReason;
  /** frames sent */
  sent: number;
  /** the recorded burst's id (granted) */
  refid?: string;
}

export interface TalkingStats {
  bursts: number;
  framesSent: number;
  denied: number;
  /** requests queued that never got the floor in time */
  timedOut: number;
  /** bursts cut short: pre-empted, expired, released by a dispatcher */
  cut: number;
}

/** The burst heard last, as a test or a bench reads it. */
export interface HeardSummary {
  tgid: number;
  /** the talker */
  uid: number;
  frames: number;
  lost: number;
  emergency: boolean;
  /** over: no frame for BURST_END_MS */
  ended: boolean;
  /** measured in the decoded audio (analyse, or analyseLastBurst) */
  tone: DetectedTone | null;
}

/** What one terminal heard and said, for tests and benches. */
export interface TalkSummary {
  /** the group it is attached to */
  attached: number | null;
  burstsHeard: number;
  framesHeard: number;
  framesLost: number;
  lastHeard: HeardSummary | null;
  talked: TalkingStats;
}

/** A tone when nothing else is said: 440 Hz. */
const DEFAULT_SOURCE: BurstSource = { tone: 440 };
/** A burst is over when no frame came for this long (frames come every 20 ms; a relay may bunch them). */
const BURST_END_MS = 500;

type FloorWatcher = (notice: PttStatusNotice) => void;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class TerminalTalk {
  /** the group this terminal is attached to (entered), null when none */
  attached: number | null = null;
  readonly listener: TalkListener;
  readonly stats: TalkingStats = { bursts: 0, framesSent: 0, denied: 0, timedOut: 0, cut: 0 };
  private inBurst = false;
  private readonly watchers = new Set<FloorWatcher>();
  /** the tone measured in a burst heard, by the burst */
  private readonly tones = new WeakMap<HeardBurst, DetectedTone | null>();
  private endTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly link: TalkLink,
    private readonly options: TerminalTalkOptions = {},
  ) {
    this.listener = new TalkListener({
      listensTo: (tgid) => tgid === this.attached,
      keepPackets: Boolean(options.keepBursts || options.analyse),
    });
  }

  /** A talk() runs: asking for the floor, waiting for it or sending. */
  get talking(): boolean {
    return this.inBurst;
  }

  get hearing(): HearingStats {
    return this.listener.stats;
  }

  /** What it heard and said. */
  summary(): TalkSummary {
    const last = this.listener.lastBurst();
    return {
      attached: this.attached,
      burstsHeard: this.hearing.bursts,
      framesHeard: this.hearing.frames,
      framesLost: this.hearing.lost,
      lastHeard: last && {
        tgid: last.tgid,
        uid: last.uid,
        frames: last.frames,
        lost: last.lost,
        emergency: last.emergency,
        ended: this.ended(last),
        tone: this.tones.get(last) ?? null,
      },
      talked: { ...this.stats },
    };
  }

  /**
   * Logged on (or resumed) with these groups: enter the one it was in when it still is a member,
   * else the first; nothing when it belongs to none.
   */
  async loggedOn(groups: readonly number[]): Promise<void> {
    if (!(this.options.listen ?? true) || !groups.length) return;
    const tgid = this.attached !== null && groups.includes(this.attached) ? this.attached : groups[0]!;
    await this.enter(tgid);
  }

  /** Its groups changed: enter another when it is no longer a member of the one it was in. */
  async groupsChanged(groups: readonly number[]): Promise<void> {
    if (this.attached !== null && groups.includes(this.attached)) return;
    this.attached = null;
    await this.loggedOn(groups);
  }

  /** req_enter_group: speak and hear `tgid` (the service detaches it from any other group). */
  async enter(tgid: number): Promise<void> {
    await this.link.request('req_enter_group', { tgid, mute: 0 });
    this.attached = tgid;
  }

  /** A binary frame from the connection. */
  binary(data: Uint8Array): void {
    if (this.listener.receive(data) && !this.endTimer) this.watchEnd();
  }

  /** A notice from the connection: floor changes and attachments of this terminal. */
  notice(m: Record<string, unknown>): void {
    switch (m.msg_code) {
      case 'notice_ptt_status': {
        const parsed = PttStatusNotice.safeParse(m);
        if (parsed.success) for (const watch of [...this.watchers]) watch(parsed.data);
        break;
      }
      case 'notice_enter_group':
      case 'notice_leave_group': {
        const parsed = EnterLeaveNotice.safeParse(m);
        const uid = this.link.uid();
        if (!parsed.success || uid === null || !parsed.data.uids.includes(uid)) break;
        if (m.msg_code === 'notice_enter_group') this.attached = parsed.data.tgid;
        else if (this.attached === parsed.data.tgid) this.attached = null;
        break;
      }
      default:
        break;
    }
  }

  /**
   * Decode the last burst heard (in `tgid`, or in any group) with ffmpeg and measure its strongest
   * tone; null without a kept burst. Needs keepBursts (or analyse).
   */
  async analyseLastBurst(tgid?: number): Promise<DetectedTone | null> {
    const burst = this.listener.lastBurst(tgid);
    const ogg = this.listener.lastBurstOgg(tgid);
    if (!burst || !ogg) return null;
    const tone = dominantTone(await decodeOgg(ogg, this.options.ffmpeg), AUDIO_SAMPLE_RATE);
    this.tones.set(burst, tone);
    return tone;
  }

  private ended(burst: HeardBurst): boolean {
    return Date.now() - burst.lastAt >= BURST_END_MS;
  }

  /** One timer per burst rather than one per frame: when it fires early it waits the rest. */
  private watchEnd(): void {
    const last = this.listener.lastBurst();
    const wait = last ? Math.max(0, last.lastAt + BURST_END_MS - Date.now()) : 0;
    this.endTimer = setTimeout(() => {
      this.endTimer = null;
      const burst = this.listener.lastBurst();
      if (!burst) return;
      if (!this.ended(burst)) this.watchEnd();
      else if (this.options.analyse)
        this.analyseLastBurst(burst.tgid).catch((err: unknown) => this.options.onError?.(err));
    }, wait + 1);
    this.endTimer.unref();
  }

  /**
   * Talk in `tgid` for `seconds`: enter it if needed, ask for the floor, wait until granted (at
   * most grantTimeoutMs when queued), send the burst and give the floor back. Rejects with
   * TalkMediaError when the audio cannot be made, with a request's error when the service fails.
   */
  async talk(tgid: number, request: TalkRequest = {}): Promise<TalkResult> {
    if (this.inBurst) throw new Error('already talking');
    this.inBurst = true;
    try {
      return await this.burst(tgid, request);
    } finally {
      this.inBurst = false;
    }
  }

  private async burst(tgid: number, request: TalkRequest): Promise<TalkResult> {
    // encoded before asking: the floor is not held while ffmpeg works
    const packets = await burstPackets(request.source ?? this.options.source ?? DEFAULT_SOURCE, request.seconds ?? 2, {
      ffmpeg: this.options.ffmpeg,
      cacheDir: this.options.cacheDir,
    });
    if (this.attached !== tgid) await this.enter(tgid);

    const uid = this.link.uid();
    let refid: string | undefined;
    let lost: FloorReason | undefined;
    let granted!: () => void;
    const grant = new Promise<void>((resolve) => (granted = resolve));
    const take = (id: string) => {
      refid ??= id;
      granted();
    };
    // watched before asking: a queued request is granted by a notice, and the notice of a grant
    // may come before the answer
    const watch: FloorWatcher = (n) => {
      if (n.tgid !== tgid || n.result) return;
      if (refid === undefined) {
        if (n.talker?.uid === uid) take(n.talker.refid);
      } else if (n.talker?.refid !== refid) lost ??= n.reason ?? 'preempted';
    };
    this.watchers.add(watch);
    try {
      const answer = PttOnAnswer.parse(
        await this.link.request('req_ptt_on', { tgid, emergency: request.emergency ? 1 : 0 }),
      );
      if (answer.result === 'denied') {
        this.stats.denied += 1;
        return { tgid, result: 'denied', ...(answer.reason ? { reason: answer.reason } : {}), sent: 0 };
      }
      if (answer.result === 'granted' && answer.talker?.uid === uid) take(answer.talker.refid);
      let timer: NodeJS.Timeout | undefined;
      const inTime = await Promise.race([
        grant.then(() => true),
        new Promise<boolean>(
          (resolve) => (timer = setTimeout(() => resolve(false), this.options.grantTimeoutMs ?? 10_000)),
        ),
      ]);
      clearTimeout(timer);
      if (!inTime) {
        this.stats.timedOut += 1;
        await this.letGo(tgid);
        return { tgid, result: 'queued', sent: 0 };
      }

      const sent = await this.send(tgid, packets, request.emergency ?? false, () => lost !== undefined);
      // read before req_ptt_off, whose own notice (released) follows
      const cut = lost;
      this.stats.bursts += 1;
      if (cut) this.stats.cut += 1;
      await this.letGo(tgid);
      return { tgid, result: 'granted', ...(cut ? { reason: cut } : {}), sent, refid };
    } finally {
      this.watchers.delete(watch);
    }
  }

  /** The frames of a burst, one every 20 ms on an absolute schedule (no drift), until `stop` says so. */
  private async send(tgid: number, packets: Uint8Array[], emergency: boolean, stop: () => boolean): Promise<number> {
    const start = Date.now();
    let sent = 0;
    for (const [seq, opus] of packets.entries()) {
      if (stop()) break;
      const frame = encodeAudioFrame({
        kind: AudioKind.GROUP,
        flags: emergency ? 1 : 0,
        tgid,
        uid: 0,
        seq,
        clock: Date.now() % 2 ** 32,
        opus,
      });
      if (!this.link.sendBinary(frame)) break;
      sent += 1;
      this.stats.framesSent += 1;
      const wait = start + (seq + 1) * AUDIO_FRAME_MS - Date.now();
      if (wait > 0) await sleep(wait);
    }
    return sent;
  }

  /** req_ptt_off; a closed connection already let go of the floor. */
  private async letGo(tgid: number): Promise<void> {
    await this.link.request('req_ptt_off', { tgid }).catch(() => {});
  }
}
