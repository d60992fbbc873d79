/**
 * In-process domain event bus: modules publish facts (`device.sos`, `positions`, ...), others
 * (alarms, realtime push, fences) subscribe. Typed by `DomainEvents`; add your events there.
 * Listeners run synchronously in emit order; a throwing listener is reported through `onError`
 * and does not stop the others nor the publisher.
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
  /** device record created, changed or deleted (the device runtime and the console's position fan-out forget it) */
  'device.changed': { device_id: number; kind: 'created' | 'updated' | 'deleted' };
}

export type EventName = keyof DomainEvents;
export type Listener<K extends EventName> = (payload: DomainEvents[K]) => void;

export class EventBus {
  private readonly listeners = new Map<EventName, Set<(payload: never) => void>>();

  constructor(private readonly onError: (err: unknown, event: EventName) => void = () => {}) {}

  /** Subscribe; returns the unsubscribe function. */
  on<K extends EventName>(event: K, listener: Listener<K>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
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
    const set = this.listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as Listener<K>)(payload);
      } catch (err) {
        this.onError(err, event);
      }
    }
  }

  listenerCount(event: EventName): number {
    return this.listeners.get(event)?.size ?? 0;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the domain event bus (apps/server/src/bus) */
    bus: EventBus;
  }
}
