import type { DevicePoint } from '@bwc/protocol';
import { useEffect, useRef } from 'react';
import type { GeoJSONSource } from './maplibre';
import { useMap } from './MapView';
import { addDeviceLayers } from './deviceLayers';
import { installImageFactory } from './images';
import type { DevicePointStore } from './pointStore';
import { pointFeature, type DeviceFeature } from './points';
import { gateSourceRepaints } from './repaintGate';
import { anyVisible, padBox, type ViewBox, type Waiting } from './viewHold';

export const DEVICE_SOURCE = 'bwc-devices';
export const DEVICE_LAYER = 'bwc-devices-icon';
export const CLUSTER_LAYER = 'bwc-devices-cluster';
const LABEL_LAYER = 'bwc-devices-label';
const ids = { source: DEVICE_SOURCE, icon: DEVICE_LAYER, cluster: CLUSTER_LAYER, label: LABEL_LAYER };
/** Labels from this zoom on (below it they would cover the map). */
/** live differences reach the map at most this often (site_data comes once a second; device_data and SOS in between) */
const APPLY_MS = 1_000;
/** ... and while the map moves (pan, zoom) at most this often */
const MOVING_APPLY_MS = 2_000;

export interface DevicesLayerProps {
  store: DevicePointStore;
  /** only these ids are drawn (locating mode); null draws every device */
  visibleIds: ReadonlySet<number> | null;
  onDeviceClick?: (point: DevicePoint) => void;
}

/**
 * Device markers: one GeoJSON source with clustering (grid 60 px, up to zoom 18, at least 2
 * devices: spec part 1 section 9), icons by state (SOS from the store) and name labels. Follows
 * the store's differences with `updateData` (never a full reload); renders nothing.
 *
 * Each update re-clusters and re-tiles the whole source and repaints the map, so an update is
 * made only when it shows: changes of hidden devices (locating mode) are none, changes outside
 * the (padded) view wait until a visible change or a move of the map brings them in, and the
 * tiles that an update reloads are shown in one repaint (repaintGate.ts).
 */
export function DevicesLayer({ store, visibleIds, onDeviceClick }: DevicesLayerProps) {
  const { map, crs } = useMap();
  const clickRef = useRef(onDeviceClick);
  clickRef.current = onDeviceClick;

  // source and layers; re-created only when the visible set changes (tool switch), not per update
  useEffect(() => {
    const feature = (point: DevicePoint): DeviceFeature | null => {
      if (visibleIds && !visibleIds.has(point.id)) return null;
      // SOS comes from the store (alarm pushes), so a switch is one feature update
      return pointFeature(point, crs, store.isSos(point.id));
    };
    const features = store
      .all()
      .map(feature)
      .filter((f): f is DeviceFeature => f !== null);
    // where each feature of the source is drawn: a hidden device's move is no update at all
    // (locating mode), an off-view one waits
    const shownAt = new Map<number, readonly [number, number]>(features.map((f) => [f.id, f.geometry.coordinates]));
    const removeLayers = addDeviceLayers(map, ids, { type: 'FeatureCollection', features }, (properties) => {
      const point = store.get(Number(properties.id));
      if (point) clickRef.current?.(point);
    });
    const source = map.getSource(DEVICE_SOURCE) as GeoJSONSource;
    const gate = gateSourceRepaints(map as never, DEVICE_SOURCE);
    const removeFactory = installImageFactory(map, gate.quietly);
    // differences wait here (a feature per id, the latest wins) until the period since the last
    // update is over: APPLY_MS, MOVING_APPLY_MS while the map moves (a pan would stutter)
    const waiting = new Map<number, DeviceFeature | null>();
    let lastApplied = -Infinity;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const view = (): ViewBox | null => {
      const b = map.getBounds();
      const box = { west: b.getWest(), south: b.getSouth(), east: b.getEast(), north: b.getNorth() };
      return [box.west, box.south, box.east, box.north].every(Number.isFinite) ? padBox(box) : null;
    };
    function* changes(): Generator<Waiting> {
      for (const [id, f] of waiting) yield { shown: shownAt.get(id), next: f ? f.geometry.coordinates : null };
    }
    const apply = () => {
      if (timer) clearTimeout(timer);
      timer = null;
      if (waiting.size === 0) return;
      // nothing to see: no update (the changes wait for a visible one or for the view to move)
      if (!anyVisible(changes(), view())) return;
      const add: GeoJSON.Feature[] = [];
      const remove: number[] = [];
      for (const [id, f] of waiting) {
        if (f) {
          add.push(f as GeoJSON.Feature);
          shownAt.set(id, f.geometry.coordinates);
        } else if (shownAt.delete(id)) remove.push(id);
      }
      waiting.clear();
      if (add.length === 0 && remove.length === 0) return;
      lastApplied = performance.now();
      // `add` replaces a feature with the same id
      void source.updateData({ add, remove });
    };
    const offDiff = store.onDiff((diff) => {
      const wait = (id: number, f: DeviceFeature | null) => {
        // a device neither drawn nor to be drawn (hidden, no fix) is no change
        if (f || shownAt.has(id)) waiting.set(id, f);
        else waiting.delete(id);
      };
      for (const id of diff.remove) wait(id, null);
      for (const point of diff.upsert) wait(point.id, feature(point));
      // one update re-clusters and re-tiles the source and repaints: at most one per period
      const period = map.isMoving() ? MOVING_APPLY_MS : APPLY_MS;
      const due = lastApplied + period - performance.now();
      if (due <= 0) return apply();
      if (!timer) timer = setTimeout(apply, due);
    });
    map.on('moveend', apply);

    return () => {
      offDiff();
      map.off('moveend', apply);
      if (timer) clearTimeout(timer);
      gate.close();
      removeLayers();
      removeFactory();
    };
  }, [map, crs, store, visibleIds]);

  return null;
}
