// No DOM here: bench/live-page.ts puts these into its page from Node, so the bench plays as the
// console does.

/**
 * How a player keeps near the live edge (seconds of video buffered ahead of the shown frame). A
 * viewer joins at the cached keyframe, up to a GOP (1 s for our cameras) behind live: with 1.5 s /
 * 0.8 s thresholds such a viewer stayed 0.5-0.8 s behind (bench/live-latency.ts measured 910 ms
 * glass to glass, 645 ms of it buffer), so it jumps beyond 0.8 s and plays faster beyond 0.35 s.
 * bench/live-latency.ts runs the same numbers and `catchUp` in its page.
 */
export const LIVE_CATCH_UP = {
  /** beyond this, jump to `chaseMinRemainS` behind the edge (mpegts' own chasing uses it too) */
  chaseMaxLatencyS: 0.8,
  chaseMinRemainS: 0.25,
  /** beyond this, play at `nudgeRate` */
  nudgeFromS: 0.35,
  nudgeRate: 1.1,
  /** how often the latency and the stall watchdog are checked, ms */
  tickMs: 500,
} as const;

/**
 * What to do about the distance to the live edge: beyond chaseMaxLatencyS jump to just behind the
 * edge (mpegts does the same while it is chasing; this also covers a player that was paused by the
 * browser), beyond nudgeFromS play a little faster, else at normal speed.
 */
export function catchUp(latencyS: number): { seekBack: number | null; rate: number } {
  if (latencyS > LIVE_CATCH_UP.chaseMaxLatencyS) return { seekBack: LIVE_CATCH_UP.chaseMinRemainS, rate: 1 };
  if (latencyS > LIVE_CATCH_UP.nudgeFromS) return { seekBack: null, rate: LIVE_CATCH_UP.nudgeRate };
  return { seekBack: null, rate: 1 };
}

/** mpegts.js settings of a live player: no stash buffer, mpegts' own chasing with our numbers. */
export const MPEGTS_LIVE_CONFIG = {
  isLive: true,
  enableWorker: false,
  enableStashBuffer: false,
  lazyLoad: false,
  liveBufferLatencyChasing: true,
  liveBufferLatencyMaxLatency: LIVE_CATCH_UP.chaseMaxLatencyS,
  liveBufferLatencyMinRemain: LIVE_CATCH_UP.chaseMinRemainS,
  autoCleanupSourceBuffer: true,
  autoCleanupMaxBackwardDuration: 20,
  autoCleanupMinBackwardDuration: 10,
} as const;
