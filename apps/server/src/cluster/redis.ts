import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { LeaseState, type Cluster, type RemoteEvent, type SharedState } from './cluster';

/** The lease of the scheduled work lives this long unless its holder renews it. */
export const LEASE_TTL_MS = 15_000;
/** The holder renews it (and the others try to take it) this often. */
export const LEASE_TICK_MS = 5_000;
/** A node counts as alive this long after its last beat (beats every LEASE_TICK_MS). */
export const NODE_TTL_MS = 15_000;
/** How long the start waits for Redis before it gives up with a message naming REDIS_URL. */
const CONNECT_TIMEOUT_MS = 10_000;

/** Renew the lease only while this node holds it (compare and extend in one step). */
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
/** Compare and set: KEYS[1] changes to ARGV[2] ('' deletes, PX ARGV[3]) only if it holds ARGV[1] ('' = absent). */
const CAS = `local v = redis.call('get', KEYS[1])
if (v == false and ARGV[1] ~= '') or (v ~= false and v ~= ARGV[1]) then return 0 end
if ARGV[2] == '' then redis.call('del', KEYS[1]) else redis.call('set', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
return 1`;
/** Give the lease back only if this node holds it. */
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

interface Wire {
  f: string;
  e: string;
  p: unknown;
}

/**
 * Nodes sharing one Redis: the bus on one pub/sub channel (each node ignores its own messages),
 * the scheduled work's lease as a key set with NX and an expiry that its holder renews, and the
 * live nodes as a sorted set scored by the time each node's beat expires.
 */
export class RedisCluster implements Cluster {
  readonly distributed = true;
  readonly scheduler = new LeaseState(false);
  readonly shared: SharedState;
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly handlers: ((e: RemoteEvent) => void)[] = [];
  private timer: NodeJS.Timeout | null = null;
  private lastRenewed = 0;
  private closed = false;
  private readonly keys: { channel: string; lease: string; nodes: string };

  constructor(
    readonly nodeId: string,
    url: string,
    private readonly log: FastifyBaseLogger,
    prefix = 'bwc:',
  ) {
    const options = { lazyConnect: true, maxRetriesPerRequest: 3, connectionName: `bwc-${nodeId}` };
    this.pub = new Redis(url, options);
    this.sub = new Redis(url, options);
    this.keys = { channel: `${prefix}bus`, lease: `${prefix}lease:scheduler`, nodes: `${prefix}nodes` };
    const pub = this.pub;
    this.shared = {
      get: (key) => pub.get(`${prefix}shared:${key}`),
      compareAndSet: async (key, expected, next, ttlMs) =>
        (await pub.eval(CAS, 1, `${prefix}shared:${key}`, expected ?? '', next ?? '', String(ttlMs))) === 1,
    };
    for (const client of [this.pub, this.sub])
      client.on('error', (err: Error) => {
        if (!this.closed) this.log.warn({ err: err.message }, 'redis connection error (retrying)');
      });
  }

  async start(): Promise<void> {
    const connect = Promise.all([this.pub.connect(), this.sub.connect()]);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${CONNECT_TIMEOUT_MS / 1000} s`)),
        CONNECT_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([connect, timeout]);
      await this.sub.subscribe(this.keys.channel);
    } catch (err) {
      this.closed = true;
      this.pub.disconnect();
      this.sub.disconnect();
      throw new Error(`cannot reach Redis at REDIS_URL: ${(err as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
    this.sub.on('message', (_channel: string, text: string) => this.received(text));
    await this.tick();
    this.timer = setInterval(() => void this.tick(), LEASE_TICK_MS);
    this.timer.unref();
  }

  private received(text: string): void {
    let wire: Wire;
    try {
      wire = JSON.parse(text) as Wire;
    } catch {
      this.log.warn('cluster: a bus message that is not JSON was ignored');
      return;
    }
    if (wire.f === this.nodeId) return;
    for (const handler of this.handlers) handler({ from: wire.f, event: wire.e, payload: wire.p });
  }

  publish(event: string, payload: unknown): void {
    const text = JSON.stringify({ f: this.nodeId, e: event, p: payload } satisfies Wire);
    this.pub.publish(this.keys.channel, text).catch((err: Error) => {
      this.log.error({ err: err.message, event }, 'cluster: a bus event could not reach the other nodes');
    });
  }

  onRemote(handler: (e: RemoteEvent) => void): void {
    this.handlers.push(handler);
  }

  async liveNodes(): Promise<string[]> {
    return this.pub.zrangebyscore(this.keys.nodes, Date.now(), '+inf');
  }

  /** Beat, then renew or try to take the lease. */
  private async tick(): Promise<void> {
    if (this.closed) return;
    const nowMs = Date.now();
    try {
      await this.pub
        .multi()
        .zadd(this.keys.nodes, nowMs + NODE_TTL_MS, this.nodeId)
        .zremrangebyscore(this.keys.nodes, '-inf', nowMs)
        .exec();
      let held: boolean;
      if (this.scheduler.held) held = (await this.pub.eval(RENEW, 1, this.keys.lease, this.nodeId, LEASE_TTL_MS)) === 1;
      else held = (await this.pub.set(this.keys.lease, this.nodeId, 'PX', LEASE_TTL_MS, 'NX')) === 'OK';
      if (held) this.lastRenewed = nowMs;
      if (held !== this.scheduler.held)
        this.log.info(
          { node: this.nodeId },
          held ? 'cluster: this node runs the scheduled work' : 'cluster: lease lost',
        );
      this.scheduler.set(held);
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'cluster: lease not renewed (Redis unreachable)');
      // another node may take the lease once it expires: stop before that can happen
      if (this.scheduler.held && Date.now() - this.lastRenewed > LEASE_TTL_MS - LEASE_TICK_MS)
        this.scheduler.set(false);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    try {
      if (this.scheduler.held) await this.pub.eval(RELEASE, 1, this.keys.lease, this.nodeId);
      await this.pub.zrem(this.keys.nodes, this.nodeId);
    } catch {
      // Redis gone: the lease and the beat expire by themselves
    }
    this.scheduler.set(false);
    this.sub.disconnect();
    await this.pub.quit().catch(() => this.pub.disconnect());
  }
}
