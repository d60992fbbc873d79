import { CONFERENCE_MAX_IDLE_MS, type Conference } from '@bwc/protocol';
import type { SharedState } from '../../../cluster/cluster';

/** A conference as the nodes share it: the protocol's view plus the group's unit. */
export interface ConferenceState extends Conference {
  unit_id: number;
}

/** Attempts of one change when other nodes keep changing the same conference. */
const ATTEMPTS = 50;

/**
 * The conference of every group in the cluster's shared state (one node: memory; several: Redis),
 * changed by compare-and-set like the talk floors: one conference per group holds even when two
 * consoles on two nodes start one at the same moment.
 */
export class ConferenceStore {
  constructor(private readonly shared: SharedState) {}

  private static key(tgid: number): string {
    return `conference:${tgid}`;
  }

  async read(tgid: number): Promise<ConferenceState | null> {
    const text = await this.shared.get(ConferenceStore.key(tgid));
    return text ? (JSON.parse(text) as ConferenceState) : null;
  }

  /**
   * Apply `change` to the group's conference (null: none) and store what it answers as `next`
   * (null: none any more), unless another change came first: then read again and retry.
   */
  async update<T extends { next: ConferenceState | null }>(
    tgid: number,
    change: (current: ConferenceState | null) => T,
  ): Promise<T> {
    const key = ConferenceStore.key(tgid);
    for (let i = 0; i < ATTEMPTS; i += 1) {
      const text = await this.shared.get(key);
      const out = change(text ? (JSON.parse(text) as ConferenceState) : null);
      const next = out.next ? JSON.stringify(out.next) : null;
      if (next === text) return out;
      if (await this.shared.compareAndSet(key, text, next, CONFERENCE_MAX_IDLE_MS)) return out;
    }
    throw new Error(`conference of group ${tgid}: too many concurrent changes`);
  }
}
