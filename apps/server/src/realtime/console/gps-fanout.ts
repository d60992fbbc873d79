import { CmdType, GPS_NOTICE_MERGE_MS, UserType, type GpsFix } from '@bwc/protocol';
import type { PositionEvent } from '../../bus';
import { clusterNumbers } from './gps.repository';
import { sees } from './login';
import type { ConsoleService } from './service';

/**
 * notice_gps: positions committed by the device ingest (device API, OsmAnd, terminals through the
 * service: the `positions` bus event) of terminals, merged per terminal (latest fix wins) and sent
 * to each console that sees the terminal's unit at most every GPS_NOTICE_MERGE_MS (the map's
 * cadence), one notice per console with every changed fix of its scope.
 */
export class GpsFanout {
  private readonly pending = new Map<number, GpsFix & { unit_id: number }>();
  /** device id -> cluster number ('' for devices that are no terminals), kept until the device changes */
  private readonly clusters = new Map<number, string>();
  private timer: NodeJS.Timeout | null = null;
  private lastFlush = 0;
  /** notices sent since start (bench, tests) */
  sent = 0;

  constructor(private readonly service: ConsoleService) {}

  forget(deviceId: number): void {
    this.clusters.delete(deviceId);
  }

  async queue(positions: PositionEvent[]): Promise<void> {
    const unknown = [...new Set(positions.map((p) => p.device_id).filter((id) => !this.clusters.has(id)))];
    if (unknown.length) {
      const found = await clusterNumbers(this.service.app.db, unknown);
      for (const id of unknown) this.clusters.set(id, found.get(id) ?? '');
    }
    for (const p of positions) {
      const ext = this.clusters.get(p.device_id);
      if (!ext) continue;
      const cur = this.pending.get(p.device_id);
      if (cur && cur.time > p.time) continue;
      this.pending.set(p.device_id, {
        uid: p.device_id,
        ext_id: ext,
        lat: p.lat,
        lng: p.lng,
        speed: p.speed,
        course: p.course,
        accuracy: p.accuracy,
        battery: p.battery,
        time: p.time,
        unit_id: p.unit_id,
      });
    }
    if (this.pending.size && !this.timer) {
      const wait = Math.max(0, this.lastFlush + GPS_NOTICE_MERGE_MS - Date.now());
      this.timer = setTimeout(() => this.flush(), wait);
      this.timer.unref();
    }
  }

  /** Send the merged fixes; answers the number of notices sent. */
  flush(): number {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.lastFlush = Date.now();
    if (!this.pending.size) return 0;
    const fixes = [...this.pending.values()];
    this.pending.clear();
    // consoles with the same scope (administrators: null) share one serialised frame
    const frames = new Map<Set<number> | null, string | null>();
    let sent = 0;
    for (const conn of this.service.boundConnections()) {
      const login = conn.login!;
      if (login.user_type !== UserType.CONSOLE) continue;
      let frame = frames.get(login.scope);
      if (frame === undefined) {
        const gps = fixes.filter((f) => sees(login, f.unit_id)).map(({ unit_id: _unit, ...fix }) => fix);
        frame = gps.length ? JSON.stringify({ gps, msg_code: 'notice_gps', cmd_type: CmdType.NOTICE }) : null;
        frames.set(login.scope, frame);
      }
      if (frame && conn.send(frame)) sent += 1;
    }
    this.sent += sent;
    return sent;
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending.clear();
  }
}
