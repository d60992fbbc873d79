/**
 * What one server node shares with the others (issue 12). Without REDIS_URL a node is alone
 * (`LocalCluster`: nothing leaves the process, the node always holds every lease); with it,
 * `RedisCluster` carries the domain bus between nodes (Redis pub/sub) and elects, through a lease
 * in Redis, the one node that runs the scheduled work (silence sweep, fence engine, group expiry).
 */

/** A lease on the cluster's scheduled work: held by exactly one live node at a time. */
export interface Lease {
  /** does this node hold it now? */
  readonly held: boolean;
  /** called with true when this node takes the lease, false when it loses it */
  onChange(listener: (held: boolean) => void): () => void;
}

/** One bus event as it travels between nodes. */
export interface RemoteEvent {
  /** node that emitted it */
  from: string;
  event: string;
  payload: unknown;
}

export interface Cluster {
  /** this node's id (NODE_ID, else host:port:pid) */
  readonly nodeId: string;
  /** false: one process, nothing is shared */
  readonly distributed: boolean;
  /** the lease of the scheduled work */
  readonly scheduler: Lease;
  /** send a bus event to the other nodes */
  publish(event: string, payload: unknown): void;
  /** events of the other nodes (never this node's own) */
  onRemote(handler: (e: RemoteEvent) => void): void;
  /** the ids of the nodes alive now (this one included) */
  liveNodes(): Promise<string[]>;
  /** small state every node must agree on (the floors of group talk) */
  readonly shared: SharedState;
  /** connect and subscribe; rejects with a readable message when the cluster cannot be reached */
  start(): Promise<void>;
  /** give the lease back and disconnect */
  close(): Promise<void>;
}

/**
 * Keys every node reads and changes atomically: a change is a compare-and-set against the value
 * read, retried by its caller when another node changed it meanwhile.
 */
export interface SharedState {
  get(key: string): Promise<string | null>;
  /** set `key` to `next` (null: delete) only if it still holds `expected` (null: absent); `ttlMs` bounds its life */
  compareAndSet(key: string, expected: string | null, next: string | null, ttlMs: number): Promise<boolean>;
}

/** Shared state of one process. */
export class LocalSharedState implements SharedState {
  private readonly values = new Map<string, { value: string; expires: number }>();

  async get(key: string): Promise<string | null> {
    const entry = this.values.get(key);
    if (entry && entry.expires <= Date.now()) this.values.delete(key);
    return this.values.get(key)?.value ?? null;
  }

  async compareAndSet(key: string, expected: string | null, next: string | null, ttlMs: number): Promise<boolean> {
    if ((await this.get(key)) !== expected) return false;
    if (next === null) this.values.delete(key);
    else {
      // expired keys nobody reads again go when the map grows (Redis expires them itself)
      if (this.values.size >= 4096) {
        const nowMs = Date.now();
        for (const [k, entry] of this.values) if (entry.expires <= nowMs) this.values.delete(k);
      }
      this.values.set(key, { value: next, expires: Date.now() + ttlMs });
    }
    return true;
  }
}

/** True for the first caller on any node that offers `key` within `ttlMs` (a once-only mark). */
export function firstMark(shared: SharedState, key: string, ttlMs: number): Promise<boolean> {
  return shared.compareAndSet(key, null, '1', Math.max(1_000, ttlMs));
}

export class LeaseState implements Lease {
  private current = false;
  private readonly listeners = new Set<(held: boolean) => void>();

  constructor(initial = false) {
    this.current = initial;
  }

  get held(): boolean {
    return this.current;
  }

  set(held: boolean): void {
    if (held === this.current) return;
    this.current = held;
    for (const l of [...this.listeners]) l(held);
  }

  onChange(listener: (held: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** One process: no other node, every lease held. */
export class LocalCluster implements Cluster {
  readonly distributed = false;
  readonly scheduler = new LeaseState(true);
  readonly shared = new LocalSharedState();

  constructor(readonly nodeId: string) {}

  publish(): void {}
  onRemote(): void {}
  async liveNodes(): Promise<string[]> {
    return [this.nodeId];
  }
  async start(): Promise<void> {}
  async close(): Promise<void> {}
}
