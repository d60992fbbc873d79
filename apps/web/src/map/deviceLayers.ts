import { CLUSTER_DEFAULTS } from '@bwc/protocol';
import { CLUSTER_PREFIX, ICON_PREFIX, LABEL_PREFIX } from './images';
import type { GeoJSONSource, MapLibreMap } from './maplibre';

/** Labels under the markers from this zoom on. */
const LABEL_MIN_ZOOM = 13;

/** The ids of one device layer set: its clustered source and the layers drawn from it. */
export interface DeviceLayerIds {
  source: string;
  /** the markers (`state` picks the icon) */
  icon: string;
  cluster: string;
  /** the name under a marker (`label`) */
  label: string;
}

type LayerEvent = { features?: { properties: Record<string, unknown>; geometry: unknown }[] };

/**
 * A clustered GeoJSON source of device markers (the grid of CLUSTER_DEFAULTS) and its layers:
 * cluster bubbles, name labels from LABEL_MIN_ZOOM, and markers by state (the images of images.ts).
 * A click on a marker gives its properties to `onMarker`, a click on a cluster zooms in to open it;
 * both show the pointer. Returns the undo: handlers off, layers and source removed.
 */
export function addDeviceLayers(
  map: MapLibreMap,
  ids: DeviceLayerIds,
  data: GeoJSON.FeatureCollection,
  onMarker: (properties: Record<string, unknown>) => void,
): () => void {
  map.addSource(ids.source, {
    type: 'geojson',
    data,
    cluster: true,
    clusterRadius: CLUSTER_DEFAULTS.gridSize,
    clusterMaxZoom: CLUSTER_DEFAULTS.maxZoom,
    clusterMinPoints: CLUSTER_DEFAULTS.minimumClusterSize,
    // the source must zoom past the last clustered zoom
    maxzoom: CLUSTER_DEFAULTS.maxZoom + 1,
  });
  map.addLayer({
    id: ids.cluster,
    type: 'symbol',
    source: ids.source,
    filter: ['has', 'point_count'],
    layout: {
      'icon-image': ['concat', CLUSTER_PREFIX, ['to-string', ['get', 'point_count_abbreviated']]],
      'icon-allow-overlap': true,
    },
  });
  map.addLayer({
    id: ids.label,
    type: 'symbol',
    source: ids.source,
    minzoom: LABEL_MIN_ZOOM,
    filter: ['!', ['has', 'point_count']],
    layout: {
      'icon-image': ['concat', LABEL_PREFIX, ['get', 'label']],
      'icon-anchor': 'top',
      'icon-offset': [0, 14],
      'icon-allow-overlap': false,
      'icon-optional': true,
    },
  });
  map.addLayer({
    id: ids.icon,
    type: 'symbol',
    source: ids.source,
    filter: ['!', ['has', 'point_count']],
    layout: {
      'icon-image': ['concat', ICON_PREFIX, ['get', 'state']],
      'icon-allow-overlap': true,
      'icon-ignore-placement': true,
    },
  });

  const source = map.getSource(ids.source) as GeoJSONSource;
  const onClick = (event: LayerEvent) => {
    const properties = event.features?.[0]?.properties;
    if (properties) onMarker(properties);
  };
  const onCluster = async (event: LayerEvent) => {
    const f = event.features?.[0];
    if (!f) return;
    const zoom = await source.getClusterExpansionZoom(Number(f.properties.cluster_id));
    map.easeTo({ center: (f.geometry as { coordinates: [number, number] }).coordinates, zoom });
  };
  const pointer = () => (map.getCanvas().style.cursor = 'pointer');
  const plain = () => (map.getCanvas().style.cursor = '');
  map.on('click', ids.icon, onClick as never);
  map.on('click', ids.cluster, onCluster as never);
  for (const layer of [ids.icon, ids.cluster]) {
    map.on('mouseenter', layer, pointer);
    map.on('mouseleave', layer, plain);
  }
  return () => {
    map.off('click', ids.icon, onClick as never);
    map.off('click', ids.cluster, onCluster as never);
    for (const layer of [ids.icon, ids.cluster]) {
      map.off('mouseenter', layer, pointer);
      map.off('mouseleave', layer, plain);
    }
    if (map.style) {
      for (const layer of [ids.icon, ids.label, ids.cluster]) if (map.getLayer(layer)) map.removeLayer(layer);
      if (map.getSource(ids.source)) map.removeSource(ids.source);
    }
  };
}
