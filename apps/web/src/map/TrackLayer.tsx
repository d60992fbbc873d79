import type { DeviceTrack } from '@bwc/protocol';
import { useEffect } from 'react';
import { toDisplay } from './coords';
import { ICON_PREFIX, LABEL_PREFIX, installImageFactory } from './images';
import type { GeoJSONSource } from './maplibre';
import { useMap } from './MapView';

/** Colours of the tracks, one per device in turn. */
export const TRACK_COLORS = ['#1677ff', '#eb2f96', '#fa8c16', '#13c2c2', '#722ed1', '#52c41a', '#f5222d', '#2f54eb'];

const LINES = 'bwc-track-lines';
const GAPS = 'bwc-track-gaps';
const STOPS = 'bwc-track-stops';
const CURSOR = 'bwc-track-cursor';

export interface TrackCursor {
  deviceId: number;
  lng: number;
  lat: number;
  label: string;
}

interface Props {
  tracks: DeviceTrack[];
  /** where each device is at the replay time (WGS-84) */
  cursors: TrackCursor[];
}

/**
 * History tracks: a line per device, stops as circles, gaps as dashed lines, and the replay
 * cursors. Shapes follow `tracks`; the cursors move every frame through `setData` of a tiny source.
 */
export function TrackLayer({ tracks, cursors }: Props) {
  const { map, crs } = useMap();

  useEffect(() => {
    const removeFactory = installImageFactory(map);
    const color = (i: number) => TRACK_COLORS[i % TRACK_COLORS.length]!;
    const show = (lng: number, lat: number) => toDisplay(lng, lat, crs);
    map.addSource(LINES, {
      type: 'geojson',
      data: {
        type: 'FeatureCollection',
        features: tracks.map((track, i) => ({
          type: 'Feature',
          properties: { color: color(i) },
          geometry: { type: 'LineString', coordinates: track.points.map((p) => show(p.lng, p.lat)) },
        })),
      },
    });
    map.addSource(GAPS, {
      type: 'geojson',
      data: {
        type: 'FeatureCollection',
        features: tracks.flatMap((track, i) =>
          track.gaps.map((gap) => ({
            type: 'Feature' as const,
            properties: { color: color(i) },
            geometry: {
              type: 'LineString' as const,
              coordinates: [show(gap.from.lng, gap.from.lat), show(gap.to.lng, gap.to.lat)],
            },
          })),
        ),
      },
    });
    map.addSource(STOPS, {
      type: 'geojson',
      data: {
        type: 'FeatureCollection',
        features: tracks.flatMap((track, i) =>
          track.stops.map((stop) => ({
            type: 'Feature' as const,
            properties: { color: color(i) },
            geometry: { type: 'Point' as const, coordinates: show(stop.lng, stop.lat) },
          })),
        ),
      },
    });
    map.addSource(CURSOR, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
    map.addLayer({
      id: LINES,
      type: 'line',
      source: LINES,
      paint: { 'line-color': ['get', 'color'], 'line-width': 3, 'line-opacity': 0.85 },
    });
    map.addLayer({
      id: GAPS,
      type: 'line',
      source: GAPS,
      paint: { 'line-color': ['get', 'color'], 'line-width': 2, 'line-dasharray': [2, 2] },
    });
    map.addLayer({
      id: STOPS,
      type: 'circle',
      source: STOPS,
      paint: {
        'circle-radius': 6,
        'circle-color': '#ffffff',
        'circle-stroke-color': ['get', 'color'],
        'circle-stroke-width': 3,
      },
    });
    map.addLayer({
      id: CURSOR,
      type: 'symbol',
      source: CURSOR,
      layout: { 'icon-image': `${ICON_PREFIX}online`, 'icon-allow-overlap': true },
    });
    map.addLayer({
      id: `${CURSOR}-label`,
      type: 'symbol',
      source: CURSOR,
      layout: {
        'icon-image': ['concat', LABEL_PREFIX, ['get', 'label']],
        'icon-anchor': 'top',
        'icon-offset': [0, 14],
        'icon-allow-overlap': true,
      },
    });
    return () => {
      if (map.style) {
        for (const id of [`${CURSOR}-label`, CURSOR, STOPS, GAPS, LINES]) if (map.getLayer(id)) map.removeLayer(id);
        for (const id of [CURSOR, STOPS, GAPS, LINES]) if (map.getSource(id)) map.removeSource(id);
      }
      removeFactory();
    };
  }, [map, crs, tracks]);

  useEffect(() => {
    const source = map.getSource(CURSOR) as GeoJSONSource | undefined;
    void source?.setData({
      type: 'FeatureCollection',
      features: cursors.map((c) => ({
        type: 'Feature',
        properties: { label: c.label },
        geometry: { type: 'Point', coordinates: toDisplay(c.lng, c.lat, crs) },
      })),
    });
  }, [map, crs, cursors, tracks]);

  return null;
}
