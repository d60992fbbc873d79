import { describe, expect, it } from 'vitest';
import { LeaseState, LocalSharedState, type Cluster, type RemoteEvent } from '../cluster/cluster';
import { EventBus } from './index';

/** Two buses joined as two nodes would be by Redis: what one publishes, the other receives. */
function pair(): [EventBus, EventBus] {
  const handlers: Record<string, ((e: RemoteEvent) => void)[]> = { a: [], b: [] };
  const node = (id: 'a' | 'b', other: 'a' | 'b'): Cluster => ({
    nodeId: id,
    distributed: true,
    scheduler: new LeaseState(id === 'a'),
    shared: new LocalSharedState(),
    // through JSON, as on the wire
    publish: (event, payload) => {
      for (const h of handlers[other]!) h({ from: id, event, payload: JSON.parse(JSON.stringify(payload)) });
    },
    onRemote: (h) => void handlers[id]!.push(h),
    liveNodes: async () => ['a', 'b'],
    start: async () => {},
    close: async () => {},
  });
  const a = new EventBus();
  const b = new EventBus();
  a.link(node('a', 'b'));
  b.link(node('b', 'a'));
  return [a, b];
}

const change = { device_id: 7, kind: 'updated' } as const;

describe('event bus across nodes', () => {
  it('runs `on` listeners on every node and `onOrigin` listeners only where the event was emitted', () => {
    const [a, b] = pair();
    const seen: string[] = [];
    for (const [name, bus] of [
      ['a', a],
      ['b', b],
    ] as const) {
      bus.on('device.changed', (e, from) => seen.push(`${name} on ${e.device_id} from ${from ?? 'here'}`));
      bus.onOrigin('device.changed', (e) => seen.push(`${name} origin ${e.device_id}`));
    }
    a.emit('device.changed', change);
    expect(seen.sort()).toEqual(['a on 7 from here', 'a origin 7', 'b on 7 from a']);
  });

  it('one node alone runs both kinds for its events and needs no cluster', () => {
    const bus = new EventBus();
    const seen: string[] = [];
    bus.on('device.changed', () => seen.push('on'));
    bus.onOrigin('device.changed', () => seen.push('origin'));
    bus.emit('device.changed', change);
    expect(seen).toEqual(['on', 'origin']);
    expect(bus.listenerCount('positions')).toBe(0);
  });

  it('a throwing listener is reported and the others still run, on the receiving node too', () => {
    const errors: unknown[] = [];
    const [a] = pair();
    const b = new EventBus((err) => errors.push(err));
    const bSeen: number[] = [];
    const cluster: Cluster = {
      nodeId: 'b',
      distributed: true,
      scheduler: new LeaseState(false),
      shared: new LocalSharedState(),
      publish: () => {},
      onRemote: (h) =>
        a.on(
          'device.changed',
          (e, from) => from === undefined && h({ from: 'a', event: 'device.changed', payload: e }),
        ),
      liveNodes: async () => [],
      start: async () => {},
      close: async () => {},
    };
    b.link(cluster);
    b.on('device.changed', () => {
      throw new Error('listener broke');
    });
    b.on('device.changed', (e) => bSeen.push(e.device_id));
    a.emit('device.changed', change);
    expect(bSeen).toEqual([7]);
    expect(errors).toHaveLength(1);
  });
});
