/** A socket of a channel, with when it was last heard from (a message, or a pong). */
export interface Audible {
  readonly lastHeard: number;
}

export interface SweepOptions<C> {
  /** silent longer than this (ms): `onSilent` */
  limitMs: number;
  /** close (and forget) a silent socket */
  onSilent: (conn: C) => void;
  /** ask a socket that is still alive for a sign of life (a websocket ping), if the channel does */
  probe?: (conn: C) => void;
  now?: number;
}

/**
 * The heartbeat of the realtime channels: every socket records when it was last heard, and the
 * channel's timer sweeps them. The session push channel pings at every sweep and closes a socket
 * that did not answer since the previous one (limit = sweep interval); the console service needs
 * no ping (the SDK sends a heartbeat every 10 s) and closes a socket silent past
 * CONSOLE_SILENCE_LIMIT_MS. Answers how many sockets were closed.
 */
export function sweepSilent<C extends Audible>(conns: Iterable<C>, options: SweepOptions<C>): number {
  const now = options.now ?? Date.now();
  let closed = 0;
  for (const conn of [...conns]) {
    if (now - conn.lastHeard > options.limitMs) {
      options.onSilent(conn);
      closed += 1;
    } else options.probe?.(conn);
  }
  return closed;
}
