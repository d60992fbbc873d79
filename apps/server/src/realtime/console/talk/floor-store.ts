import type { SharedState } from '../../../cluster/cluster';
import { EMPTY_FLOOR, isEmpty, type FloorState, type Outcome } from './floor';

/** A floor outlives its last change by at most this long in the shared state (a talker's hold is shorter). */
const FLOOR_TTL_MS = 15 * 60_000;
/** Attempts of one change when other nodes keep changing the same floor. */
const ATTEMPTS = 50;

/**
 * The floors of every group in the cluster's shared state (one node: memory; several: Redis),
 * changed by compare-and-set: a change reads the floor, applies one of the pure functions of
 * floor.ts and writes the result only if nobody changed it meanwhile, else it starts again. So two
 * nodes granting the same floor at once cannot both succeed.
 */
export class FloorStore {
  constructor(private readonly shared: SharedState) {}

  async read(tgid: number): Promise<FloorState> {
    const text = await this.shared.get(`floor:${tgid}`);
    return text ? (JSON.parse(text) as FloorState) : EMPTY_FLOOR;
  }

  async update<T extends Outcome>(tgid: number, change: (state: FloorState) => T): Promise<T> {
    const key = `floor:${tgid}`;
    for (let i = 0; i < ATTEMPTS; i += 1) {
      const text = await this.shared.get(key);
      const out = change(text ? (JSON.parse(text) as FloorState) : EMPTY_FLOOR);
      const next = isEmpty(out.state) ? null : JSON.stringify(out.state);
      if (next === text) return out;
      if (await this.shared.compareAndSet(key, text, next, FLOOR_TTL_MS)) return out;
    }
    throw new Error(`floor of group ${tgid}: too many concurrent changes`);
  }
}
