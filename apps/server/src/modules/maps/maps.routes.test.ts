import { existsSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { VectorTile } from '@mapbox/vector-tile';
import { Api, type GeocodeAnswer, type MapFileInfo, type MapInfoAnswer } from '@bwc/protocol';
import { PbfReader as Pbf } from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, callApi } from '../../../test/api';
import { createTestApp, DEMO, login, type Session, type TestApp } from '../../../test/helpers';
import { writeSettings } from '../../db/settings';
import { buildPmtiles, fakePng, writeMbtiles } from './map-fixtures';

/** the parts of a MapLibre style the tests read */
type Style = {
  version: number;
  metadata: Record<string, string>;
  center: number[];
  zoom: number;
  sources: Record<string, Record<string, unknown>>;
  layers: { id: string }[];
};

let t: TestApp;
let admin: Session;
let dispatcher: Session;
let geo: Server;
let geoUrl: string;
let geoHits: string[] = [];
let geoStatus = 200;

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  dispatcher = await login(t.app, DEMO.dispatcher.username, DEMO.dispatcher.password);
  // a real HTTP reverse-geocoding service on a free port
  geo = createServer((req, res) => {
    geoHits.push(req.url ?? '');
    const q = new URL(req.url ?? '/', 'http://x').searchParams;
    res.writeHead(geoStatus, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ result: { formatted_address: `Road at ${q.get('lat')},${q.get('lon')}` } }));
  });
  await new Promise<void>((r) => geo.listen(0, '127.0.0.1', r));
  geoUrl = `http://127.0.0.1:${(geo.address() as AddressInfo).port}/reverse?lat={lat}&lon={lng}`;
});
afterAll(async () => {
  await new Promise((r) => geo.close(r));
  await t.close();
});

function form(file: { content: Buffer | string; name: string }): FormData {
  const f = new FormData();
  f.append('file', new Blob([file.content]), file.name);
  return f;
}
const upload = (file: { content: Buffer | string; name: string }, headers = admin.headers) =>
  t.app.inject({
    method: 'POST',
    url: Api.mapUpload.path,
    headers: { ...headers, 'x-lang': 'en-US' },
    payload: form(file),
  });
const get = (url: string, headers: Record<string, string> = dispatcher.headers) =>
  t.app.inject({ method: 'GET', url, headers });
const mapFiles = () =>
  existsSync(join(t.config.dataDir, 'maps'))
    ? readdirSync(join(t.config.dataDir, 'maps')).filter((n) => n !== '.tmp')
    : [];

describe('auth', () => {
  it.each([
    '/rest/map/style',
    '/rest/map/info',
    '/rest/map/tiles/0/0/0',
    '/rest/map/basemap/land',
    '/rest/map/basemap/tiles/0/0/0',
    '/rest/map/geocode?lat=22&lng=114',
  ])('%s: 401 without a session', async (url) => {
    expect((await t.app.inject({ method: 'GET', url, headers: { 'x-lang': 'en-US' } })).json()).toMatchObject({
      code: 401,
      msg: 'Please log in first',
    });
  });
  it('upload, delete and geocoding settings need edit on menu 10003', async () => {
    expect((await upload({ content: 'x', name: 'a.pmtiles' }, dispatcher.headers)).json()).toMatchObject({
      code: 403,
      msg: 'Permission denied: this needs "edit" on menu 10003',
    });
    expect(await api(t.app, 'mapFileDelete', dispatcher, {}, 'en-US')).toMatchObject({ code: 403 });
    expect(
      await api(t.app, 'geocodeSettingsUpdate', dispatcher, { url: geoUrl, address_field: 'a' }, 'en-US'),
    ).toMatchObject({ code: 403 });
    expect(await api(t.app, 'geocodeSettingsGet', dispatcher, {}, 'en-US')).toMatchObject({
      code: 403,
      msg: 'Permission denied: this needs "view" on menu 10003',
    });
  });
});

describe('built-in basemap (nothing uploaded, offline)', () => {
  it('the style draws land, water, rivers, borders, provinces and their names from our vector tiles', async () => {
    const info = await api<MapInfoAnswer>(t.app, 'mapInfo', dispatcher);
    expect(info.data).toEqual({ mode: 'builtin', crs: 'WGS84', style_url: '/rest/map/style', file: null });
    const style = (await get('/rest/map/style')).json() as Style;
    expect(style).toMatchObject({
      version: 8,
      metadata: { 'bwc:mode': 'builtin', 'bwc:crs': 'WGS84' },
      center: [114.0579, 22.5431],
      zoom: 15,
    });
    expect(style.sources.basemap).toEqual({
      type: 'vector',
      tiles: ['http://localhost:80/rest/map/basemap/tiles/{z}/{x}/{y}'],
      minzoom: 0,
      maxzoom: 8,
      attribution: expect.stringMatching(/^Natural Earth · .*GeoNames.*\(CC BY 3\.0\)/),
    });
    expect(style.layers.map((l) => l.id)).toEqual([
      'background',
      'land',
      'lakes',
      'rivers',
      'provinces',
      'districts',
      'borders',
      'province_labels',
      'places',
    ]);
  });
  it('the console may give its own origin as the base of the style URLs; a path is refused', async () => {
    const style = (await get('/rest/map/style?origin=http%3A%2F%2Flocalhost%3A5173')).json() as Style;
    expect(style.sources.basemap!.tiles).toEqual(['http://localhost:5173/rest/map/basemap/tiles/{z}/{x}/{y}']);
    // without it, the page that loads the style (Referer) gives the origin
    const viaProxy = (
      await get('/rest/map/style', { ...dispatcher.headers, referer: 'http://127.0.0.1:5173/dispatch/emergency?x=1' })
    ).json() as Style;
    expect(viaProxy.sources.basemap!.tiles).toEqual(['http://127.0.0.1:5173/rest/map/basemap/tiles/{z}/{x}/{y}']);
    expect(
      (await get('/rest/map/style?origin=http%3A%2F%2Fevil%2Fx', { ...dispatcher.headers, 'x-lang': 'en-US' })).json(),
    ).toMatchObject({
      code: 400,
      msg: 'Field origin: The origin must be http(s)://host[:port] without a path.',
    });
  });
  it('basemap layers are GeoJSON polygons; Shenzhen is on land; unknown layers are refused', async () => {
    const res = await get('/rest/map/basemap/countries');
    expect(res.headers['content-type']).toContain('application/geo+json');
    const fc = res.json() as {
      type: string;
      features: { properties: { name?: string }; geometry: { type: string } }[];
    };
    expect(fc.type).toBe('FeatureCollection');
    expect(fc.features.length).toBeGreaterThan(200);
    expect(fc.features.find((f) => f.properties.name === 'China')?.geometry.type).toBe('MultiPolygon');
    const gz = await get('/rest/map/basemap/land', { ...dispatcher.headers, 'accept-encoding': 'gzip, deflate' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const land = JSON.parse(gunzipSync(gz.rawPayload).toString('utf8')) as { features: unknown[] };
    expect(land.features.length).toBeGreaterThan(0);
    expect((await get('/rest/map/basemap/rivers', { ...dispatcher.headers, 'x-lang': 'en-US' })).json()).toMatchObject({
      code: 404,
      msg: 'Unknown basemap layer rivers',
    });
  });
  it('basemap vector tiles: Shenzhen on land, the Hong Kong border, Guangdong named; open sea and beyond zoom 8 are empty', async () => {
    const tileAt = async (z: number, lng: number, lat: number) => {
      const n = 2 ** z;
      const x = Math.floor(((lng + 180) / 360) * n);
      const r = (lat * Math.PI) / 180;
      const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n);
      const res = await get(`/rest/map/basemap/tiles/${z}/${x}/${y}`, {
        ...dispatcher.headers,
        'accept-encoding': 'gzip',
      });
      return { res, x, y, n };
    };
    const { res, x, y } = await tileAt(8, 114.0579, 22.5431);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.mapbox-vector-tile');
    expect(res.headers['content-encoding']).toBe('gzip');
    const tile = new VectorTile(new Pbf(gunzipSync(res.rawPayload)));
    expect(Object.keys(tile.layers).sort()).toEqual(expect.arrayContaining(['borders', 'land', 'provinces']));
    // the centre of Shenzhen lies inside a land polygon of the tile (ray casting in tile units)
    const extent = tile.layers.land!.extent;
    const px = (((114.0579 + 180) / 360) * 256 - x) * extent;
    const r = (22.5431 * Math.PI) / 180;
    const py = (((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 256 - y) * extent;
    let inside = false;
    for (let i = 0; i < tile.layers.land!.length; i++)
      for (const ring of tile.layers.land!.feature(i).loadGeometry())
        for (let a = 0, b = ring.length - 1; a < ring.length; b = a++) {
          const p = ring[a]!;
          const q = ring[b]!;
          if (p.y > py !== q.y > py && px < ((q.x - p.x) * (py - p.y)) / (q.y - p.y) + p.x) inside = !inside;
        }
    expect(inside).toBe(true);
    // province names at zoom 5 over southern China
    const z5 = await tileAt(5, 113.7, 23.8);
    const labels = new VectorTile(new Pbf(gunzipSync(z5.res.rawPayload))).layers.province_labels!;
    const names = Array.from({ length: labels.length }, (_, i) => labels.feature(i).properties.name);
    expect(names).toContain('广东');
    // rivers exist somewhere in China at zoom 4
    const z4 = await tileAt(4, 112, 30);
    expect(new VectorTile(new Pbf(gunzipSync(z4.res.rawPayload))).layers.rivers!.length).toBeGreaterThan(0);
    // the middle of the Pacific: nothing; zoom 9 is overzoomed by the map, not served; bad input 404
    expect((await tileAt(8, -150, 0)).res.statusCode).toBe(204);
    expect((await get('/rest/map/basemap/tiles/9/0/0')).statusCode).toBe(204);
    expect((await get('/rest/map/basemap/tiles/2/9/0')).statusCode).toBe(204);
    expect((await get('/rest/map/basemap/tiles/a/0/0')).statusCode).toBe(404);
    // a client that does not take gzip gets the plain tile
    const plain = await get(`/rest/map/basemap/tiles/8/${x}/${y}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Object.keys(new VectorTile(new Pbf(plain.rawPayload)).layers)).toContain('land');
  });
  it("a dispatcher at zoom 12 over a town sees its name (Shajing, 沙井, in Bao'an), and the prefecture boundaries", async () => {
    // the view the console opens at zoom 12 around Shajing: the map draws it from the zoom-8 tile
    // (the deepest it is served), overzoomed; the places layer is drawn at zoom 12
    const [lng, lat] = [113.819, 22.7463];
    const style = (await get('/rest/map/style')).json() as Style;
    const places = style.layers.find((l) => l.id === 'places') as unknown as {
      minzoom?: number;
      maxzoom?: number;
      type: string;
    };
    expect(places.type).toBe('symbol');
    expect(places.minzoom ?? 0).toBeLessThanOrEqual(12);
    expect(places.maxzoom ?? 24).toBeGreaterThan(12);
    const world = (z: number) => {
      const r = (lat * Math.PI) / 180;
      return [((lng + 180) / 360) * 2 ** z, ((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z];
    };
    const [x8, y8] = world(8).map(Math.floor) as [number, number];
    const res = await get(`/rest/map/basemap/tiles/8/${x8}/${y8}`, dispatcher.headers);
    expect(res.statusCode).toBe(200);
    const tile = new VectorTile(new Pbf(res.rawPayload));
    expect(tile.layers.districts!.length).toBeGreaterThan(0);
    const layer = tile.layers.places!;
    // every place of the tile with its position in zoom-12 tile units
    const found = Array.from({ length: layer.length }, (_, i) => {
      const f = layer.feature(i);
      const p = f.loadGeometry()[0]![0]!;
      return {
        name: f.properties.name,
        name_en: f.properties.name_en,
        x: (x8 + p.x / layer.extent) * 16,
        y: (y8 + p.y / layer.extent) * 16,
      };
    });
    // inside the 1280 x 800 view at zoom 12 centred on the town (512-pixel tiles: 2.5 x 1.6 tiles)
    const [cx, cy] = world(12) as [number, number];
    const inView = found.filter((p) => Math.abs(p.x - cx) < 1.25 && Math.abs(p.y - cy) < 0.8);
    expect(inView).toContainEqual(expect.objectContaining({ name: '沙井', name_en: 'Shajing' }));
  });
  it('tiles answer "no file" as an envelope', async () => {
    expect((await get('/rest/map/tiles/0/0/0', { ...dispatcher.headers, 'x-lang': 'en-US' })).json()).toMatchObject({
      code: 404,
      msg: 'No offline map file has been uploaded',
    });
  });
});

describe('offline map files', () => {
  it('refuses other types, garbage and a database without tiles; leaves nothing behind', async () => {
    expect((await upload({ content: 'x', name: 'map.zip' })).json()).toMatchObject({
      code: 400,
      msg: 'Field file: The map file must be a .pmtiles or .mbtiles file.',
    });
    expect((await upload({ content: 'not a map at all', name: 'map.pmtiles' })).json()).toMatchObject({
      code: 400,
      msg: 'Field file: The file is not a valid PMTiles map: no PMTiles header.',
    });
    expect((await upload({ content: 'not a map at all', name: 'map.mbtiles' })).json()).toMatchObject({
      code: 400,
      msg: 'Field file: The file is not a valid MBTiles map: not an SQLite database.',
    });
    expect(mapFiles()).toEqual([]);
    expect(await t.db.selectFrom('map_files').selectAll().execute()).toHaveLength(0);
  });

  it('MBTiles raster: stored, style points at our tiles, tiles served with the TMS row flipped', async () => {
    const path = join(t.config.dataDir, 'fixture.mbtiles');
    writeMbtiles(
      path,
      [
        { z: 1, x: 1, y: 0, data: fakePng('z1x1y0') },
        { z: 2, x: 3, y: 1, data: fakePng('z2x3y1') },
      ],
      {
        name: 'city',
        format: 'png',
        bounds: '113.7,22.4,114.6,22.9',
        center: '114.05,22.54,12',
        minzoom: '1',
        maxzoom: '2',
      },
    );
    const { readFileSync } = await import('node:fs');
    const res = await upload({ content: readFileSync(path), name: 'city.mbtiles' });
    const env = res.json() as { code: number; data: MapFileInfo };
    expect(env.code).toBe(200);
    expect(env.data).toMatchObject({
      name: 'city.mbtiles',
      format: 'mbtiles',
      tile_type: 'png',
      minzoom: 1,
      maxzoom: 2,
      bounds: [113.7, 22.4, 114.6, 22.9],
      center: [114.05, 22.54, 12],
    });
    expect(mapFiles()).toHaveLength(1);
    const style = (await get('/rest/map/style')).json() as Style;
    expect(style.metadata).toEqual({ 'bwc:mode': 'offline', 'bwc:crs': 'WGS84' });
    expect(style.sources.offline).toMatchObject({
      type: 'raster',
      tiles: ['http://localhost:80/rest/map/tiles/{z}/{x}/{y}'],
      minzoom: 1,
      maxzoom: 2,
      tileSize: 256,
    });
    const tile = await get('/rest/map/tiles/2/3/1');
    expect(tile.statusCode).toBe(200);
    expect(tile.headers['content-type']).toBe('image/png');
    expect(tile.rawPayload.subarray(8).toString()).toBe('z2x3y1');
    expect((await get('/rest/map/tiles/1/1/0.png')).rawPayload.subarray(8).toString()).toBe('z1x1y0');
    expect((await get('/rest/map/tiles/1/0/0')).statusCode).toBe(204);
  });

  it('PMTiles vector replaces it: old file removed, vector layers styled, tiles read from the directory', async () => {
    const pm = buildPmtiles(
      [
        { z: 0, x: 0, y: 0, data: Buffer.from('tile-0-0-0') },
        { z: 3, x: 6, y: 3, data: Buffer.from('tile-3-6-3') },
      ],
      { tileType: 1, metadata: { vector_layers: [{ id: 'roads' }, { id: 'water' }] }, bounds: [113, 22, 115, 23] },
    );
    const env = (await upload({ content: pm, name: 'shenzhen.pmtiles' })).json() as { code: number; data: MapFileInfo };
    expect(env.code).toBe(200);
    expect(env.data).toMatchObject({
      format: 'pmtiles',
      tile_type: 'pbf',
      minzoom: 0,
      maxzoom: 3,
      vector_layers: ['roads', 'water'],
      bounds: [113, 22, 115, 23],
    });
    expect(mapFiles()).toEqual([expect.stringMatching(/\.pmtiles$/)]);
    const style = (await get('/rest/map/style')).json() as Style;
    expect(style.sources.offline).toMatchObject({ type: 'vector', maxzoom: 3 });
    expect(style.layers.map((l) => l.id)).toEqual([
      'background',
      'roads-fill',
      'roads-line',
      'roads-point',
      'water-fill',
      'water-line',
      'water-point',
    ]);
    const tile = await get('/rest/map/tiles/3/6/3');
    expect(tile.headers['content-type']).toBe('application/x-protobuf');
    expect(tile.body).toBe('tile-3-6-3');
    expect((await get('/rest/map/tiles/0/0/0')).body).toBe('tile-0-0-0');
    expect((await get('/rest/map/tiles/3/0/0')).statusCode).toBe(204);
    expect((await get('/rest/map/tiles/9/0/0')).statusCode).toBe(204);
  });

  it('delete goes back to the built-in basemap', async () => {
    expect(await api(t.app, 'mapFileDelete', admin)).toMatchObject({ code: 200 });
    expect(mapFiles()).toEqual([]);
    expect((await api<MapInfoAnswer>(t.app, 'mapInfo', dispatcher)).data.mode).toBe('builtin');
    expect(await api(t.app, 'mapFileDelete', admin, {}, 'en-US')).toMatchObject({
      code: 404,
      msg: 'No offline map file has been uploaded',
    });
  });
});

describe('online map and reverse geocoding', () => {
  it('offline: no address lookup; bad input named', async () => {
    expect(await api(t.app, 'mapGeocode', dispatcher, { lat: 22.54, lng: 114.05 }, 'en-US')).toMatchObject({
      code: 400,
      msg: 'Address lookup needs the online map and a configured geocoding service',
    });
    expect(await api(t.app, 'mapGeocode', dispatcher, { lat: 91, lng: 114.05 }, 'en-US')).toMatchObject({
      code: 400,
      msg: 'Field lat: Latitude must be between -90 and 90.',
    });
    expect(
      await api(t.app, 'geocodeSettingsUpdate', admin, { url: 'ftp://x', address_field: 'a' }, 'en-US'),
    ).toMatchObject({
      code: 400,
      msg: 'Field url: The geocoding service address must start with http:// or https:// and contain {lat} and {lng}.',
    });
  });

  it('online: the style uses the configured source and its coordinate system', async () => {
    await writeSettings(t.db, 'digitailmap', {
      mapinfo: 1,
      gpscenter_lon: 114.0579,
      gpscenter_lat: 22.5431,
      map_url: 'https://tiles.example/{z}/{x}/{y}.png',
      map_crs: 'GCJ02',
    });
    const style = (await get('/rest/map/style')).json() as Style;
    expect(style.metadata).toEqual({ 'bwc:mode': 'online', 'bwc:crs': 'GCJ02' });
    expect(style.sources.base).toMatchObject({ type: 'raster', tiles: ['https://tiles.example/{z}/{x}/{y}.png'] });
    expect((await api<MapInfoAnswer>(t.app, 'mapInfo', dispatcher)).data).toMatchObject({
      mode: 'online',
      crs: 'GCJ02',
    });
  });

  it('asks the service once per rounded position and caches the answer', async () => {
    expect(
      await api(t.app, 'geocodeSettingsUpdate', admin, { url: geoUrl, address_field: 'result.formatted_address' }),
    ).toMatchObject({ code: 200 });
    expect((await api(t.app, 'geocodeSettingsGet', admin)).data).toEqual({
      url: geoUrl,
      address_field: 'result.formatted_address',
    });
    geoHits = [];
    const first = await api<GeocodeAnswer>(t.app, 'mapGeocode', dispatcher, { lat: 22.54321, lng: 114.05678 });
    expect(first.data).toEqual({ lat: 22.5432, lng: 114.0568, address: 'Road at 22.5432,114.0568', cached: false });
    const again = await api<GeocodeAnswer>(t.app, 'mapGeocode', dispatcher, { lat: 22.54324, lng: 114.05681 });
    expect(again.data).toEqual({ lat: 22.5432, lng: 114.0568, address: 'Road at 22.5432,114.0568', cached: true });
    expect(geoHits).toEqual(['/reverse?lat=22.5432&lon=114.0568']);
    expect(await t.db.selectFrom('geocode_cache').selectAll().execute()).toHaveLength(1);
  });

  it('a failing service is reported and nothing is cached', async () => {
    geoStatus = 500;
    expect(await api(t.app, 'mapGeocode', dispatcher, { lat: 10, lng: 10 }, 'en-US')).toMatchObject({
      code: 500,
      msg: 'The geocoding service failed: HTTP 500',
    });
    geoStatus = 200;
    expect(
      await api(t.app, 'geocodeSettingsUpdate', admin, { url: geoUrl, address_field: 'nothing.here' }),
    ).toMatchObject({ code: 200 });
    expect(await api(t.app, 'mapGeocode', dispatcher, { lat: 11, lng: 11 }, 'en-US')).toMatchObject({
      code: 404,
      msg: 'The geocoding service returned no address',
    });
    expect(await t.db.selectFrom('geocode_cache').selectAll().execute()).toHaveLength(1);
    expect((await callApi(t.app, 'mapGeocode', dispatcher, { lat: 22.5432, lng: 114.0568 })).json()).toMatchObject({
      data: { cached: true },
    });
  });
});
