import type { DevicePoint } from '@bwc/protocol';
import { diffPoints, mergeBurst, type PointDiff } from './points';

type DiffListener = (diff: PointDiff) => void;

interface Pending {
  batches: DevicePoint[][];
  full: boolean;
}

/**
 * The devices the dispatch map shows, outside React. Answers (polls, pushes) are queued and
 * flushed once per frame: a burst is merged per device, compared with what is shown, and only
 * the difference goes to the map layer (never a full reload). React reads counts through
 * `subscribe`/`version` (useSyncExternalStore).
 */
export class DevicePointStore {
  private points = new Map<number, DevicePoint>();
  private pending: Pending = { batches: [], full: false };
  private scheduled = false;
  private diffListeners = new Set<DiffListener>();
  private reactListeners = new Set<() => void>();
  private versionNo = 0;

  constructor(private readonly schedule: (flush: () => void) => void = defaultSchedule) {}

  /** Queue an answer. `full`: it holds every device of the scope (missing ones are removed). */
  push(points: DevicePoint[], full = false): void {
    if (!Array.isArray(points)) return;
    this.pending.batches.push(points);
    this.pending.full ||= full;
    if (!this.scheduled) {
      this.scheduled = true;
      this.schedule(() => this.flush());
    }
  }

  /** Apply the queued answers now (also what the scheduled frame calls). */
  flush(): PointDiff {
    this.scheduled = false;
    const { batches, full } = this.pending;
    this.pending = { batches: [], full: false };
    const next = mergeBurst(batches);
    const diff = diffPoints(this.points, next, full);
    for (const point of diff.upsert) this.points.set(point.id, point);
    for (const id of diff.remove) this.points.delete(id);
    if (diff.upsert.length > 0 || diff.remove.length > 0) {
      this.versionNo++;
      for (const listener of this.diffListeners) listener(diff);
      for (const listener of this.reactListeners) listener();
    }
    return diff;
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

  subscribe = (listener: () => void): (() => void) => {
    this.reactListeners.add(listener);
    return () => this.reactListeners.delete(listener);
  };

  version = (): number => this.versionNo;
}

function defaultSchedule(flush: () => void): void {
  if (
    typeof requestAnimationFrame === 'function' &&
    typeof document !== 'undefined' &&
    document.visibilityState !== 'hidden'
  )
    requestAnimationFrame(flush);
  else setTimeout(flush, 0);
}
