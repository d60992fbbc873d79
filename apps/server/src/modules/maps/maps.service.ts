import { randomUUID } from 'node:crypto';
import type { ServerDeps } from '../../deps';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import {
  GEOCODE_ROUND_DECIMALS,
  GEOCODE_SETTINGS_DEFAULTS,
  GEOCODE_TIMEOUT_MS,
  GeocodeSettings,
  MAP_UPLOAD_LIMIT_MB,
  MB,
  ResultCode,
  type GeocodeAnswer,
  type MapFileFormat,
  type MapFileInfo,
} from '@bwc/protocol';
import type { FastifyRequest } from 'fastify';
import { now, type Db } from '../../db/connection';
import { readSettings, writeSettings } from '../../db/settings';
import { AppError, Errors } from '../../http/errors';
import * as repo from './maps.repository';
import type { MapFileRow } from './maps.tables';
import {
  BadMapFile,
  formatOfName,
  inspectMapFile,
  openTileReader,
  type MapFileMeta,
  type TileReader,
} from './map-file';

const AREA = 'maps';
const STORED = /^[0-9a-f-]{36}\.(pmtiles|mbtiles)$/;

export const mapsDir = (dataDir: string) => join(dataDir, AREA);

function parseJson<T>(s: string | null, fallback: T): T {
  if (s === null) return fallback;
  try {
    return JSON.parse(s) as T;
  } catch {
    return fallback;
  }
}

export function metaOf(row: MapFileRow): MapFileMeta {
  return {
    format: row.format as MapFileFormat,
    tile_type: row.tile_type,
    minzoom: row.minzoom,
    maxzoom: row.maxzoom,
    bounds: parseJson(row.bounds, null),
    center: parseJson(row.center, null),
    vector_layers: parseJson(row.vector_layers, [] as string[]),
  };
}

export function infoOf(row: MapFileRow): MapFileInfo {
  return { name: row.name, size: Number(row.size), uploaded: row.uploaded, ...metaOf(row) };
}

export const currentMapFile = repo.currentMapFile;

/**
 * The open tile reader of the current map file, shared by tile requests and replaced when a new
 * file is uploaded or the file is deleted.
 */
export class TileStore {
  private reader: { id: number; reader: Promise<TileReader> } | null = null;
  /** @param dataDir DATA_DIR (map files live in its maps/ folder) */
  constructor(private readonly dataDir: string) {}

  async get(row: MapFileRow): Promise<TileReader> {
    if (this.reader?.id !== row.id) {
      await this.reset();
      const path = join(mapsDir(this.dataDir), row.file);
      this.reader = { id: row.id, reader: openTileReader(path, row.format as MapFileFormat) };
    }
    return this.reader!.reader;
  }

  async reset(): Promise<void> {
    const old = this.reader;
    this.reader = null;
    if (old) await (await old.reader.catch(() => null))?.close();
  }
}

/**
 * Multipart upload (field `file`, .pmtiles or .mbtiles, at most MAP_UPLOAD_LIMIT_MB): streamed to
 * DATA_DIR/maps/.tmp, checked by reading its header/metadata, then moved to a generated name and
 * recorded; the previous map file is removed. A refused file leaves nothing behind.
 */
export async function uploadMapFile(deps: ServerDeps, req: FastifyRequest, tiles: TileStore): Promise<MapFileInfo> {
  const dir = mapsDir(deps.config.dataDir);
  const tmpDir = join(dir, '.tmp');
  await mkdir(tmpDir, { recursive: true });
  const part = await req.file({ limits: { fileSize: MAP_UPLOAD_LIMIT_MB * MB, files: 1 } });
  if (!part || part.fieldname !== 'file' || !part.filename) {
    part?.file.resume();
    throw Errors.field('file', 'validation.file.required');
  }
  const format = formatOfName(part.filename);
  if (!format) {
    part.file.resume();
    throw Errors.field('file', 'errors.map.fileType');
  }
  const stored = `${randomUUID()}.${format}`;
  const tmp = join(tmpDir, stored);
  try {
    await pipeline(part.file, createWriteStream(tmp));
    if (part.file.truncated) throw Errors.field('file', 'validation.file.size', { mb: MAP_UPLOAD_LIMIT_MB });
    let meta: MapFileMeta;
    try {
      meta = await inspectMapFile(tmp, format);
    } catch (err) {
      if (err instanceof BadMapFile)
        throw Errors.field('file', 'errors.map.badFile', {
          format: format === 'pmtiles' ? 'PMTiles' : 'MBTiles',
          reason: err.message,
        });
      throw err;
    }
    const size = (await stat(tmp)).size;
    await rename(tmp, join(dir, stored));
    const previous = await repo.allMapFiles(deps.db);
    const row = await repo.replaceMapFile(deps.db, {
      name: part.filename.split(/[\\/]/).pop()!.slice(0, 255),
      format,
      file: stored,
      size,
      tile_type: meta.tile_type,
      minzoom: meta.minzoom,
      maxzoom: meta.maxzoom,
      bounds: meta.bounds ? JSON.stringify(meta.bounds) : null,
      center: meta.center ? JSON.stringify(meta.center) : null,
      vector_layers: JSON.stringify(meta.vector_layers),
      uploaded: now(),
    });
    await tiles.reset();
    for (const p of previous) if (STORED.test(p.file)) await rm(join(dir, p.file), { force: true });
    return infoOf(row);
  } finally {
    await rm(tmp, { force: true });
  }
}

export async function deleteMapFile(deps: ServerDeps, tiles: TileStore): Promise<void> {
  const rows = await repo.allMapFiles(deps.db);
  if (!rows.length) throw new AppError(ResultCode.NOT_FOUND, 'errors.map.noFile');
  await repo.deleteMapFiles(deps.db);
  await tiles.reset();
  for (const r of rows) if (STORED.test(r.file)) await rm(join(mapsDir(deps.config.dataDir), r.file), { force: true });
}

// ---- reverse geocoding -----------------------------------------------------------------------

const SETTINGS_TYPE = 'geocode';

export async function readGeocodeSettings(db: Db): Promise<GeocodeSettings> {
  const value = await repo.readSettingsValue(db, SETTINGS_TYPE);
  if (value === undefined) return GEOCODE_SETTINGS_DEFAULTS;
  const parsed = GeocodeSettings.safeParse({ ...GEOCODE_SETTINGS_DEFAULTS, ...parseJson<object>(value, {}) });
  return parsed.success ? parsed.data : GEOCODE_SETTINGS_DEFAULTS;
}

export async function writeGeocodeSettings(db: Db, value: GeocodeSettings): Promise<void> {
  await writeSettings(db, SETTINGS_TYPE, value);
}

const round = (v: number) => Number(v.toFixed(GEOCODE_ROUND_DECIMALS));

function pick(obj: unknown, path: string): unknown {
  let node = obj;
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = Array.isArray(node) && /^\d+$/.test(key) ? node[Number(key)] : (node as Record<string, unknown>)[key];
  }
  return node;
}

/** The address of a position: from the cache, else (online map + configured service) from the service, then cached. */
export async function geocode(db: Db, lat: number, lng: number): Promise<GeocodeAnswer> {
  const rlat = round(lat);
  const rlng = round(lng);
  const key = `${rlat.toFixed(GEOCODE_ROUND_DECIMALS)},${rlng.toFixed(GEOCODE_ROUND_DECIMALS)}`;
  const hit = await repo.cachedAddress(db, key);
  if (hit !== undefined) return { lat: rlat, lng: rlng, address: hit, cached: true };
  const map = await readSettings(db, 'digitailmap');
  const settings = await readGeocodeSettings(db);
  if (map.mapinfo !== 1 || !settings.url) throw Errors.invalid('errors.map.geocodeOff');
  const url = settings.url.replaceAll('{lat}', String(rlat)).replaceAll('{lng}', String(rlng));
  let body: unknown;
  try {
    const res = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(GEOCODE_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    body = await res.json();
  } catch (err) {
    const reason =
      err instanceof Error
        ? err.name === 'TimeoutError'
          ? `timeout ${GEOCODE_TIMEOUT_MS} ms`
          : err.message
        : String(err);
    throw new AppError(ResultCode.SERVER_ERROR, 'errors.map.geocodeFailed', { reason });
  }
  const address = pick(body, settings.address_field);
  if (typeof address !== 'string' || !address.trim()) throw new AppError(ResultCode.NOT_FOUND, 'errors.map.noAddress');
  await repo.cacheAddress(db, key, rlat, rlng, address.trim());
  return { lat: rlat, lng: rlng, address: address.trim(), cached: false };
}
