import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIndexes, cutTile } from './basemap';
import { packFile, readPack, writePack } from './basemap-pack';

/** The tile pack (every non-empty tile, cut once) at zoom 0-3, to keep the test short. */
const dir = mkdtempSync(join(tmpdir(), 'bwc-basemap-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const layersOf = (gz: Buffer) => Object.keys(new VectorTile(new PbfReader(gunzipSync(gz))).layers).sort();

describe('basemap tile pack', () => {
  it('holds every non-empty tile, the same the server cuts, and nothing of the open ocean', async () => {
    const file = packFile(dir, 3);
    const count = await writePack(file, 3);
    const pack = readPack(file, 3);
    expect(pack.size).toBe(count);
    // zoom 0 has its one tile; zoom 3 has at most 64, the ocean ones missing
    expect(pack.has('0/0/0')).toBe(true);
    const z3 = [...pack.keys()].filter((k) => k.startsWith('3/'));
    expect(z3.length).toBeGreaterThan(20);
    expect(z3.length).toBeLessThan(64);
    // southern China (3/6/3): land, rivers, borders, provinces, prefectures and names
    expect(layersOf(pack.get('3/6/3')!)).toEqual(
      expect.arrayContaining(['borders', 'districts', 'land', 'places', 'province_labels', 'provinces', 'rivers']),
    );
    // the south-east Pacific (lng -135..-90, lat -41..-67): nothing
    expect(pack.has('3/1/5')).toBe(false);
    // the same bytes as tiles cut from indexes of the same settings
    const indexes = await buildIndexes(3);
    for (const key of ['0/0/0', '3/6/3']) {
      const [z, x, y] = key.split('/').map(Number) as [number, number, number];
      expect(cutTile(indexes, z, x, y)!.equals(pack.get(key)!)).toBe(true);
    }
    // building the pack and the indexes is CPU-bound (a few seconds alone): on a shared 2-core
    // machine under load it took more than the suite's 30 s default
  }, 300_000);

  it('refuses a pack of other data or another zoom, and a file that is not a pack', async () => {
    const file = packFile(dir, 3);
    expect(() => readPack(file, 4)).toThrow(/was built from other data \(format 2 z3 /);
    const junk = join(dir, 'junk.pack');
    writeFileSync(junk, 'not a pack');
    expect(() => readPack(junk, 3)).toThrow(/is not a basemap tile pack/);
    // a new zoom or package version is a new file name
    expect(packFile(dir, 3)).not.toBe(packFile(dir, 4));
  });
});
