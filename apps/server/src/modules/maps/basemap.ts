import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import type { BasemapLayer } from '@bwc/protocol';

/**
 * The built-in basemap: Natural Earth 1:50m land and countries from the npm package world-atlas
 * (TopoJSON), decoded here to GeoJSON once and kept in memory. It makes the map never blank when
 * no offline map file is uploaded and no online source is configured.
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
interface Feature {
  type: 'Feature';
  properties: Record<string, unknown>;
  geometry: { type: 'Polygon'; coordinates: Position[][] } | { type: 'MultiPolygon'; coordinates: Position[][][] };
}

/** TopoJSON (quantised, delta-encoded arcs) -> GeoJSON FeatureCollection of (Multi)Polygons. */
export function topologyToGeoJson(
  topo: Topology,
  objectName: string,
): { type: 'FeatureCollection'; features: Feature[] } {
  const [sx, sy] = topo.transform?.scale ?? [1, 1];
  const [tx, ty] = topo.transform?.translate ?? [0, 0];
  const arcs: Position[][] = topo.arcs.map((arc) => {
    if (!topo.transform) return arc.map(([x, y]) => [x, y] as Position);
    let x = 0;
    let y = 0;
    return arc.map(([dx, dy]) => {
      x += dx;
      y += dy;
      return [Math.round((x * sx + tx) * 1e6) / 1e6, Math.round((y * sy + ty) * 1e6) / 1e6] as Position;
    });
  });
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
  };
  const root = topo.objects[objectName];
  if (root) visit(root);
  return { type: 'FeatureCollection', features };
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
