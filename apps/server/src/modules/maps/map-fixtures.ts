import Database from 'better-sqlite3';
import { zxyToTileId } from 'pmtiles';

/** Test fixtures of the maps module (not a test file): tiny but real PMTiles v3 and MBTiles files. */

function varint(n: number, out: number[]): void {
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
}

export interface FixtureTile {
  z: number;
  x: number;
  y: number;
  data: Buffer;
}

/** A PMTiles v3 archive (no internal compression, one root directory). tileType 1 mvt, 2 png. */
export function buildPmtiles(
  tiles: FixtureTile[],
  opts: { tileType: number; tileCompression?: number; metadata?: object; bounds?: [number, number, number, number] },
): Buffer {
  const entries = tiles.map((t) => ({ id: zxyToTileId(t.z, t.x, t.y), data: t.data })).sort((a, b) => a.id - b.id);
  const dir: number[] = [];
  varint(entries.length, dir);
  let last = 0;
  for (const e of entries) {
    varint(e.id - last, dir);
    last = e.id;
  }
  for (let i = 0; i < entries.length; i++) varint(1, dir);
  for (const e of entries) varint(e.data.length, dir);
  let offset = 0;
  for (const e of entries) {
    varint(offset + 1, dir);
    offset += e.data.length;
  }
  const root = Buffer.from(dir);
  const meta = Buffer.from(JSON.stringify(opts.metadata ?? {}));
  const data = Buffer.concat(entries.map((e) => e.data));
  const zooms = tiles.map((t) => t.z);
  const [w, s, e, n] = opts.bounds ?? [-180, -85, 180, 85];
  const h = Buffer.alloc(127);
  h.write('PMTiles', 0, 'latin1');
  h.writeUInt8(3, 7);
  const u64 = (v: number, at: number) => h.writeBigUInt64LE(BigInt(v), at);
  u64(127, 8);
  u64(root.length, 16);
  u64(127 + root.length, 24);
  u64(meta.length, 32);
  u64(0, 40);
  u64(0, 48);
  u64(127 + root.length + meta.length, 56);
  u64(data.length, 64);
  u64(entries.length, 72);
  u64(entries.length, 80);
  u64(entries.length, 88);
  h.writeUInt8(1, 96);
  h.writeUInt8(1, 97);
  h.writeUInt8(opts.tileCompression ?? 1, 98);
  h.writeUInt8(opts.tileType, 99);
  h.writeUInt8(Math.min(...zooms), 100);
  h.writeUInt8(Math.max(...zooms), 101);
  h.writeInt32LE(Math.round(w * 1e7), 102);
  h.writeInt32LE(Math.round(s * 1e7), 106);
  h.writeInt32LE(Math.round(e * 1e7), 110);
  h.writeInt32LE(Math.round(n * 1e7), 114);
  h.writeUInt8(Math.min(...zooms), 118);
  h.writeInt32LE(Math.round(((w + e) / 2) * 1e7), 119);
  h.writeInt32LE(Math.round(((s + n) / 2) * 1e7), 123);
  return Buffer.concat([h, root, meta, data]);
}

/** An MBTiles file at `path` (tile_row counted from the south, as MBTiles does). */
export function writeMbtiles(path: string, tiles: FixtureTile[], metadata: Record<string, string>): void {
  const db = new Database(path);
  db.exec(
    'create table metadata (name text, value text); create table tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);',
  );
  const m = db.prepare('insert into metadata values (?, ?)');
  for (const [k, v] of Object.entries(metadata)) m.run(k, v);
  const t = db.prepare('insert into tiles values (?, ?, ?, ?)');
  for (const tile of tiles) t.run(tile.z, tile.x, 2 ** tile.z - 1 - tile.y, tile.data);
  db.close();
}

/** The 8-byte PNG signature plus a marker: enough to tell tiles apart. */
export const fakePng = (marker: string) =>
  Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(marker)]);
