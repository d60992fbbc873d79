// No DOM here: bench/live-page.ts puts these into its page from Node, so the bench plays as the
// console does.

/**
 * How a player keeps near the live edge (seconds of video buffered ahead of the shown frame). A
 * viewer joins at the cached keyframe, up to a GOP (1 s for our cameras) behind live: with 1.5 s /
 * 0.8 s thresholds such a viewer stayed 0.5-0.8 s behind (bench/live-latency.ts measured 910 ms
 * glass to glass, 645 ms of it buffer), so it jumps beyond 0.8 s and plays faster beyond 0.35 s.
 * bench/live-latency.ts runs the same numbers and `catchUp` in its page.
 *
 * A jump is a seek: the browser decodes from the keyframe before the new position before it shows
 * a frame. On a machine too busy to decode every tile in time, jumping again and again kept the
 * pictures from moving at all (a 9-tile wall with the CPU shared by four busy loops: up to 2 seeks
 * a second per tile, tiles stalled for most of 30 s; in a CI run none of the nine moved for
 * 150 s). So there is no jump while a seek is under way, and at most one per `chaseEveryS`; in
 * between the player plays faster. mpegts.js' own chasing, which jumps at every buffer append,
 * stays off.
 */
export const LIVE_CATCH_UP = {
  /** beyond this, jump to `chaseMinRemainS` behind the edge */
  chaseMaxLatencyS: 0.8,
  chaseMinRemainS: 0.25,
  /** at most one jump this often, s */
  chaseEveryS: 3,
  /** beyond this, play at `nudgeRate` */
  nudgeFromS: 0.35,
  nudgeRate: 1.1,
  /** how often the latency and the stall watchdog are checked, ms */
  tickMs: 500,
} as const;

/**
 * What to do about the distance to the live edge, `sinceJumpS` after the last jump: beyond
 * chaseMaxLatencyS jump to just behind the edge (this also covers a player that was paused by the
 * browser) unless the last jump is less than chaseEveryS ago, beyond nudgeFromS play a little
 * faster, else at normal speed. The caller makes no jump while the video is seeking.
 */
export function catchUp(latencyS: number, sinceJumpS: number): { seekBack: number | null; rate: number } {
  if (latencyS > LIVE_CATCH_UP.chaseMaxLatencyS && sinceJumpS >= LIVE_CATCH_UP.chaseEveryS)
    return { seekBack: LIVE_CATCH_UP.chaseMinRemainS, rate: 1 };
  if (latencyS > LIVE_CATCH_UP.nudgeFromS) return { seekBack: null, rate: LIVE_CATCH_UP.nudgeRate };
  return { seekBack: null, rate: 1 };
}

/** mpegts.js settings of a live player: no stash buffer, no chasing of its own (catchUp does it). */
export const MPEGTS_LIVE_CONFIG = {
  isLive: true,
  enableWorker: false,
  enableStashBuffer: false,
  lazyLoad: false,
  liveBufferLatencyChasing: false,
  autoCleanupSourceBuffer: true,
  autoCleanupMaxBackwardDuration: 20,
  autoCleanupMinBackwardDuration: 10,
} as const;
