/**
 * Changes merged by key (the latest wins) and handed over at most once every `everyMs`: the
 * first change after a quiet spell is due at once, later ones wait for the rest of the period.
 * Used by the session channel's position pushes (site_data, gb_site_data).
 */
export class Coalescer<K, V> {
  private readonly pending = new Map<K, V>();
  private timer: NodeJS.Timeout | null = null;
  private last = 0;

  constructor(
    private readonly everyMs: number,
    /** called when the pending changes are due; it takes them with `take` */
    private readonly due: () => void,
  ) {}

  get(key: K): V | undefined {
    return this.pending.get(key);
  }

  set(key: K, value: V): void {
    this.pending.set(key, value);
    if (this.timer) return;
    this.timer = setTimeout(() => this.due(), Math.max(0, this.last + this.everyMs - Date.now()));
    this.timer.unref();
  }

  /** The pending changes, in the order their keys first came; the period starts again. */
  take(): V[] {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.last = Date.now();
    const values = [...this.pending.values()];
    this.pending.clear();
    return values;
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending.clear();
  }
}

/**
 * The frame of `items` a console with unit scope `units` (null: all units) receives, null when
 * none is in its scope. Consoles sharing a scope (the session channel's cached Set) share the
 * frame, serialised once through `frames`.
 */
export function scopedFrame<T extends { unit_id: number }>(
  frames: Map<ReadonlySet<number> | null, string | null>,
  units: ReadonlySet<number> | null,
  type: string,
  items: readonly T[],
): string | null {
  let frame = frames.get(units);
  if (frame === undefined) {
    const data = units === null ? items : items.filter((x) => units.has(x.unit_id));
    frame = data.length ? JSON.stringify({ type, data }) : null;
    frames.set(units, frame);
  }
  return frame;
}
