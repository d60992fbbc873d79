import { MAP_START_ZOOM } from '@bwc/protocol';
import type { MapFileMeta } from './map-file';

/**
 * The MapLibre style (version 8) the console loads. No glyphs or sprites: the console draws its
 * own markers and labels. `metadata` carries what the console must know: `bwc:mode`
 * (online | offline | builtin) and `bwc:crs` (WGS84 | GCJ02, the base map's coordinate system).
 */
export interface StyleInput {
  mode: 'online' | 'offline' | 'builtin';
  crs: 'WGS84' | 'GCJ02';
  /** absolute base of our own URLs, e.g. http://host:8080 */
  base: string;
  center: [number, number];
  onlineUrl?: string;
  file?: MapFileMeta | null;
  /** names shown in the style (localised) */
  name: string;
}

const WATER = '#a8c8e0';
const LAND = '#f2efe9';
const BORDER = '#9e9ab0';

export function buildStyle(s: StyleInput): Record<string, unknown> {
  const metadata = { 'bwc:mode': s.mode, 'bwc:crs': s.crs };
  const common = { version: 8, name: s.name, metadata, center: s.center, zoom: MAP_START_ZOOM };
  if (s.mode === 'online') {
    return {
      ...common,
      sources: { base: { type: 'raster', tiles: [s.onlineUrl], tileSize: 256, maxzoom: 19 } },
      layers: [{ id: 'base', type: 'raster', source: 'base' }],
    };
  }
  if (s.mode === 'offline' && s.file) {
    const f = s.file;
    const source: Record<string, unknown> = {
      type: f.tile_type === 'pbf' ? 'vector' : 'raster',
      tiles: [`${s.base}/rest/map/tiles/{z}/{x}/{y}`],
      minzoom: f.minzoom,
      maxzoom: f.maxzoom,
      ...(f.bounds ? { bounds: f.bounds } : {}),
      ...(f.tile_type === 'pbf' ? {} : { tileSize: 256 }),
    };
    const layers: Record<string, unknown>[] = [
      { id: 'background', type: 'background', paint: { 'background-color': LAND } },
    ];
    if (f.tile_type !== 'pbf') layers.push({ id: 'offline', type: 'raster', source: 'offline' });
    else
      for (const id of f.vector_layers) {
        // generic drawing of every layer of the file: areas, lines and points
        layers.push(
          {
            id: `${id}-fill`,
            type: 'fill',
            source: 'offline',
            'source-layer': id,
            filter: ['==', ['geometry-type'], 'Polygon'],
            paint: { 'fill-color': /water|ocean|lake|river/i.test(id) ? WATER : '#e4e0d8', 'fill-opacity': 0.8 },
          },
          {
            id: `${id}-line`,
            type: 'line',
            source: 'offline',
            'source-layer': id,
            filter: ['==', ['geometry-type'], 'LineString'],
            paint: { 'line-color': /water|river/i.test(id) ? WATER : '#b0aba0', 'line-width': 1 },
          },
          {
            id: `${id}-point`,
            type: 'circle',
            source: 'offline',
            'source-layer': id,
            filter: ['==', ['geometry-type'], 'Point'],
            paint: { 'circle-radius': 2, 'circle-color': '#8a8577' },
          },
        );
      }
    return { ...common, sources: { offline: source }, layers };
  }
  return {
    ...common,
    sources: {
      land: { type: 'geojson', data: `${s.base}/rest/map/basemap/land` },
      countries: { type: 'geojson', data: `${s.base}/rest/map/basemap/countries` },
    },
    layers: [
      { id: 'background', type: 'background', paint: { 'background-color': WATER } },
      { id: 'land', type: 'fill', source: 'land', paint: { 'fill-color': LAND } },
      { id: 'country-borders', type: 'line', source: 'countries', paint: { 'line-color': BORDER, 'line-width': 1 } },
    ],
  };
}
