import { BASEMAP_LAYERS, ResultCode, TileParams, type BasemapLayer } from '@bwc/protocol';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readSettings } from '../../db/settings';
import { AppError } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { basemapGeoJson, type BasemapTiles } from './basemap';
import {
  currentMapFile,
  deleteMapFile,
  geocode,
  infoOf,
  metaOf,
  readGeocodeSettings,
  type TileStore,
  uploadMapFile,
  writeGeocodeSettings,
} from './maps.service';
import { buildStyle } from './style';

const TILE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
  pbf: 'application/x-protobuf',
};

/**
 * Absolute base of the style's own URLs: the page's origin, so that tiles and basemap go through
 * the same origin (and proxy) as the console. From `?origin=`, else the Referer's origin (the page
 * that loads the style), else the Host the request reached.
 */
function baseUrl(req: FastifyRequest, origin: string | undefined): string {
  if (origin) return origin;
  const referer = req.headers.referer;
  if (referer) {
    try {
      const url = new URL(referer);
      if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
    } catch {
      /* not a URL: fall back to the Host */
    }
  }
  return `${req.protocol}://${req.headers.host ?? req.hostname}`;
}

/** What the map routes serve from: the offline tile store and the built-in basemap (maps.module.ts). */
export interface MapRoutesDeps {
  tiles: TileStore;
  basemap: BasemapTiles;
}

/** Maps: style, offline tiles, built-in basemap, map file upload, reverse geocoding. */
export async function registerMapRoutes(app: FastifyInstance, { tiles, basemap }: MapRoutesDeps): Promise<void> {
  async function mode(): Promise<{
    mode: 'online' | 'offline' | 'builtin';
    crs: 'WGS84' | 'GCJ02';
    url: string;
    center: [number, number];
  }> {
    const map = await readSettings(app.db, 'digitailmap');
    const center: [number, number] = [map.gpscenter_lon, map.gpscenter_lat];
    if (map.mapinfo === 1 && map.map_url) return { mode: 'online', crs: map.map_crs, url: map.map_url, center };
    // offline tiles and the Natural Earth basemap are WGS-84 (web mercator)
    return { mode: (await currentMapFile(app.db)) ? 'offline' : 'builtin', crs: 'WGS84', url: '', center };
  }

  defineRoute(app, {
    api: 'mapStyle',
    handler: async ({ req, reply, t, query }) => {
      const m = await mode();
      const row = m.mode === 'offline' ? await currentMapFile(app.db) : undefined;
      const style = buildStyle({
        mode: m.mode,
        crs: m.crs,
        base: baseUrl(req, query.origin),
        center: m.center,
        onlineUrl: m.url,
        file: row ? metaOf(row) : null,
        name: t('export.map.name'),
      });
      return reply.header('cache-control', 'no-store').send(style);
    },
  });

  defineRoute(app, {
    api: 'mapInfo',
    handler: async () => {
      const m = await mode();
      const row = await currentMapFile(app.db);
      return { mode: m.mode, crs: m.crs, style_url: '/rest/map/style', file: row ? infoOf(row) : null };
    },
  });

  defineRoute(app, {
    api: 'mapTile',
    handler: async ({ req, reply }) => {
      const params = TileParams.safeParse(req.params);
      if (!params.success) return reply.code(404).send();
      const { z, x } = params.data;
      const y = Number(params.data.y.split('.')[0]);
      const row = await currentMapFile(app.db);
      if (!row) throw new AppError(ResultCode.NOT_FOUND, 'errors.map.noFile');
      const data = await (await tiles.get(row)).tile(z, x, y);
      // no tile there: an empty answer MapLibre draws as nothing
      if (!data) return reply.code(204).header('cache-control', 'public, max-age=3600').send();
      reply
        .header('content-type', TILE_TYPES[row.tile_type] ?? 'application/octet-stream')
        .header('cache-control', 'public, max-age=3600');
      if (data[0] === 0x1f && data[1] === 0x8b) reply.header('content-encoding', 'gzip');
      return reply.send(data);
    },
  });

  defineRoute(app, {
    api: 'mapBasemap',
    handler: async ({ req, reply }) => {
      const name = (req.params as { name?: string }).name ?? '';
      const layer = name.replace(/\.geojson$/, '') as BasemapLayer;
      if (!(BASEMAP_LAYERS as readonly string[]).includes(layer))
        throw new AppError(ResultCode.NOT_FOUND, 'errors.map.basemap', { name });
      const body = await basemapGeoJson(layer);
      reply
        .header('content-type', 'application/geo+json')
        .header('cache-control', 'public, max-age=86400')
        .header('vary', 'accept-encoding');
      if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')))
        return reply.header('content-encoding', 'gzip').send(body.gz);
      return reply.send(body.raw);
    },
  });

  defineRoute(app, {
    api: 'mapBasemapTile',
    handler: async ({ req, reply }) => {
      const params = TileParams.safeParse(req.params);
      if (!params.success) return reply.code(404).send();
      const { z, x } = params.data;
      const y = Number(params.data.y.split('.')[0]);
      const data = await basemap.tile(z, x, y);
      // open sea or out of range: an empty answer MapLibre draws as nothing (the background)
      if (!data) return reply.code(204).header('cache-control', 'public, max-age=86400').send();
      reply
        .header('content-type', 'application/vnd.mapbox-vector-tile')
        .header('cache-control', 'public, max-age=86400')
        .header('vary', 'accept-encoding');
      if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')))
        return reply.header('content-encoding', 'gzip').send(data);
      return reply.send(gunzipSync(data));
    },
  });

  defineRoute(app, {
    api: 'mapUpload',
    msg: 'success.uploaded',
    handler: async ({ req }) => uploadMapFile(app, req, tiles),
  });

  defineRoute(app, {
    api: 'mapFileDelete',
    msg: 'success.deleted',
    handler: async () => {
      await deleteMapFile(app, tiles);
      return null;
    },
  });

  defineRoute(app, {
    api: 'mapGeocode',
    handler: async ({ db, query }) => geocode(db, query.lat, query.lng),
  });

  defineRoute(app, {
    api: 'geocodeSettingsGet',
    handler: async ({ db }) => readGeocodeSettings(db),
  });

  defineRoute(app, {
    api: 'geocodeSettingsUpdate',
    msg: 'success.saved',
    handler: async ({ db, body }) => {
      await writeGeocodeSettings(db, body);
      return null;
    },
  });
}
