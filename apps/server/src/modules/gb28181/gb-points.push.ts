import { GB_SITE_DATA_FLUSH_MS, type GbSitePush } from '@bwc/protocol';
import { Coalescer, scopedFrame } from '../../realtime/session/coalesce';

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
  private readonly changes = new Coalescer<string, GbSitePush>(GB_SITE_DATA_FLUSH_MS, () => this.flush());

  constructor(private readonly clients: () => Iterable<PushClient>) {}

  queue(site: GbSitePush): void {
    this.changes.set(site.devgbid, site);
  }

  /** Send what is pending; answers the number of messages sent. */
  flush(): number {
    const sites = this.changes.take();
    if (!sites.length) return 0;
    const frames = new Map<ReadonlySet<number> | null, string | null>();
    let sent = 0;
    for (const c of this.clients()) {
      if (c.socket.readyState !== OPEN || !c.auth?.positions) continue;
      const frame = scopedFrame(frames, c.auth.units, 'gb_site_data', sites);
      if (frame === null) continue;
      c.socket.send(frame);
      sent += 1;
    }
    return sent;
  }

  close(): void {
    this.changes.close();
  }
}
