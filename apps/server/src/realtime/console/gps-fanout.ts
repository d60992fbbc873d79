import { CmdType, GPS_NOTICE_MERGE_MS, UserType, type GpsFix } from '@bwc/protocol';
import type { PositionEvent } from '../../bus';
import { clusterNumbers } from './gps.repository';
import type { ConsoleService } from './service';

/**
 * notice_gps: positions committed by the device ingest (device API, OsmAnd, terminals through the
 * service: the `positions` bus event) of terminals, merged per terminal (latest fix wins) and sent
 * to each console that sees the terminal's unit at most every GPS_NOTICE_MERGE_MS (the map's
 * cadence), one notice per console with every changed fix of its scope.
 */
/** Consoles written to between two yields to the event loop during a flush. */
const GPS_SLICE = 50;

export class GpsFanout {
  private readonly pending = new Map<number, GpsFix & { unit_id: number }>();
  /** device id -> cluster number ('' for devices that are no terminals), kept until the device changes */
  private readonly clusters = new Map<number, string>();
  private timer: NodeJS.Timeout | null = null;
  private lastFlush = 0;
  /** a flush is sending its slices (the next one waits for it) */
  private flushing = false;
  /** notices sent since start, and frames serialised for them (bench, tests) */
  sent = 0;
  serialised = 0;

  constructor(private readonly service: ConsoleService) {}

  forget(deviceId: number): void {
    this.clusters.delete(deviceId);
  }

  async queue(positions: PositionEvent[]): Promise<void> {
    const unknown = [...new Set(positions.map((p) => p.device_id).filter((id) => !this.clusters.has(id)))];
    if (unknown.length) {
      const found = await clusterNumbers(this.service.deps.db, unknown);
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
    this.schedule();
  }

  private schedule(): void {
    if (!this.pending.size || this.timer || this.flushing) return;
    const wait = Math.max(0, this.lastFlush + GPS_NOTICE_MERGE_MS - Date.now());
    this.timer = setTimeout(() => void this.flush(), wait);
    this.timer.unref();
  }

  /**
   * Send the merged fixes; answers the number of notices sent. The consoles are written to
   * GPS_SLICE at a time, yielding to the event loop in between, so that requests arriving during
   * a flush (texts, emergencies) are answered between two slices instead of after all of them.
   */
  async flush(): Promise<number> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.flushing) return 0;
    this.lastFlush = Date.now();
    if (!this.pending.size) return 0;
    this.flushing = true;
    try {
      return await this.send();
    } finally {
      this.flushing = false;
      this.schedule();
    }
  }

  private async send(): Promise<number> {
    const byUnit = new Map<number, GpsFix[]>();
    for (const { unit_id, ...fix } of this.pending.values()) {
      const list = byUnit.get(unit_id);
      if (list) list.push(fix);
      else byUnit.set(unit_id, [fix]);
    }
    this.pending.clear();
    // consoles with the same scope share one serialised frame: dispatchers of one unit are many,
    // and each login's scope is a new Set after every refresh, so the scope is keyed by content
    const frames = new Map<string, string | null>();
    let sent = 0;
    const consoles = this.service.consoleConnections();
    for (let i = 0; i < consoles.length; i++) {
      if (i > 0 && i % GPS_SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      const conn = consoles[i]!;
      // the login may have ended (or been taken over) while earlier slices were written
      const login = conn.login;
      if (!login || login.user_type !== UserType.CONSOLE) continue;
      const key = scopeKey(login.scope);
      let frame = frames.get(key);
      if (frame === undefined) {
        const gps = fixesSeen(login.scope, byUnit);
        frame = gps.length ? JSON.stringify({ gps, msg_code: 'notice_gps', cmd_type: CmdType.NOTICE }) : null;
        if (frame) this.serialised += 1;
        frames.set(key, frame);
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

/** A scope's content as a key ('*' for every unit), computed once per scope Set. */
const scopeKeys = new WeakMap<Set<number>, string>();
function scopeKey(scope: Set<number> | null): string {
  if (scope === null) return '*';
  let key = scopeKeys.get(scope);
  if (key === undefined) {
    key = [...scope].sort((a, b) => a - b).join(',');
    scopeKeys.set(scope, key);
  }
  return key;
}

/** The fixes of the units a scope sees (null: all), walking whichever of the two is smaller. */
function fixesSeen(scope: Set<number> | null, byUnit: Map<number, GpsFix[]>): GpsFix[] {
  const out: GpsFix[] = [];
  if (scope === null || scope.size > byUnit.size) {
    for (const [unit, fixes] of byUnit) if (scope === null || scope.has(unit)) out.push(...fixes);
  } else {
    for (const unit of scope) {
      const fixes = byUnit.get(unit);
      if (fixes) out.push(...fixes);
    }
  }
  return out;
}
