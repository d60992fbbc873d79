/**
 * Plausible movement for simulated cameras: walkers and cars on a street grid around a centre.
 * Streets run east-west and north-south every `blockM` metres (a Manhattan-like city); a mover
 * follows its street, and at each intersection goes on, turns left or right (rarely back),
 * always staying within `radiusM` of the centre. Walkers move at 3-6 km/h, cars at 20-60 km/h
 * with some speed noise. Pure and seedable for tests.
 */
import { mulberry32 } from '@bwc/protocol';

export const EARTH_RADIUS_M = 6_371_000;

/** metres per degree of latitude, and of longitude at `lat` */
export function metresPerDegree(lat: number): { lat: number; lng: number } {
  const perLat = (Math.PI / 180) * EARTH_RADIUS_M;
  return { lat: perLat, lng: perLat * Math.cos((lat * Math.PI) / 180) };
}

/** Great-circle distance in metres. */
export function haversineM(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const toRad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * toRad;
  const dLng = (b.lng - a.lng) * toRad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * toRad) * Math.cos(b.lat * toRad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A small fast seedable PRNG (mulberry32 of @bwc/protocol); returns floats in [0, 1). */
export const rng = mulberry32;

export type MoverKind = 'walk' | 'drive';

export interface PathOptions {
  centre: { lat: number; lng: number };
  /** movers stay within this distance of the centre (metres) */
  radiusM?: number;
  /** street spacing (metres) */
  blockM?: number;
  kind?: MoverKind;
  random?: () => number;
}

export interface Fix {
  lat: number;
  lng: number;
  /** km/h */
  speed: number;
  /** degrees from north */
  course: number;
}

/** Directions on the grid: east, north, west, south (unit vectors in metres x=east, y=north). */
const DIRS = [
  { x: 1, y: 0, course: 90 },
  { x: 0, y: 1, course: 0 },
  { x: -1, y: 0, course: 270 },
  { x: 0, y: -1, course: 180 },
] as const;

export const SPEED_KMH: Record<MoverKind, [number, number]> = { walk: [3, 6], drive: [20, 60] };

/**
 * One mover. Positions are kept as metres east/north of the centre on the grid; `step(dt)`
 * advances it by dt seconds and answers the new fix.
 */
export class StreetWalker {
  readonly kind: MoverKind;
  private readonly random: () => number;
  private readonly centre: { lat: number; lng: number };
  private readonly scale: { lat: number; lng: number };
  private readonly radiusM: number;
  private readonly blockM: number;
  private x: number;
  private y: number;
  private dir: number;
  /** cruising speed of this mover, km/h */
  private readonly cruise: number;
  private speed: number;

  constructor(options: PathOptions) {
    this.random = options.random ?? Math.random;
    this.centre = options.centre;
    this.scale = metresPerDegree(options.centre.lat);
    this.radiusM = options.radiusM ?? 3000;
    this.blockM = options.blockM ?? 150;
    this.kind = options.kind ?? (this.random() < 0.3 ? 'drive' : 'walk');
    const [lo, hi] = SPEED_KMH[this.kind];
    this.cruise = lo + (hi - lo) * this.random();
    this.speed = this.cruise;
    // start on a random street within 80% of the radius
    const r = this.radiusM * 0.8 * Math.sqrt(this.random());
    const a = 2 * Math.PI * this.random();
    this.dir = Math.floor(this.random() * 4);
    const sx = r * Math.cos(a);
    const sy = r * Math.sin(a);
    // snap the cross coordinate to a street
    if (DIRS[this.dir]!.x !== 0) {
      this.x = sx;
      this.y = Math.round(sy / this.blockM) * this.blockM;
    } else {
      this.x = Math.round(sx / this.blockM) * this.blockM;
      this.y = sy;
    }
  }

  /** metres from the centre */
  distanceFromCentre(): number {
    return Math.hypot(this.x, this.y);
  }

  fix(): Fix {
    return {
      lat: this.centre.lat + this.y / this.scale.lat,
      lng: this.centre.lng + this.x / this.scale.lng,
      speed: Math.round(this.speed * 10) / 10,
      course: DIRS[this.dir]!.course,
    };
  }

  /** Choose the direction at an intersection: mostly on or a turn, away from the edge. */
  private chooseDirection(): void {
    const options = [this.dir, (this.dir + 1) % 4, (this.dir + 3) % 4, (this.dir + 2) % 4];
    const weights = [0.6, 0.18, 0.18, 0.04];
    const scored = options.map((d, i) => {
      const nx = this.x + DIRS[d]!.x * this.blockM;
      const ny = this.y + DIRS[d]!.y * this.blockM;
      return { d, w: Math.hypot(nx, ny) > this.radiusM ? 0 : weights[i]! };
    });
    let total = scored.reduce((s, o) => s + o.w, 0);
    if (total === 0) {
      // at the edge: head back towards the centre
      const back = scored.map((o) => ({
        d: o.d,
        w: 1 / (1 + Math.hypot(this.x + DIRS[o.d]!.x * this.blockM, this.y + DIRS[o.d]!.y * this.blockM)),
      }));
      total = back.reduce((s, o) => s + o.w, 0);
      let pick = this.random() * total;
      for (const o of back) if ((pick -= o.w) <= 0) return void (this.dir = o.d);
      return;
    }
    let pick = this.random() * total;
    for (const o of scored) {
      if ((pick -= o.w) <= 0) {
        this.dir = o.d;
        return;
      }
    }
  }

  /** Advance dt seconds along the streets. */
  step(dtS: number): Fix {
    // speed noise around the cruise speed (cars also slow down at random, "traffic")
    const noise = this.kind === 'drive' ? 0.25 : 0.1;
    this.speed = Math.max(0.5, this.cruise * (1 + noise * (this.random() * 2 - 1)));
    let left = (this.speed / 3.6) * dtS;
    while (left > 1e-9) {
      const d = DIRS[this.dir]!;
      const along = d.x !== 0 ? this.x : this.y;
      const sign = d.x !== 0 ? d.x : d.y;
      // distance to the next intersection in the direction of travel
      const next =
        sign > 0
          ? Math.floor(along / this.blockM + 1e-9) * this.blockM + this.blockM
          : Math.ceil(along / this.blockM - 1e-9) * this.blockM - this.blockM;
      const toNext = Math.abs(next - along);
      const move = Math.min(left, toNext);
      if (d.x !== 0) this.x += d.x * move;
      else this.y += d.y * move;
      left -= move;
      if (move === toNext) {
        // snap onto the intersection, then choose where to go
        if (d.x !== 0) this.x = next;
        else this.y = next;
        this.chooseDirection();
      }
    }
    return this.fix();
  }
}
