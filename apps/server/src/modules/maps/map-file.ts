import { open, type FileHandle } from 'node:fs/promises';
import { MAP_FILE_FORMATS, type MapFileFormat } from '@bwc/protocol';
import Database from 'better-sqlite3';
import { PMTiles, TileType, type RangeResponse, type Source } from 'pmtiles';

/** What we read from a map file's header/metadata (stored as the map_files row). */
export interface MapFileMeta {
  format: MapFileFormat;
  tile_type: string;
  minzoom: number;
  maxzoom: number;
  bounds: [number, number, number, number] | null;
  center: [number, number, number] | null;
  vector_layers: string[];
}

/** A file refused as a map: `reason` goes into errors.map.badFile. */
export class BadMapFile extends Error {}

/** pmtiles Source over a local file (positioned reads). */
export class LocalFileSource implements Source {
  constructor(
    private readonly path: string,
    private readonly fh: FileHandle,
  ) {}
  getKey(): string {
    return this.path;
  }
  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    const buf = Buffer.alloc(length);
    const { bytesRead } = await this.fh.read(buf, 0, length, offset);
    return { data: buf.buffer.slice(buf.byteOffset, buf.byteOffset + bytesRead) as ArrayBuffer };
  }
}

const PM_TYPES: Record<number, string> = {
  [TileType.Mvt]: 'pbf',
  [TileType.Png]: 'png',
  [TileType.Jpeg]: 'jpg',
  [TileType.Webp]: 'webp',
  [TileType.Avif]: 'avif',
};

export function formatOfName(name: string): MapFileFormat | null {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  return (MAP_FILE_FORMATS as readonly string[]).includes(ext) ? (ext as MapFileFormat) : null;
}

function vectorLayerIds(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  return v
    .map((l) =>
      l && typeof l === 'object' && typeof (l as { id?: unknown }).id === 'string' ? (l as { id: string }).id : '',
    )
    .filter(Boolean);
}

async function readPmtiles(path: string): Promise<MapFileMeta> {
  const fh = await open(path, 'r');
  try {
    const head = Buffer.alloc(8);
    await fh.read(head, 0, 8, 0);
    if (head.subarray(0, 7).toString('latin1') !== 'PMTiles') throw new BadMapFile('no PMTiles header');
    if (head[7] !== 3) throw new BadMapFile(`PMTiles spec version ${head[7]} (3 is supported)`);
    const pm = new PMTiles(new LocalFileSource(path, fh));
    const h = await pm.getHeader();
    const tileType = PM_TYPES[h.tileType];
    if (!tileType) throw new BadMapFile(`unknown tile type ${h.tileType}`);
    if (h.minZoom > h.maxZoom || h.maxZoom > 24) throw new BadMapFile(`zoom range ${h.minZoom}-${h.maxZoom}`);
    let metadata: Record<string, unknown> = {};
    try {
      metadata = (await pm.getMetadata()) as Record<string, unknown>;
    } catch {
      metadata = {};
    }
    const validBounds = h.minLon < h.maxLon && h.minLat < h.maxLat;
    return {
      format: 'pmtiles',
      tile_type: tileType,
      minzoom: h.minZoom,
      maxzoom: h.maxZoom,
      bounds: validBounds ? [h.minLon, h.minLat, h.maxLon, h.maxLat] : null,
      center: validBounds ? [h.centerLon, h.centerLat, h.centerZoom] : null,
      vector_layers: vectorLayerIds(metadata.vector_layers),
    };
  } catch (err) {
    if (err instanceof BadMapFile) throw err;
    throw new BadMapFile(err instanceof Error ? err.message : String(err));
  } finally {
    await fh.close();
  }
}

const numbers = (s: string | undefined, n: number): number[] | null => {
  if (!s) return null;
  const v = s.split(',').map((x) => Number(x.trim()));
  return v.length === n && v.every(Number.isFinite) ? v : null;
};

function readMbtiles(path: string): MapFileMeta {
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new BadMapFile(err instanceof Error ? err.message : String(err));
  }
  try {
    const meta = new Map<string, string>();
    try {
      for (const row of db.prepare('select name, value from metadata').all() as { name: string; value: string }[])
        meta.set(row.name, String(row.value));
    } catch {
      throw new BadMapFile('no metadata table');
    }
    let zooms: { lo: number | null; hi: number | null };
    try {
      zooms = db.prepare('select min(zoom_level) as lo, max(zoom_level) as hi from tiles').get() as {
        lo: number | null;
        hi: number | null;
      };
    } catch {
      throw new BadMapFile('no tiles table');
    }
    if (zooms.lo === null || zooms.hi === null) throw new BadMapFile('no tiles');
    const format = (meta.get('format') ?? 'png').toLowerCase();
    const tileType = format === 'jpeg' ? 'jpg' : format;
    if (!['png', 'jpg', 'webp', 'pbf'].includes(tileType)) throw new BadMapFile(`unknown tile format ${format}`);
    let vector: string[] = [];
    const json = meta.get('json');
    if (json) {
      try {
        vector = vectorLayerIds((JSON.parse(json) as { vector_layers?: unknown }).vector_layers);
      } catch {
        vector = [];
      }
    }
    const b = numbers(meta.get('bounds'), 4);
    const c = numbers(meta.get('center'), 3);
    return {
      format: 'mbtiles',
      tile_type: tileType,
      minzoom: Number(meta.get('minzoom') ?? zooms.lo),
      maxzoom: Number(meta.get('maxzoom') ?? zooms.hi),
      bounds: b ? (b as [number, number, number, number]) : null,
      center: c ? (c as [number, number, number]) : null,
      vector_layers: vector,
    };
  } finally {
    db.close();
  }
}

/** Read and check a map file's header/metadata; throws BadMapFile. */
export async function inspectMapFile(path: string, format: MapFileFormat): Promise<MapFileMeta> {
  if (format === 'pmtiles') return readPmtiles(path);
  const head = Buffer.alloc(16);
  const fh = await open(path, 'r');
  try {
    await fh.read(head, 0, 16, 0);
  } finally {
    await fh.close();
  }
  if (head.toString('latin1') !== 'SQLite format 3\0') throw new BadMapFile('not an SQLite database');
  return readMbtiles(path);
}

/** An open map file serving tiles. */
export interface TileReader {
  /** tile bytes (as stored: MBTiles vector tiles usually gzip) or null when the file has none */
  tile(z: number, x: number, y: number): Promise<Buffer | null>;
  close(): Promise<void>;
}

export async function openTileReader(path: string, format: MapFileFormat): Promise<TileReader> {
  if (format === 'pmtiles') {
    const fh = await open(path, 'r');
    const pm = new PMTiles(new LocalFileSource(path, fh));
    return {
      tile: async (z, x, y) => {
        if (x >= 2 ** z || y >= 2 ** z) return null;
        const r = await pm.getZxy(z, x, y);
        return r ? Buffer.from(r.data) : null;
      },
      close: () => fh.close(),
    };
  }
  const db = new Database(path, { readonly: true, fileMustExist: true });
  const stmt = db.prepare('select tile_data from tiles where zoom_level = ? and tile_column = ? and tile_row = ?');
  return {
    // MBTiles rows count from the south (TMS)
    tile: async (z, x, y) => {
      const row = stmt.get(z, x, 2 ** z - 1 - y) as { tile_data: Buffer } | undefined;
      return row ? Buffer.from(row.tile_data) : null;
    },
    close: async () => {
      db.close();
    },
  };
}
