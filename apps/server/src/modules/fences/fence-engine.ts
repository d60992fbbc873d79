import {
  FENCE_RULES,
  shapeBounds,
  shapeContains,
  type FenceDirection,
  type FenceRule,
  type FenceShape,
} from '@bwc/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { EventBus, PositionEvent } from '../../bus';
import { now, type Db } from '../../db/connection';
import { loadUnitTree } from '../../http/scope';
import * as repo from './fences.repository';
import { parseShape } from './fences.service';

/** Payload of the domain event `fence.crossed` (the alarms module makes an alarm of type 0 of it). */
export interface FenceCrossedEvent {
  /** fence_events row id */
  event_id: number;
  fence: { id: number; name: string; unit_id: number; rule: FenceRule };
  device: { device_id: number; unit_id: number; hostbody: string; imei: string; hostname: string; hostcode: string };
  direction: FenceDirection;
  /** the position that crossed (WGS-84) */
  position: PositionEvent;
  /** fix time of that position, ISO */
  time: string;
}

declare module '../../bus' {
  interface DomainEvents {
    /** a device crossed an electronic fence in a direction its rule alarms on, within its time window */
    'fence.crossed': FenceCrossedEvent;
    /** a fence was created, changed or deleted (the node running the engine reloads it) */
    'fence.changed': { fence_id: number };
  }
}

interface CompiledFence {
  id: number;
  name: string;
  unit_id: number;
  rule: FenceRule;
  /** minutes of the day [start, end] (wraps past midnight when start > end); null = all day */
  window: [number, number] | null;
  shape: FenceShape;
  bbox: [number, number, number, number];
  devices: Set<number>;
  units: Set<number>;
}

interface State {
  inside: boolean;
  /** fix time of the last position evaluated */
  time: string;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Whether `time` (ISO) falls in the daily window, in the server's local time. */
export function inWindow(window: [number, number] | null, time: string): boolean {
  if (!window) return true;
  const d = new Date(time);
  const m = d.getHours() * 60 + d.getMinutes();
  const [start, end] = window;
  return start <= end ? m >= start && m <= end : m >= start || m <= end;
}

export function ruleMatches(rule: FenceRule, direction: FenceDirection): boolean {
  return rule === 'both' || rule === direction;
}

/**
 * Fence crossing detection on the `positions` domain events. Keeps per (fence, device) the last
 * inside/outside state (in memory, persisted in fence_states on every change). The first position
 * of a device for a fence only sets the state; afterwards each flip is a transition, and a
 * transition whose direction the rule names, at a fix time inside the time window, for a device
 * the fence applies to, writes one fence_events row and emits `fence.crossed` after the commit.
 * Positions are evaluated per device in time order; one older than the state's is ignored.
 * Batches are processed one after another (a promise chain), never concurrently.
 */
export interface FenceEngineDeps {
  db: Db;
  /** emits `fence.crossed`; the `positions` subscription is the module's (fences.module.ts) */
  bus: EventBus;
  log: FastifyBaseLogger;
}

/** Fence crossing detection (see above), built from explicit dependencies by fences.module.ts. */
export class FenceEngine {
  private fences: CompiledFence[] = [];
  private states = new Map<string, State>();
  private loaded = false;
  private queue: Promise<void> = Promise.resolve();
  /** totals since start */
  readonly stats = { positions: 0, crossings: 0 };

  constructor(private readonly deps: FenceEngineDeps) {}

  /** A batch of stored positions (the bus `positions` event, subscribed by fences.module.ts): queued. */
  onPositions(positions: PositionEvent[]): void {
    void this.enqueue(() => this.process(positions));
  }

  /** A fence was written on this node: reload, and tell the other nodes. Resolves once applied here. */
  changed(fenceId: number): Promise<void> {
    this.deps.bus.emit('fence.changed', { fence_id: fenceId });
    return this.reload();
  }

  /** Reload fences and states (after a fence changed, or when this node starts running the engine). Resolves once applied. */
  reload(): Promise<void> {
    return this.enqueue(() => this.load());
  }

  /** Resolves when every batch queued so far is processed (tests, shutdown). */
  idle(): Promise<void> {
    return this.queue;
  }

  private enqueue(fn: () => Promise<void>): Promise<void> {
    const next = this.queue.then(fn).catch((err: unknown) => this.deps.log.error({ err }, 'fence engine step failed'));
    this.queue = next;
    return next;
  }

  private async load(): Promise<void> {
    const db = this.deps.db;
    const rows = await repo.enabledFences(db);
    const subtree = await loadUnitTree(db);
    const fences: CompiledFence[] = [];
    for (const row of rows) {
      const shape = parseShape(row.shape);
      if (!shape || !(FENCE_RULES as readonly string[]).includes(row.rule)) continue;
      const deviceIds = JSON.parse(row.device_ids) as number[];
      const unitIds = JSON.parse(row.unit_ids) as number[];
      const unitSet = new Set<number>();
      if (!deviceIds.length && !unitIds.length) subtree(row.unit_id, unitSet);
      for (const u of unitIds) subtree(u, unitSet);
      fences.push({
        id: row.id,
        name: row.name,
        unit_id: row.unit_id,
        rule: row.rule as FenceRule,
        window: row.time_start && row.time_end ? [minutesOf(row.time_start), minutesOf(row.time_end)] : null,
        shape,
        bbox: shapeBounds(shape),
        devices: new Set(deviceIds),
        units: unitSet,
      });
    }
    const states = new Map<string, State>();
    for (const s of await repo.fenceStates(
      db,
      fences.map((f) => f.id),
    ))
      states.set(`${s.fence_id}:${s.device_id}`, { inside: s.inside === 1, time: s.time });
    this.fences = fences;
    this.states = states;
    this.loaded = true;
  }

  private async process(positions: PositionEvent[]): Promise<void> {
    if (!this.loaded) await this.load();
    this.stats.positions += positions.length;
    if (!this.fences.length) return;
    const sorted = [...positions].sort(
      (a, b) => a.device_id - b.device_id || (a.time < b.time ? -1 : a.time > b.time ? 1 : 0),
    );
    const changed = new Map<string, { fence: CompiledFence; deviceId: number; state: State }>();
    const crossings: { fence: CompiledFence; position: PositionEvent; direction: FenceDirection }[] = [];
    for (const p of sorted) {
      for (const fence of this.fences) {
        if (!fence.devices.has(p.device_id) && !fence.units.has(p.unit_id)) continue;
        const key = `${fence.id}:${p.device_id}`;
        const prev = this.states.get(key);
        if (prev && p.time < prev.time) continue;
        const [w, s, e, n] = fence.bbox;
        const inside = p.lng >= w && p.lng <= e && p.lat >= s && p.lat <= n && shapeContains(fence.shape, p);
        const state = { inside, time: p.time };
        this.states.set(key, state);
        if (prev && prev.inside === inside) continue;
        changed.set(key, { fence, deviceId: p.device_id, state });
        if (!prev) continue;
        const direction: FenceDirection = inside ? 'enter' : 'exit';
        if (ruleMatches(fence.rule, direction) && inWindow(fence.window, p.time))
          crossings.push({ fence, position: p, direction });
      }
    }
    if (!changed.size) return;
    const db = this.deps.db;
    // devices deleted since their positions were stored have no state to keep (foreign key)
    const devices = await repo.devicesByIds(db, [...new Set([...changed.values()].map((c) => c.deviceId))]);
    const alive = new Set(devices.map((d) => d.id));
    const events: FenceCrossedEvent[] = [];
    await db.transaction().execute(async (trx) => {
      for (const c of changed.values())
        if (alive.has(c.deviceId))
          await repo.upsertFenceState(trx, c.fence.id, c.deviceId, c.state.inside ? 1 : 0, c.state.time);
      const ts = now();
      for (const c of crossings) {
        const d = devices.find((x) => x.id === c.position.device_id);
        if (!d) continue; // deleted meanwhile
        const id = await repo.insertFenceEvent(trx, {
          fence_id: c.fence.id,
          fence_name: c.fence.name,
          device_id: d.id,
          unit_id: d.unit_id,
          direction: c.direction,
          lat: c.position.lat,
          lng: c.position.lng,
          time: c.position.time,
          created: ts,
        });
        events.push({
          event_id: id,
          fence: { id: c.fence.id, name: c.fence.name, unit_id: c.fence.unit_id, rule: c.fence.rule },
          device: {
            device_id: d.id,
            unit_id: d.unit_id,
            hostbody: d.hostbody,
            imei: d.imei,
            hostname: d.hostname,
            hostcode: d.hostcode,
          },
          direction: c.direction,
          position: c.position,
          time: c.position.time,
        });
      }
    });
    this.stats.crossings += events.length;
    for (const e of events) this.deps.bus.emit('fence.crossed', e);
  }
}
