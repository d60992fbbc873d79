import { PTT_QUEUE_MAX, TalkPriority } from '@bwc/protocol';
import { describe, expect, it } from 'vitest';
import { EMPTY_FLOOR, expire, forceRelease, release, request, type Clock, type Party } from './floor';

let n = 0;
const clock = (now: number, maxHoldMs = 60_000): Clock => ({ now, maxHoldMs, refid: () => `r${++n}` });
const party = (uid: number, priority: number = TalkPriority.TERMINAL, emergency: 0 | 1 = 0): Party => ({
  uid,
  ext_id: `e${uid}`,
  name: `u${uid}`,
  priority,
  emergency,
});

describe('floor control', () => {
  it('grants a free floor, queues an equal priority by arrival, hands over on release', () => {
    const a = request(EMPTY_FLOOR, party(1), clock(1000));
    expect(a).toMatchObject({ result: 'granted', state: { talker: { uid: 1, since: 1000, until: 61_000 } } });
    expect(a.changes).toEqual([{ previous: null, talker: a.state.talker }]);
    const b = request(a.state, party(2), clock(1100));
    expect(b).toMatchObject({ result: 'queued', position: 1, changes: [] });
    const c = request(b.state, party(3), clock(1200));
    expect(c).toMatchObject({ result: 'queued', position: 2 });
    const r = release(c.state, 1, 'released', clock(2000));
    expect(r.released).toBe(true);
    expect(r.state.talker).toMatchObject({ uid: 2, since: 2000 });
    expect(r.state.queue.map((w) => w.uid)).toEqual([3]);
    expect(r.changes).toEqual([{ previous: a.state.talker, talker: r.state.talker, reason: 'released' }]);
  });

  it('orders the queue by priority, then arrival; asking again keeps the place', () => {
    let s = request(EMPTY_FLOOR, party(1, TalkPriority.CONSOLE), clock(0)).state;
    s = request(s, party(2), clock(1)).state;
    s = request(s, party(3), clock(2)).state;
    const higher = request(s, party(4, TalkPriority.CONSOLE), clock(3));
    expect(higher.position).toBe(1);
    const again = request(higher.state, party(2), clock(4));
    expect(again.position).toBe(2);
    expect(again.state.queue.map((w) => w.uid)).toEqual([4, 2, 3]);
  });

  it('a higher priority pre-empts; emergency pre-empts a dispatcher; the pre-empted is not queued', () => {
    const a = request(EMPTY_FLOOR, party(1), clock(0));
    const d = request(a.state, party(2, TalkPriority.CONSOLE), clock(10));
    expect(d).toMatchObject({ result: 'granted', state: { talker: { uid: 2 }, queue: [] } });
    expect(d.changes[0]).toMatchObject({ previous: { uid: 1 }, talker: { uid: 2 }, reason: 'preempted' });
    const e = request(d.state, party(3, TalkPriority.EMERGENCY, 1), clock(20));
    expect(e.changes[0]).toMatchObject({ previous: { uid: 2 }, talker: { uid: 3, emergency: 1 }, reason: 'preempted' });
    // nobody pre-empts an emergency talker, not even another emergency
    const f = request(e.state, party(4, TalkPriority.EMERGENCY, 1), clock(30));
    expect(f).toMatchObject({ result: 'queued', state: { talker: { uid: 3 } } });
  });

  it('a talker asking again with emergency raises its own turn', () => {
    const a = request(EMPTY_FLOOR, party(1), clock(0));
    const b = request(a.state, party(1, TalkPriority.EMERGENCY, 1), clock(5));
    expect(b).toMatchObject({ result: 'granted', state: { talker: { uid: 1, emergency: 1, priority: 3 } } });
    expect(b.state.talker!.refid).toBe(a.state.talker!.refid);
  });

  it('the maximum hold takes the floor back and gives it to the next', () => {
    let s = request(EMPTY_FLOOR, party(1), clock(0, 5000)).state;
    s = request(s, party(2), clock(100, 5000)).state;
    expect(expire(s, clock(4999, 5000)).changes).toEqual([]);
    const out = expire(s, clock(5000, 5000));
    expect(out.changes[0]).toMatchObject({
      previous: { uid: 1 },
      talker: { uid: 2, until: 10_000 },
      reason: 'expired',
    });
    // a request after the hold passed sees the floor free of the old talker
    const late = request(request(EMPTY_FLOOR, party(1), clock(0, 5000)).state, party(3), clock(6000, 5000));
    expect(late).toMatchObject({ result: 'granted', state: { talker: { uid: 3 } } });
    expect(late.changes.map((c) => c.reason)).toEqual(['expired', undefined]);
  });

  it('a talker that disconnects releases at once; a waiting one that disconnects leaves the queue', () => {
    let s = request(EMPTY_FLOOR, party(1), clock(0)).state;
    s = request(s, party(2), clock(1)).state;
    s = request(s, party(3), clock(2)).state;
    const gone = release(s, 2, 'disconnected', clock(3));
    expect(gone).toMatchObject({ released: false, changes: [] });
    expect(gone.state.queue.map((w) => w.uid)).toEqual([3]);
    const talkerGone = release(gone.state, 1, 'disconnected', clock(4));
    expect(talkerGone.changes[0]).toMatchObject({ previous: { uid: 1 }, talker: { uid: 3 }, reason: 'disconnected' });
  });

  it('a dispatcher forces a release; an empty floor has nothing to release', () => {
    const s = request(EMPTY_FLOOR, party(1, TalkPriority.EMERGENCY, 1), clock(0)).state;
    const out = forceRelease(s, clock(1));
    expect(out).toMatchObject({ released: true, state: { talker: null } });
    expect(out.changes[0]).toMatchObject({ reason: 'forced', talker: null });
    expect(forceRelease(EMPTY_FLOOR, clock(1))).toMatchObject({ released: false, changes: [] });
  });

  it('denies busy when the queue is full', () => {
    let s = request(EMPTY_FLOOR, party(1), clock(0)).state;
    for (let uid = 2; uid < 2 + PTT_QUEUE_MAX; uid += 1) s = request(s, party(uid), clock(uid)).state;
    expect(request(s, party(999), clock(100))).toMatchObject({ result: 'denied', reason: 'busy' });
    // a higher priority still pre-empts
    expect(request(s, party(998, TalkPriority.CONSOLE), clock(101)).result).toBe('granted');
  });
});
