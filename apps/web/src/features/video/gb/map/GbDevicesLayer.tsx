import { useEffect, useRef } from 'react';
import { addDeviceLayers } from '../../../../map/deviceLayers';
import { installImageFactory } from '../../../../map/images';
import type { GeoJSONSource } from '../../../../map/maplibre';
import { useMap } from '../../../../map/MapView';
import { gbFeature, type GbPointStore } from './gbPoints';

export const GB_SOURCE = 'bwc-gb-devices';
export const GB_LAYER = 'bwc-gb-devices-icon';
const GB_CLUSTER_LAYER = 'bwc-gb-devices-cluster';
const GB_LABEL_LAYER = 'bwc-gb-devices-label';
const ids = { source: GB_SOURCE, icon: GB_LAYER, cluster: GB_CLUSTER_LAYER, label: GB_LABEL_LAYER };

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
    const removeLayers = addDeviceLayers(map, ids, collection(), (properties) => {
      if (typeof properties.devgbid === 'string') clickRef.current?.(properties.devgbid);
    });
    const source = map.getSource(GB_SOURCE) as GeoJSONSource;
    const removeFactory = installImageFactory(map);
    const off = store.subscribe(() => void source.setData(collection()));

    return () => {
      off();
      removeLayers();
      removeFactory();
    };
  }, [map, crs, store]);

  return null;
}
