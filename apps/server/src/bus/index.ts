import type { Cluster } from '../cluster/cluster';

/**
 * The domain event bus: modules publish facts (`device.sos`, `positions`, ...), others (alarms,
 * realtime push, fences) subscribe. Typed by `DomainEvents`; add your events there. Listeners run
 * synchronously in emit order; a throwing listener is reported through `onError` and does not stop
 * the others nor the publisher.
 *
 * With several nodes (`link(cluster)`, REDIS_URL) every event also goes to the other nodes, and a
 * listener says where it runs:
 * - `on`: on every node, for the events of every node. For what each node does with its own
 *   connections and caches: push to its sockets, forget a cached record. Never for work that
 *   writes or publishes, or it would be done once per node.
 * - `onOrigin`: only on the node that emitted the event. For work done once: an alarm stored from
 *   a fence crossing, a fact turned into console notices (which are events of their own).
 * On one node both run for every event.
 */

/** One stored position as fanned out (WGS-84). */
export interface PositionEvent {
  device_id: number;
  unit_id: number;
  hostbody: string;
  /** fix time, ISO */
  time: string;
  lat: number;
  lng: number;
  speed: number | null;
  course: number | null;
  accuracy: number | null;
  battery: number | null;
  /** the device's name and online state after the flush (absent: unknown) */
  hostname?: string;
  lineon?: number;
}

export interface DeviceRef {
  device_id: number;
  unit_id: number;
  hostbody: string;
  imei: string;
  hostname: string;
}

export interface DomainEvents {
  /** positions persisted (committed) by one ingest flush, any devices */
  positions: { positions: PositionEvent[] };
  /** an SOS from a device, stored as device_events row `event_id` (console emergency notices) */
  'device.sos': DeviceRef & { event_id: number; time: string; lat: number | null; lng: number | null; message: string };
  /** a device went online (first message after offline, status online, wake) */
  'device.online': DeviceRef & { time: string };
  /** a device went offline: silence timeout, its own status message, or a remote kill */
  'device.offline': DeviceRef & { time: string; reason: 'silence' | 'device' | 'killed' };
  /** remote kill / wake applied by a console user (a killed terminal loses its console login) */
  'device.remote': DeviceRef & {
    action: 'remote_kill' | 'remote_wakeon';
    remote_kill: number;
    lineon: number;
    typecate: number[];
    user_id: number;
  };
  /** a command was queued for a device (the node holding its long poll wakes it) */
  'device.command': { device_id: number };
  /** device record created, changed or deleted (the device runtime and the console's position fan-out forget it) */
  'device.changed': { device_id: number; kind: 'created' | 'updated' | 'deleted' };
}

export type EventName = keyof DomainEvents;
/** `from`: the node that emitted the event, when it is another node */
export type Listener<K extends EventName> = (payload: DomainEvents[K], from?: string) => void;

interface Entry {
  fn: (payload: never, from?: string) => void;
  everywhere: boolean;
}

export class EventBus {
  private readonly listeners = new Map<EventName, Set<Entry>>();
  private cluster: Cluster | null = null;

  constructor(private readonly onError: (err: unknown, event: EventName) => void = () => {}) {}

  /** Carry every event to the other nodes of `cluster`, and theirs to this node's `on` listeners. */
  link(cluster: Cluster): void {
    if (!cluster.distributed) return;
    this.cluster = cluster;
    cluster.onRemote(({ event, payload, from }) => this.deliver(event as EventName, payload as never, from));
  }

  private add(event: EventName, entry: Entry): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(entry);
    return () => set.delete(entry);
  }

  /** Subscribe on every node to the events of every node; returns the unsubscribe function. */
  on<K extends EventName>(event: K, listener: Listener<K>): () => void {
    return this.add(event, { fn: listener as Entry['fn'], everywhere: true });
  }

  /** Subscribe to the events this node emits (work done once in the cluster); returns the unsubscribe function. */
  onOrigin<K extends EventName>(event: K, listener: (payload: DomainEvents[K]) => void): () => void {
    return this.add(event, { fn: listener as Entry['fn'], everywhere: false });
  }

  /** Resolves with the next payload of `event` (tests). */
  once<K extends EventName>(event: K): Promise<DomainEvents[K]> {
    return new Promise((resolve) => {
      const off = this.on(event, (payload) => {
        off();
        resolve(payload);
      });
    });
  }

  emit<K extends EventName>(event: K, payload: DomainEvents[K]): void {
    this.cluster?.publish(event, payload);
    this.deliver(event, payload);
  }

  /** Run the listeners of one event: all of them for this node's events, the `on` ones for another's. */
  private deliver<K extends EventName>(event: K, payload: DomainEvents[K], from?: string): void {
    const set = this.listeners.get(event);
    if (!set) return;
    for (const entry of [...set]) {
      if (from !== undefined && !entry.everywhere) continue;
      try {
        (entry.fn as Listener<K>)(payload, from);
      } catch (err) {
        this.onError(err, event);
      }
    }
  }

  /** Listeners of `event` on this node (none and no other node: the event need not be built). */
  listenerCount(event: EventName): number {
    return (this.listeners.get(event)?.size ?? 0) + (this.cluster ? 1 : 0);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the domain event bus (apps/server/src/bus) */
    bus: EventBus;
  }
}
