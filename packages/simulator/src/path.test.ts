import { describe, expect, it } from 'vitest';
import { haversineM, metresPerDegree, rng, SPEED_KMH, StreetWalker } from './path';

const centre = { lat: 22.5431, lng: 114.0579 };

describe('rng', () => {
  it('is deterministic per seed and stays in [0, 1)', () => {
    const a = rng(42);
    const b = rng(42);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(xs).toEqual(Array.from({ length: 1000 }, () => b()));
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(new Set(xs).size).toBeGreaterThan(990);
    expect(rng(43)()).not.toBe(rng(42)());
  });
});

describe('geometry', () => {
  it('measures distances', () => {
    const m = metresPerDegree(0);
    expect(m.lat).toBeCloseTo(111_195, -1);
    expect(metresPerDegree(60).lng).toBeCloseTo(m.lng / 2, -1);
    expect(haversineM(centre, { lat: centre.lat + (1 / m.lat) * 1000, lng: centre.lng })).toBeCloseTo(1000, 0);
  });
});

describe('StreetWalker', () => {
  it('moves at walking or driving speed, one step at a time', () => {
    for (const kind of ['walk', 'drive'] as const) {
      const w = new StreetWalker({ centre, kind, random: rng(7) });
      let prev = w.fix();
      for (let i = 0; i < 600; i++) {
        const next = w.step(1);
        const [lo, hi] = SPEED_KMH[kind];
        // reported speed within the noise band of the kind's speeds
        expect(next.speed).toBeGreaterThanOrEqual(kind === 'walk' ? lo * 0.9 - 0.1 : lo * 0.75 - 0.1);
        expect(next.speed).toBeLessThanOrEqual(kind === 'walk' ? hi * 1.1 + 0.1 : hi * 1.25 + 0.1);
        // distance covered in 1 s matches the speed (metres = km/h / 3.6); turns only shorten it
        const d = haversineM(prev, next);
        expect(d).toBeLessThanOrEqual(next.speed / 3.6 + 0.05);
        expect(d).toBeGreaterThan(0);
        prev = next;
      }
    }
  });

  it('follows streets: every move is east-west or north-south on grid lines', () => {
    const block = 150;
    const w = new StreetWalker({ centre, kind: 'drive', blockM: block, random: rng(3) });
    const m = metresPerDegree(centre.lat);
    let turns = 0;
    let lastCourse = w.fix().course;
    for (let i = 0; i < 2000; i++) {
      const f = w.step(1);
      const x = (f.lng - centre.lng) * m.lng;
      const y = (f.lat - centre.lat) * m.lat;
      // at least one coordinate sits on a street line
      const onX = Math.abs(x / block - Math.round(x / block)) < 1e-6;
      const onY = Math.abs(y / block - Math.round(y / block)) < 1e-6;
      expect(onX || onY).toBe(true);
      expect([0, 90, 180, 270]).toContain(f.course);
      if (f.course !== lastCourse) turns += 1;
      lastCourse = f.course;
    }
    // it does turn at intersections, but mostly goes on
    expect(turns).toBeGreaterThan(10);
    expect(turns).toBeLessThan(1000);
  });

  it('stays near the centre', () => {
    const random = rng(11);
    for (let k = 0; k < 20; k++) {
      const w = new StreetWalker({ centre, radiusM: 1000, blockM: 100, kind: 'drive', random });
      for (let i = 0; i < 3000; i++) {
        w.step(1);
        expect(w.distanceFromCentre()).toBeLessThanOrEqual(1000 + 100 * Math.SQRT2);
      }
    }
  });

  it('is reproducible from a seed', () => {
    const a = new StreetWalker({ centre, random: rng(5) });
    const b = new StreetWalker({ centre, random: rng(5) });
    for (let i = 0; i < 100; i++) expect(a.step(2)).toEqual(b.step(2));
  });
});
