// Evidence zip download (issue 15 section 4): many originals as one zip streamed by the real server
// (child process) from its content store, each original hashed again while it streams. Printed: the
// zip's MB/s and the server's resident memory (VmRSS from /proc, every 250 ms) at the start and at
// its highest, beside the anchor measured in the same run: the same files read to /dev/null.
//
//   npx tsx bench/evidence-zip.ts [--gb 10] [--files 20] [--keep] [--save FILE]
//
// --save also writes the zip to FILE (to test it with `unzip -t`; slower: the disk writes too).
//
// The files are written by a stream (random 4 MiB blocks, a different first block per file) and
// hashed as they are written, then moved into the store and given an item row and custody entry,
// as library.fixture.ts insertItem does, without holding a file in memory.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { now } from '../apps/server/src/db/connection';
import { recordCustody, SYSTEM_ACTOR } from '../apps/server/src/modules/evidence/custody';
import { LocalContentStore } from '../apps/server/src/modules/evidence/store';
import { freePort, prepareDataDir, startServer } from './support';
import { CAPTCHA, httpLogin } from './live-support';

const { values } = parseArgs({
  options: {
    gb: { type: 'string', default: '10' },
    files: { type: 'string', default: '20' },
    keep: { type: 'boolean', default: false },
    save: { type: 'string' },
  },
});
const FILES = Number(values.files);
const TOTAL = Math.round(Number(values.gb) * 1024 ** 3);
const PER_FILE = Math.floor(TOTAL / FILES);
const MiB = 1024 * 1024;
const mbps = (bytes: number, ms: number) => bytes / MiB / (ms / 1000);

const dataDir = await mkdtemp(join(tmpdir(), 'bwc-bench-zip-'));
const incoming = join(dataDir, 'incoming');
console.log(
  `evidence zip: ${FILES} files of ${(PER_FILE / MiB).toFixed(1)} MiB (${((FILES * PER_FILE) / 1024 ** 3).toFixed(2)} GiB), data in ${dataDir}`,
);

/** Write `size` bytes to `file` and answer their SHA-256 (computed while writing). */
async function writeHashed(file: string, size: number, seed: number): Promise<string> {
  const hash = createHash('sha256');
  const out = createWriteStream(file);
  const block = randomBytes(4 * MiB);
  const first = Buffer.from(block);
  first.writeUInt32BE(seed, 0);
  let left = size;
  let chunk = first;
  while (left > 0) {
    const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
    hash.update(piece);
    if (!out.write(piece)) await new Promise<void>((r) => out.once('drain', () => r()));
    left -= piece.length;
    chunk = block;
  }
  await new Promise<void>((res, rej) => out.end((err?: Error | null) => (err ? rej(err) : res())));
  return hash.digest('hex');
}

const app = await prepareDataDir(dataDir, { workstations: 10, devices: 100 }, CAPTCHA);
const store = new LocalContentStore(dataDir);
const unit = (await app.db.selectFrom('units').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
const ids: number[] = [];
const paths: string[] = [];
const w0 = performance.now();
rmSync(incoming, { recursive: true, force: true });
mkdirSync(incoming, { recursive: true });
for (let i = 0; i < FILES; i++) {
  const file = join(incoming, `f${i}`);
  const sha256 = await writeHashed(file, PER_FILE, i + 1);
  await store.adopt(file, sha256);
  paths.push(store.localPath(sha256));
  const ts = now();
  const row = await app.db
    .insertInto('evidence_items')
    .values({
      sha256,
      size: PER_FILE,
      media_type: 1,
      mime: 'video/mp4',
      ext: 'mp4',
      file_name: `bench clip ${i}.mp4`,
      title: `bench ${i}`,
      description: '',
      category: '',
      incident_no: '',
      source: 'console',
      outside: 0,
      device_id: null,
      hostbody: '',
      workstation_id: null,
      user_id: null,
      uploaded_by: null,
      unit_id: unit,
      recorded_at: ts,
      uploaded_at: ts,
      duration: 60,
      width: 1920,
      height: 1080,
      video_codec: 'h264',
      audio_codec: '',
      thumb_sha256: null,
      derivative_sha256: null,
      playable: 'ready',
      flg: 0,
      flg_note: '',
      score: null,
      sensitive: 0,
      linked: 0,
      origin_key: null,
      deleted_at: null,
      deleted_by: null,
      delete_reason: '',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await recordCustody(app.db, row.id, 'uploaded', SYSTEM_ACTOR, { sha256 });
  ids.push(row.id);
}
await app.close();
console.log(`  wrote and hashed the files in ${((performance.now() - w0) / 1000).toFixed(1)} s`);

// anchor: the same stored files read to /dev/null, one after the other (as the zip reads them)
const a0 = performance.now();
for (const p of paths) await pipeline(createReadStream(p), createWriteStream('/dev/null'));
const anchorMs = performance.now() - a0;

const port = await freePort();
const server = await startServer(dataDir, port, [], { NODE_ENV: 'test', TEST_CAPTCHA: CAPTCHA, LOG_LEVEL: 'warn' });
server.stdout?.resume();
const rssKb = () => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'));
  return m ? Number(m[1]) : 0;
};
try {
  const base = `http://127.0.0.1:${port}`;
  const token = await httpLogin(base, 'admin', 'Admin@123');
  const link = await fetch(`${base}/rest/media/mediadownload/download_all`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ids }),
  });
  const env = (await link.json()) as { code: number; msg: string; data: { url: string } };
  if (env.code !== 200) throw new Error(`download_all: ${env.code} ${env.msg}`);

  const rssStart = rssKb();
  let rssMax = rssStart;
  const sampler = setInterval(() => {
    rssMax = Math.max(rssMax, rssKb());
  }, 250);
  const z0 = performance.now();
  const res = await fetch(base + env.data.url);
  if (res.status !== 200) throw new Error(`zip: ${res.status} ${await res.text()}`);
  const declared = Number(res.headers.get('content-length'));
  let received = 0;
  let tail = Buffer.alloc(0);
  const saved = values.save ? createWriteStream(values.save) : null;
  await pipeline(
    res.body!,
    new Writable({
      write(chunk: Uint8Array, _enc, cb) {
        received += chunk.length;
        tail = Buffer.concat([tail, chunk]).subarray(-128);
        if (saved && !saved.write(chunk)) saved.once('drain', () => cb());
        else cb();
      },
    }),
  );
  if (saved) await new Promise<void>((r) => saved.end(() => r()));
  const zipMs = performance.now() - z0;
  clearInterval(sampler);
  rssMax = Math.max(rssMax, rssKb());

  // the end of central directory, and for a zip past 4 GiB the ZIP64 locator before it
  const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const zip64 = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x06, 0x07]));
  const anchorBytes = FILES * PER_FILE;
  console.log(
    `  zip: ${received} bytes received, Content-Length ${declared}, ${received === declared ? 'complete' : 'SHORT'}`,
  );
  console.log(
    `  end of central directory ${eocd >= 0 ? 'found' : 'MISSING'}, ZIP64 locator ${zip64 >= 0 ? 'found' : 'absent'}`,
  );
  console.log(
    `  anchor (cat the ${FILES} stored files to /dev/null): ${(anchorMs / 1000).toFixed(1)} s, ${mbps(anchorBytes, anchorMs).toFixed(0)} MB/s`,
  );
  console.log(
    `  zip over HTTP (hashing every original): ${(zipMs / 1000).toFixed(1)} s, ${mbps(received, zipMs).toFixed(0)} MB/s (${((100 * mbps(received, zipMs)) / mbps(anchorBytes, anchorMs)).toFixed(0)} % of the anchor)`,
  );
  console.log(
    `  server RSS: ${(rssStart / 1024).toFixed(0)} MB at start, ${(rssMax / 1024).toFixed(0)} MB at most (+${((rssMax - rssStart) / 1024).toFixed(0)} MB)`,
  );
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`  load average ${load}`);
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  if (!values.keep) rmSync(dataDir, { recursive: true, force: true });
}
