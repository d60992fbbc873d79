import type { GbPoint, GbPointsAnswer, GbPointUnit, GbSitePush } from '@bwc/protocol';
import { toDisplay, type MapCrs } from '../../../../map/coords';

/** A GB device's marker state: its registration (GB devices have no SOS or kill). */
export type GbMarkerState = 'online' | 'offline';

export interface GbFeature {
  type: 'Feature';
  id: number;
  geometry: { type: 'Point'; coordinates: [number, number] };
  properties: { devgbid: string; state: GbMarkerState; label: string };
}

/**
 * The GB devices on the map, keyed by GB id, and the units of their tree: a gb_points answer
 * replaces them, gb_site_data pushes move them or change their state. Listeners hear every change.
 */
export class GbPointStore {
  private points = new Map<string, GbPoint>();
  private unitList: readonly GbPointUnit[] = [];
  private unitIds = new Set<number>();
  private readonly listeners = new Set<() => void>();
  /** a stable numeric feature id per GB id (MapLibre feature ids are numbers) */
  private readonly ids = new Map<string, number>();
  private version = 0;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  /** changes with every change (useSyncExternalStore) */
  snapshot = (): number => this.version;

  all(): GbPoint[] {
    return [...this.points.values()];
  }

  /** the units of the device tree, as the last answer gave them */
  units(): readonly GbPointUnit[] {
    return this.unitList;
  }

  get(devgbid: string): GbPoint | undefined {
    return this.points.get(devgbid);
  }

  featureId(devgbid: string): number {
    let id = this.ids.get(devgbid);
    if (id === undefined) {
      id = this.ids.size + 1;
      this.ids.set(devgbid, id);
    }
    return id;
  }

  /** A full answer: the devices and units become exactly these. */
  replace(answer: GbPointsAnswer): void {
    this.points = new Map(answer.points.map((p) => [p.devgbid, p]));
    this.unitList = answer.units;
    this.unitIds = new Set(answer.units.map((u) => u.id));
    this.changed();
  }

  /**
   * Pushed fixes and states: a later fix (by the device's position time) replaces the one held;
   * a device not held yet is added without channels. Answers whether one was new or moved to a
   * unit the tree does not have (by an administrator): gb_points is then to be read again.
   */
  push(sites: readonly GbSitePush[]): boolean {
    let unknown = false;
    for (const s of sites) {
      const cur = this.points.get(s.devgbid);
      if (!cur || (cur.unit_id !== s.unit_id && !this.unitIds.has(s.unit_id))) unknown = true;
      const older = cur && s.position_time < cur.position_time;
      const next: GbPoint = older
        ? { ...cur, lineon: s.lineon, name: s.name, unit_id: s.unit_id }
        : { ...s, channels: cur?.channels ?? [] };
      // a device offline has its channels offline; online again, they are as its next answer says
      if (next.lineon === 0) next.channels = next.channels.map((c) => ({ ...c, lineon: 0 }));
      this.points.set(s.devgbid, next);
    }
    if (sites.length) this.changed();
    return unknown;
  }

  private changed(): void {
    this.version += 1;
    for (const listener of [...this.listeners]) listener();
  }
}

export function markerStateOf(p: Pick<GbPoint, 'lineon'>): GbMarkerState {
  return p.lineon === 1 ? 'online' : 'offline';
}

/** The device's marker: at its display position (GCJ-02 base maps shift WGS-84 fixes), labelled with its name. */
export function gbFeature(store: GbPointStore, p: GbPoint, crs: MapCrs): GbFeature {
  return {
    type: 'Feature',
    id: store.featureId(p.devgbid),
    geometry: { type: 'Point', coordinates: toDisplay(p.lng, p.lat, crs) },
    properties: { devgbid: p.devgbid, state: markerStateOf(p), label: p.name || p.devgbid },
  };
}

/** The list order: online first, then by name and GB id. */
export function sortedPoints(points: readonly GbPoint[]): GbPoint[] {
  return [...points].sort(
    (a, b) => b.lineon - a.lineon || a.name.localeCompare(b.name) || a.devgbid.localeCompare(b.devgbid),
  );
}
