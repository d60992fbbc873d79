import type { DevicePoint } from '@bwc/protocol';
import { diffPoints, mergeBurst, type PointDiff } from './points';

type DiffListener = (diff: PointDiff) => void;

/**
 * A live change of one known device (site_data position push, device_data online/offline): only
 * the fields it carries change. Position fields apply only when their fix is not older than the
 * shown one.
 */
export interface PointPatch {
  id: number;
  lat?: number;
  lng?: number;
  speed?: number | null;
  course?: number | null;
  battery?: number | null;
  gps_time?: string;
  lineon?: number;
}

interface Pending {
  batches: DevicePoint[][];
  full: boolean;
  patches: PointPatch[];
  /** SOS changes in arrival order: a full replacement (set) or one device on/off */
  sos: ({ kind: 'replace'; ids: ReadonlySet<number> } | { kind: 'set'; id: number; on: boolean })[];
}

/** React listeners (counts, host list) hear at most this often: each render of 10,000 rows costs. */
export const REACT_NOTIFY_MS = 1_000;

const emptyPending = (): Pending => ({ batches: [], full: false, patches: [], sos: [] });

/**
 * The devices the dispatch map shows, outside React. Answers (polls), live pushes (patches) and
 * SOS changes are queued and flushed once per frame: a burst is merged per device, compared with
 * what is shown, and only the difference goes to the map layer (never a full reload). React reads
 * counts through `subscribe`/`version` (useSyncExternalStore), told at most every REACT_NOTIFY_MS.
 */
export class DevicePointStore {
  private points = new Map<number, DevicePoint>();
  private sosIds = new Set<number>();
  private pending: Pending = emptyPending();
  private scheduled = false;
  private diffListeners = new Set<DiffListener>();
  private unknownListeners = new Set<(ids: number[]) => void>();
  private reactListeners = new Set<() => void>();
  private versionNo = 0;
  private rosterNo = 0;
  private onlineNo = 0;
  private lastNotified = -Infinity;
  private notifyTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly schedule: (flush: () => void) => void = defaultSchedule,
    private readonly clock: () => number = now,
  ) {}

  /** Queue an answer. `full`: it holds every device of the scope (missing ones are removed). */
  push(points: DevicePoint[], full = false): void {
    if (!Array.isArray(points)) return;
    this.pending.batches.push(points);
    this.pending.full ||= full;
    this.request();
  }

  /** Queue live changes of devices; ids the store does not know are reported to `onUnknown`. */
  patch(patches: readonly PointPatch[]): void {
    if (patches.length === 0) return;
    for (const p of patches) this.pending.patches.push(p);
    this.request();
  }

  /** SOS state: replace the whole set (snapshot) ... */
  replaceSos(ids: Iterable<number>): void {
    this.pending.sos.push({ kind: 'replace', ids: new Set(ids) });
    this.request();
  }

  /** ... or switch one device. */
  setSos(id: number, on: boolean): void {
    this.pending.sos.push({ kind: 'set', id, on });
    this.request();
  }

  isSos(id: number): boolean {
    return this.sosIds.has(id);
  }

  private request(): void {
    if (!this.scheduled) {
      this.scheduled = true;
      this.schedule(() => this.flush());
    }
  }

  /** Apply the queued answers now (also what the scheduled frame calls). */
  flush(): PointDiff {
    const started = this.clock();
    this.scheduled = false;
    const { batches, full, patches, sos } = this.pending;
    this.pending = emptyPending();
    const next = mergeBurst(batches);
    // a poll answer read before a newer pushed fix must not move the device back
    for (const [id, point] of next) {
      const shown = this.points.get(id);
      if (shown && olderFix(point, shown)) next.set(id, withFix(point, shown));
    }
    const unknown: number[] = [];
    const patched = new Map<number, DevicePoint>();
    for (const p of patches) {
      const base = patched.get(p.id) ?? next.get(p.id) ?? this.points.get(p.id);
      if (!base) {
        unknown.push(p.id);
        continue;
      }
      const merged = applyPatch(base, p);
      if (merged !== base) patched.set(p.id, merged);
    }
    // a full answer without a patched device removes it (out of scope now)
    for (const [id, point] of patched) if (!full || next.has(id)) next.set(id, point);
    const diff = diffPoints(this.points, next, full);
    // SOS switches redraw their device even when its point did not change
    const sosChanged = this.applySos(sos);
    if (sosChanged.length > 0) {
      const upserted = new Set(diff.upsert.map((p) => p.id));
      const removed = new Set(diff.remove);
      for (const id of sosChanged) {
        const point = next.get(id) ?? this.points.get(id);
        if (point && !upserted.has(id) && !removed.has(id)) diff.upsert.push(point);
      }
    }
    let roster = diff.remove.length > 0;
    for (const point of diff.upsert) {
      const before = this.points.get(point.id);
      if (!before || rosterChanged(before, point)) roster = true;
      this.onlineNo += (point.lineon === 1 ? 1 : 0) - (before?.lineon === 1 ? 1 : 0);
      this.points.set(point.id, point);
    }
    for (const id of diff.remove) {
      if (this.points.get(id)?.lineon === 1) this.onlineNo--;
      this.points.delete(id);
    }
    if (roster) this.rosterNo++;
    if (diff.upsert.length > 0 || diff.remove.length > 0) {
      this.versionNo++;
      for (const listener of this.diffListeners) listener(diff);
      this.notifyReact();
      // what a flush costs the main thread (bench/map-fps.ts reads it)
      measure(started);
    }
    if (unknown.length > 0) for (const listener of this.unknownListeners) listener([...new Set(unknown)]);
    return diff;
  }

  private applySos(ops: Pending['sos']): number[] {
    if (ops.length === 0) return [];
    const before = new Set(this.sosIds);
    for (const op of ops) {
      if (op.kind === 'replace') this.sosIds = new Set(op.ids);
      else if (op.on) this.sosIds.add(op.id);
      else this.sosIds.delete(op.id);
    }
    const changed: number[] = [];
    for (const id of before) if (!this.sosIds.has(id)) changed.push(id);
    for (const id of this.sosIds) if (!before.has(id)) changed.push(id);
    return changed;
  }

  /** React hears at most every REACT_NOTIFY_MS (the last change always reaches it). */
  private notifyReact(): void {
    if (this.notifyTimer !== null) return;
    const wait = this.lastNotified + REACT_NOTIFY_MS - this.clock();
    const tell = () => {
      this.notifyTimer = null;
      this.lastNotified = this.clock();
      for (const listener of this.reactListeners) listener();
    };
    if (wait <= 0) tell();
    else this.notifyTimer = setTimeout(tell, wait);
  }

  get(id: number): DevicePoint | undefined {
    return this.points.get(id);
  }

  all(): DevicePoint[] {
    return [...this.points.values()];
  }

  get size(): number {
    return this.points.size;
  }

  /** The map layer: receives every difference (call `all()` first for the initial state). */
  onDiff(listener: DiffListener): () => void {
    this.diffListeners.add(listener);
    return () => this.diffListeners.delete(listener);
  }

  /** Patches named devices the store does not hold (new devices): the page reads them. */
  onUnknown(listener: (ids: number[]) => void): () => void {
    this.unknownListeners.add(listener);
    return () => this.unknownListeners.delete(listener);
  }

  subscribe = (listener: () => void): (() => void) => {
    this.reactListeners.add(listener);
    return () => {
      this.reactListeners.delete(listener);
      if (this.reactListeners.size === 0 && this.notifyTimer !== null) {
        clearTimeout(this.notifyTimer);
        this.notifyTimer = null;
      }
    };
  };

  /** changes with every applied difference (positions included) */
  version = (): number => this.versionNo;

  /** changes only when devices come, go or change name, code or host body (lists, not positions) */
  rosterVersion = (): number => this.rosterNo;

  /** devices online now */
  onlineCount = (): number => this.onlineNo;
}

function rosterChanged(a: DevicePoint, b: DevicePoint): boolean {
  return a.hostname !== b.hostname || a.hostcode !== b.hostcode || a.hostbody !== b.hostbody || a.did !== b.did;
}

const FIX_FIELDS = ['lat', 'lng', 'speed', 'course', 'battery', 'gps_time'] as const;

function fixTime(point: Pick<DevicePoint, 'gps_time'>): number {
  return point.gps_time ? Date.parse(point.gps_time) : NaN;
}

/** true when `a` carries an older fix than `b` (unknown times are not older) */
function olderFix(a: Pick<DevicePoint, 'gps_time'>, b: Pick<DevicePoint, 'gps_time'>): boolean {
  // the same time (most devices of a full refresh): no parsing
  if (a.gps_time === b.gps_time) return false;
  return fixTime(a) < fixTime(b);
}

function withFix(point: DevicePoint, fix: DevicePoint): DevicePoint {
  const out = { ...point };
  for (const key of FIX_FIELDS) (out as Record<string, unknown>)[key] = fix[key];
  return out;
}

/** The point with the patch applied; the same object when nothing the patch carries differs. */
export function applyPatch(base: DevicePoint, patch: PointPatch): DevicePoint {
  let out: DevicePoint | null = null;
  const set = <K extends keyof DevicePoint>(key: K, value: DevicePoint[K]) => {
    if (base[key] === value) return;
    out ??= { ...base };
    out[key] = value;
  };
  const fix = patch.gps_time === undefined || !olderFix({ gps_time: patch.gps_time }, base);
  if (fix)
    for (const key of FIX_FIELDS) {
      const value = patch[key];
      if (value !== undefined) set(key, value as never);
    }
  if (patch.lineon !== undefined) set('lineon', patch.lineon);
  return out ?? base;
}

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/** user timing of flushes, only when a benchmark asks for it (`window.__bwcMeasureFlush = true`) */
function measure(start: number): void {
  if ((globalThis as { __bwcMeasureFlush?: boolean }).__bwcMeasureFlush && typeof performance.measure === 'function')
    performance.measure(FLUSH_MEASURE, { start, end: performance.now() });
}
/** user-timing name of one store flush */
export const FLUSH_MEASURE = 'bwc-map-flush';

function defaultSchedule(flush: () => void): void {
  if (
    typeof requestAnimationFrame === 'function' &&
    typeof document !== 'undefined' &&
    document.visibilityState !== 'hidden'
  )
    requestAnimationFrame(flush);
  else setTimeout(flush, 0);
}
