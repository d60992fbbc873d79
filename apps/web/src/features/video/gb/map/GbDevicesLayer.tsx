import { CLUSTER_DEFAULTS } from '@bwc/protocol';
import { useEffect, useRef } from 'react';
import { CLUSTER_PREFIX, ICON_PREFIX, LABEL_PREFIX, installImageFactory } from '../../../../map/images';
import type { GeoJSONSource } from '../../../../map/maplibre';
import { useMap } from '../../../../map/MapView';
import { gbFeature, type GbPointStore } from './gbPoints';

export const GB_SOURCE = 'bwc-gb-devices';
export const GB_LAYER = 'bwc-gb-devices-icon';
const GB_CLUSTER_LAYER = 'bwc-gb-devices-cluster';
const GB_LABEL_LAYER = 'bwc-gb-devices-label';
const LABEL_MIN_ZOOM = 13;

export interface GbDevicesLayerProps {
  store: GbPointStore;
  onDeviceClick?: (devgbid: string) => void;
}

/**
 * GB device markers: one clustered GeoJSON source (the body-camera layer's grid and icons, by
 * online state) with name labels, redrawn from the store on each change (pushes come at most once
 * a second). Renders nothing.
 */
export function GbDevicesLayer({ store, onDeviceClick }: GbDevicesLayerProps) {
  const { map, crs } = useMap();
  const clickRef = useRef(onDeviceClick);
  clickRef.current = onDeviceClick;

  useEffect(() => {
    const collection = () => ({
      type: 'FeatureCollection' as const,
      features: store.all().map((p) => gbFeature(store, p, crs) as GeoJSON.Feature),
    });
    map.addSource(GB_SOURCE, {
      type: 'geojson',
      data: collection(),
      cluster: true,
      clusterRadius: CLUSTER_DEFAULTS.gridSize,
      clusterMaxZoom: CLUSTER_DEFAULTS.maxZoom,
      clusterMinPoints: CLUSTER_DEFAULTS.minimumClusterSize,
      maxzoom: CLUSTER_DEFAULTS.maxZoom + 1,
    });
    map.addLayer({
      id: GB_CLUSTER_LAYER,
      type: 'symbol',
      source: GB_SOURCE,
      filter: ['has', 'point_count'],
      layout: {
        'icon-image': ['concat', CLUSTER_PREFIX, ['to-string', ['get', 'point_count_abbreviated']]],
        'icon-allow-overlap': true,
      },
    });
    map.addLayer({
      id: GB_LABEL_LAYER,
      type: 'symbol',
      source: GB_SOURCE,
      minzoom: LABEL_MIN_ZOOM,
      filter: ['!', ['has', 'point_count']],
      layout: {
        'icon-image': ['concat', LABEL_PREFIX, ['get', 'label']],
        'icon-anchor': 'top',
        'icon-offset': [0, 14],
        'icon-optional': true,
      },
    });
    map.addLayer({
      id: GB_LAYER,
      type: 'symbol',
      source: GB_SOURCE,
      filter: ['!', ['has', 'point_count']],
      layout: {
        'icon-image': ['concat', ICON_PREFIX, ['get', 'state']],
        'icon-allow-overlap': true,
        'icon-ignore-placement': true,
      },
    });
    const source = map.getSource(GB_SOURCE) as GeoJSONSource;
    const removeFactory = installImageFactory(map);
    const off = store.subscribe(() => void source.setData(collection()));

    const onClick = (event: { features?: { properties: Record<string, unknown> }[] }) => {
      const devgbid = event.features?.[0]?.properties.devgbid;
      if (typeof devgbid === 'string') clickRef.current?.(devgbid);
    };
    const onCluster = async (event: { features?: { properties: Record<string, unknown>; geometry: unknown }[] }) => {
      const f = event.features?.[0];
      if (!f) return;
      const zoom = await source.getClusterExpansionZoom(Number(f.properties.cluster_id));
      map.easeTo({ center: (f.geometry as { coordinates: [number, number] }).coordinates, zoom });
    };
    const pointer = () => (map.getCanvas().style.cursor = 'pointer');
    const plain = () => (map.getCanvas().style.cursor = '');
    map.on('click', GB_LAYER, onClick as never);
    map.on('click', GB_CLUSTER_LAYER, onCluster as never);
    for (const layer of [GB_LAYER, GB_CLUSTER_LAYER]) {
      map.on('mouseenter', layer, pointer);
      map.on('mouseleave', layer, plain);
    }
    return () => {
      off();
      map.off('click', GB_LAYER, onClick as never);
      map.off('click', GB_CLUSTER_LAYER, onCluster as never);
      for (const layer of [GB_LAYER, GB_CLUSTER_LAYER]) {
        map.off('mouseenter', layer, pointer);
        map.off('mouseleave', layer, plain);
      }
      if (map.style) {
        for (const layer of [GB_LAYER, GB_LABEL_LAYER, GB_CLUSTER_LAYER])
          if (map.getLayer(layer)) map.removeLayer(layer);
        if (map.getSource(GB_SOURCE)) map.removeSource(GB_SOURCE);
      }
      removeFactory();
    };
  }, [map, crs, store]);

  return null;
}
