import { AUDIO_FRAME_MS } from '@bwc/protocol';

/**
 * When each received 20 ms frame of one talker plays (times in ms on the playout clock, the
 * AudioContext's). A burst starts `delayMs` after its first frame arrives; frame n of the burst
 * plays `n` frame lengths later, so that frames arriving up to `delayMs` late still play on time
 * and back to back:
 *
 * - a frame that comes after its time (an underrun) grows the delay by `growMs` at once: the burst
 *   moves later (a short silence) and the frame plays;
 * - a delay found too long shrinks slowly: after `shrinkWindowMs` in which every frame came at
 *   least one frame length plus the margin early, one frame is left out (20 ms of the talk cut,
 *   nothing else moves) and the delay is a frame length shorter, never under `minMs`;
 * - a burst that lags behind its delay (a late frame moved it by all its lateness, a stall of the
 *   page for instance) catches up: after `catchUpWindowMs` in which every frame came at least a
 *   frame length earlier than the delay needs, up to `catchUpFrames` frames are left out one after
 *   the other (each takes the place of the one before), so the talk is not heard late for the
 *   rest of the burst;
 * - a frame older than the newest one placed plays only if its own place is still ahead (it fills
 *   a gap); else it is late and dropped. Frames never seen are counted lost;
 * - silence longer than `idleMs` after the last frame's end, or a sequence number jumping far,
 *   starts a new burst (a talker's next press starts over at sequence 0).
 */
export interface JitterOptions {
  frameMs: number;
  initialMs: number;
  minMs: number;
  maxMs: number;
  growMs: number;
  /** time needed to hand a buffer to the audio output before it plays */
  marginMs: number;
  shrinkWindowMs: number;
  catchUpWindowMs: number;
  catchUpFrames: number;
  idleMs: number;
}

export const JITTER_DEFAULTS: JitterOptions = {
  frameMs: AUDIO_FRAME_MS,
  initialMs: 60,
  minMs: 40,
  maxMs: 400,
  growMs: 20,
  marginMs: 5,
  shrinkWindowMs: 4_000,
  catchUpWindowMs: 500,
  catchUpFrames: 5,
  idleMs: 200,
};

export type Placement = { kind: 'play'; at: number } | { kind: 'late' } | { kind: 'skip' };

/** Frames further behind the newest than this, or ahead by more than the second, start a new burst. */
const BACKWARD_RESTART = 50;
const FORWARD_RESTART = 500;
/** How many recently placed frames are remembered to drop a duplicate. */
const RECENT = 64;

export class JitterBuffer {
  readonly options: JitterOptions;
  /** the delay the next burst starts with (grows on underrun, shrinks slowly) */
  delayMs: number;
  /** ms between the clock and the start of the frame placed last */
  bufferMs = 0;
  played = 0;
  late = 0;
  lost = 0;
  underruns = 0;
  skipped = 0;
  bursts = 0;
  /** where frame 0 of the burst (extended sequence) would play */
  private anchor: number | null = null;
  private highest = 0;
  private lastEnd = 0;
  private windowStart = 0;
  private windowMinSlack = Infinity;
  private catchUpStart = 0;
  private catchUpMinSlack = Infinity;
  /** frames still to leave out to catch up */
  private catchingUp = 0;
  private readonly recent = new Set<number>();

  constructor(options: Partial<JitterOptions> = {}) {
    this.options = { ...JITTER_DEFAULTS, ...options };
    this.delayMs = this.options.initialMs;
  }

  /** Where frame `seq` (uint16, wrapping) plays, for a frame decoded at `now`. */
  place(seq: number, now: number): Placement {
    const { frameMs, marginMs } = this.options;
    const diff = this.anchor === null ? 0 : (((seq - (this.highest & 0xffff) + 0x8000) & 0xffff) - 0x8000) | 0;
    if (
      this.anchor === null ||
      now > this.lastEnd + this.options.idleMs ||
      diff < -BACKWARD_RESTART ||
      diff > FORWARD_RESTART
    )
      return this.startBurst(seq, now);
    const ext = this.highest + diff;
    if (this.recent.has(ext)) return this.drop();
    let at = this.anchor + ext * frameMs;
    const slack = at - now;
    if (ext < this.highest) {
      if (slack < marginMs) return this.drop();
      this.lost -= 1; // it was counted lost when the newer frame came
      return this.play(ext, at, now);
    }
    this.lost += ext - this.highest - 1;
    this.highest = ext;
    if (slack < marginMs) {
      this.late += 1;
      this.underruns += 1;
      const grow = this.options.growMs;
      this.delayMs = Math.min(this.options.maxMs, this.delayMs + grow);
      const shift = marginMs - slack + grow;
      this.anchor += shift;
      at += shift;
      this.resetWindow(now);
    } else {
      this.windowMinSlack = Math.min(this.windowMinSlack, slack);
      this.catchUpMinSlack = Math.min(this.catchUpMinSlack, slack);
      if (this.catchingUp === 0 && now - this.catchUpStart >= this.options.catchUpWindowMs) {
        const excess = this.catchUpMinSlack - this.delayMs;
        this.catchingUp = Math.min(this.options.catchUpFrames, Math.floor(excess / frameMs));
        this.catchUpStart = now;
        this.catchUpMinSlack = Infinity;
      }
      if (this.catchingUp > 0) {
        this.catchingUp -= 1;
        this.anchor -= frameMs;
        this.skipped += 1;
        this.remember(ext);
        return { kind: 'skip' };
      }
      if (now - this.windowStart >= this.options.shrinkWindowMs) {
        const shrink = this.windowMinSlack >= frameMs + marginMs && this.delayMs - frameMs >= this.options.minMs;
        this.resetWindow(now);
        if (shrink) {
          // this frame's place goes to the next one: nothing overlaps, nothing else moves
          this.delayMs -= frameMs;
          this.anchor -= frameMs;
          this.skipped += 1;
          this.remember(ext);
          return { kind: 'skip' };
        }
      }
    }
    return this.play(ext, at, now);
  }

  private startBurst(seq: number, now: number): Placement {
    this.bursts += 1;
    this.highest = seq;
    this.recent.clear();
    this.anchor = now + this.delayMs - seq * this.options.frameMs;
    this.resetWindow(now);
    return this.play(seq, now + this.delayMs, now);
  }

  private play(ext: number, at: number, now: number): Placement {
    this.played += 1;
    this.remember(ext);
    this.lastEnd = Math.max(this.lastEnd, at + this.options.frameMs);
    this.bufferMs = at - now;
    return { kind: 'play', at };
  }

  private drop(): Placement {
    this.late += 1;
    return { kind: 'late' };
  }

  private remember(ext: number): void {
    this.recent.add(ext);
    for (const old of this.recent) if (old <= this.highest - RECENT) this.recent.delete(old);
  }

  private resetWindow(now: number): void {
    this.windowStart = now;
    this.windowMinSlack = Infinity;
    this.catchUpStart = now;
    this.catchUpMinSlack = Infinity;
    this.catchingUp = 0;
  }
}
