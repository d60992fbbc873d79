import { GB_SITE_DATA_FLUSH_MS, type GbSitePush } from '@bwc/protocol';

const OPEN = 1;

/** What the push reads of a session-channel console (realtime/session SessionHub clients). */
export interface PushClient {
  socket: { readyState: number; send(data: string): void };
  auth: { positions: boolean; units: ReadonlySet<number> | null } | null;
}

/**
 * gb_site_data (protocol realtime-session.ts): GB devices' new positions and online changes,
 * merged per device (the last state wins) and sent at most every GB_SITE_DATA_FLUSH_MS to the
 * consoles that receive site_data (view on 10101) and see the device's unit.
 */
export class GbSitePushQueue {
  private readonly pending = new Map<string, GbSitePush>();
  private timer: NodeJS.Timeout | null = null;
  private last = 0;

  constructor(private readonly clients: () => Iterable<PushClient>) {}

  queue(site: GbSitePush): void {
    this.pending.set(site.devgbid, site);
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), Math.max(0, this.last + GB_SITE_DATA_FLUSH_MS - Date.now()));
    this.timer.unref();
  }

  /** Send what is pending; answers the number of messages sent. */
  flush(): number {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.last = Date.now();
    const sites = [...this.pending.values()];
    this.pending.clear();
    if (!sites.length) return 0;
    // consoles sharing a unit scope (the session channel's cached Set) share a frame
    const frames = new Map<ReadonlySet<number> | null, string | null>();
    let sent = 0;
    for (const c of this.clients()) {
      if (c.socket.readyState !== OPEN || !c.auth?.positions) continue;
      const units = c.auth.units;
      let frame = frames.get(units);
      if (frame === undefined) {
        const data = units === null ? sites : sites.filter((s) => units.has(s.unit_id));
        frame = data.length ? JSON.stringify({ type: 'gb_site_data', data }) : null;
        frames.set(units, frame);
      }
      if (frame === null) continue;
      c.socket.send(frame);
      sent += 1;
    }
    return sent;
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending.clear();
  }
}
