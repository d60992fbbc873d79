// Evidence upload throughput (issue 15 section 6): N parallel uploads of M MB each over tus
// (tus-js-client, UPLOAD_CHUNK_BYTES chunks, a console user's bearer token) into the real server
// (child process, production build of the code through tsx), from the first request to the last
// stored item (SHA-256 while streaming, type check, ffprobe, adoption into the content store with
// the file and its folder synced to disk, the item row and its custody entry). The anchor, in the
// same run on the same disk: the same bytes copied by N parallel streams (read + write, as an
// upload must), timed until every copy is on disk (fdatasync), as an upload is answered only then;
// the time when the last write returned (page cache) is printed beside it. A second anchor: the
// same files PUT at once to a bare node:http server (own process) that only writes them to files
// and syncs them, the floor of any HTTP upload on this machine; it runs again with a SHA-256 of each
// body (the floor of an upload that hashes what it stores), and the SHA-256 of as many bytes from
// memory on one core is printed, the hash's own cost. With `--client curl` each upload
// is one PATCH sent by a curl process, and the bare anchor's PUTs too: the sending side then
// takes less of the two cores it shares with the server.
//
//   npx tsx bench/evidence-upload.ts [--uploads 10] [--mb 500] [--client tus|curl] [--cpu-prof <dir>]
//
// The files are WAV (audio class, limit 1,024 MB): a real header and random PCM, so that the
// server's sniffing and ffprobe see a real file, and nothing compresses them.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { spawn, spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { parseArgs } from 'node:util';
import { UPLOAD_CHUNK_BYTES, UPLOAD_PATH } from '@bwc/protocol';
import { Upload } from 'tus-js-client';
import { syncPath } from '../apps/server/src/modules/evidence/store';
import { cpuOf, freePort, prepareDataDir, startServer } from './support';
import { CAPTCHA, httpLogin } from './live-support';

const { values } = parseArgs({
  options: {
    uploads: { type: 'string', default: '10' },
    mb: { type: 'string', default: '500' },
    /** PATCH size in MB (default UPLOAD_CHUNK_BYTES, what the console and the simulator send) */
    'chunk-mb': { type: 'string' },
    /** the sending side: tus-js-client in this process (default) or curl, one process per file */
    client: { type: 'string', default: 'tus' },
    /** write a CPU profile of the server into this folder */
    'cpu-prof': { type: 'string' },
  },
});
const N = Number(values.uploads);
const MB = Number(values.mb);
const BYTES = MB * 1024 * 1024;

const root = mkdtempSync(join(tmpdir(), 'bwc-upload-bench-'));
const sources = join(root, 'sources');
const copies = join(root, 'copies');
const dataDir = join(root, 'data');
mkdirSync(sources);
mkdirSync(copies);
mkdirSync(dataDir);

/** A 16-bit stereo 48 kHz WAV of `bytes` in all, random samples. */
async function writeWav(file: string, bytes: number) {
  const header = Buffer.alloc(44);
  const data = bytes - 44;
  header.write('RIFF', 0);
  header.writeUInt32LE(bytes - 8, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(2, 22);
  header.writeUInt32LE(48_000, 24);
  header.writeUInt32LE(48_000 * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data, 40);
  const out = createWriteStream(file);
  out.write(header);
  const block = randomBytes(4 * 1024 * 1024);
  let left = data;
  while (left > 0) {
    const n = Math.min(left, block.length);
    if (!out.write(n === block.length ? block : block.subarray(0, n)))
      await new Promise<void>((r) => out.once('drain', () => r()));
    left -= n;
  }
  await new Promise<void>((res, rej) => out.end((err?: Error | null) => (err ? rej(err) : res())));
}

function upload(base: string, token: string, file: string, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const up = new Upload(createReadStream(file), {
      endpoint: `${base}${UPLOAD_PATH}`,
      chunkSize: values['chunk-mb'] ? Number(values['chunk-mb']) * 1024 * 1024 : UPLOAD_CHUNK_BYTES,
      uploadSize: statSync(file).size,
      headers: { authorization: `Bearer ${token}` },
      metadata: { filename: name, filetype: 'audio/wav', fileid: name },
      retryDelays: [],
      onError: reject,
      onSuccess: () => resolve(),
    });
    up.start();
  });
}

/** Wait for a child process; reject on a non-zero exit. */
function exited(child: ReturnType<typeof spawn>, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${what} exited ${code}`))));
  });
}

/** The tus upload by curl: creation by this process, the whole file in one PATCH by a curl process. */
async function uploadByCurl(base: string, token: string, file: string, name: string): Promise<void> {
  const b64 = (v: string) => Buffer.from(v).toString('base64');
  const created = await fetch(`${base}${UPLOAD_PATH}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'tus-resumable': '1.0.0',
      'upload-length': String(statSync(file).size),
      'upload-metadata': `filename ${b64(name)},filetype ${b64('audio/wav')},fileid ${b64(name)}`,
    },
  });
  const location = created.headers.get('location');
  if (created.status !== 201 || !location) throw new Error(`creation answered ${created.status}`);
  const url = new URL(location, base).toString();
  const curl = spawn(
    'curl',
    [
      '-sS',
      '--fail',
      '-X',
      'PATCH',
      '-T',
      file,
      '-o',
      '/dev/null',
      '-H',
      'Expect:',
      '-H',
      `authorization: Bearer ${token}`,
      '-H',
      'tus-resumable: 1.0.0',
      '-H',
      'upload-offset: 0',
      '-H',
      'content-type: application/offset+octet-stream',
      url,
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  await exited(curl, 'curl PATCH');
}

const mbps = (bytes: number, ms: number) => bytes / 1024 / 1024 / (ms / 1000);

/** Each timed phase starts with no dirty pages of the one before (`sync`), so none pays for another's writeback. */
function settle() {
  spawnSync('sync');
}

console.log(
  `evidence upload: ${N} parallel uploads of ${MB} MB (${((N * BYTES) / 1024 ** 3).toFixed(2)} GiB), files in ${root}`,
);
const t0 = performance.now();
await Promise.all(Array.from({ length: N }, (_, i) => writeWav(join(sources, `u${i}.wav`), BYTES)));
console.log(`  wrote the sources in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

// anchor: the same bytes copied by N parallel streams on the same disk
settle();
const c0 = performance.now();
let copyMs = 0;
await Promise.all(
  Array.from({ length: N }, async (_, i) => {
    await pipeline(createReadStream(join(sources, `u${i}.wav`)), createWriteStream(join(copies, `u${i}.wav`)));
    copyMs = Math.max(copyMs, performance.now() - c0);
    await syncPath(join(copies, `u${i}.wav`), 'file');
  }),
);
await syncPath(copies, 'dir');
const durableMs = performance.now() - c0;
rmSync(copies, { recursive: true, force: true });

// second anchor: the floor of any HTTP upload here. A bare node:http server in its own process
// writes each PUT's body to a file (no tus, no checks) and syncs it; the bench sends the N files at
// once, as the tus client does, sharing these two cores with the server. Run twice: without a hash,
// then with a SHA-256 of each body on the bare server's event loop (the floor of an upload that must
// hash what it stores, as evidence must)
const BARE_SERVER = `
const { createServer } = require('node:http');
const { createHash } = require('node:crypto');
const { createWriteStream, fdatasync } = require('node:fs');
const { pipeline } = require('node:stream');
const hashing = process.argv[2] === 'hash';
let n = 0;
const server = createServer((req, res) => {
  const out = createWriteStream(process.argv[1] + '/bare' + n++, { autoClose: false });
  const hash = hashing ? createHash('sha256') : null;
  if (hash) req.on('data', (chunk) => hash.update(chunk));
  pipeline(req, out, (err) => {
    if (err) return res.end('err');
    fdatasync(out.fd, (e) => { out.destroy(); res.end(e ? 'err' : hash ? hash.digest('hex') : 'ok'); });
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
`;

/** N parallel PUTs of the sources to a bare server; its time and the CPU seconds of both sides. */
async function bareRun(hashing: boolean) {
  mkdirSync(copies);
  const bare = spawn(process.execPath, ['-e', BARE_SERVER, copies, hashing ? 'hash' : 'plain'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const barePort = await new Promise<number>((resolve) =>
    bare.stdout!.once('data', (d: Buffer) => resolve(Number(String(d)))),
  );
  settle();
  const b0 = performance.now();
  const cpu0 = { server: cpuOf(bare.pid!), bench: cpuOf(process.pid, true) };
  await Promise.all(
    Array.from({ length: N }, (_, i) =>
      values.client === 'curl'
        ? exited(
            spawn(
              'curl',
              [
                '-sS',
                '--fail',
                '-T',
                join(sources, `u${i}.wav`),
                '-o',
                '/dev/null',
                '-H',
                'Expect:',
                `http://127.0.0.1:${barePort}/u${i}`,
              ],
              { stdio: ['ignore', 'ignore', 'inherit'] },
            ),
            'curl PUT',
          )
        : new Promise<void>((resolve, reject) => {
            const req = request({ host: '127.0.0.1', port: barePort, method: 'PUT', path: `/u${i}` }, (res) => {
              res.resume();
              res.on('end', () => resolve());
            });
            req.on('error', reject);
            createReadStream(join(sources, `u${i}.wav`)).pipe(req);
          }),
    ),
  );
  const ms = performance.now() - b0;
  const cpu = { server: cpuOf(bare.pid!) - cpu0.server, bench: cpuOf(process.pid, true) - cpu0.bench };
  bare.kill();
  rmSync(copies, { recursive: true, force: true });
  return { ms, cpu };
}
const bareRunPlain = await bareRun(false);
const bareRunHashed = await bareRun(true);

// the hash's own cost here: SHA-256 of as many bytes, from memory, on one core
const hashBlock = randomBytes(64 * 1024 * 1024);
const h0 = performance.now();
{
  const hash = createHash('sha256');
  for (let left = N * BYTES; left > 0; left -= hashBlock.length)
    hash.update(left >= hashBlock.length ? hashBlock : hashBlock.subarray(0, left));
  hash.digest();
}
const hashMs = performance.now() - h0;

const app = await prepareDataDir(dataDir, { workstations: 10, devices: 100 }, CAPTCHA);
await app.close();
const port = await freePort();
const profile = values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] : [];
const server = await startServer(dataDir, port, profile, {
  NODE_ENV: 'test',
  TEST_CAPTCHA: CAPTCHA,
  LOG_LEVEL: 'warn',
});
server.stdout?.resume();
try {
  const base = `http://127.0.0.1:${port}`;
  const token = await httpLogin(base, 'admin', 'Admin@123');
  const run = `${Date.now()}`;
  settle();
  const u0 = performance.now();
  const upCpu0 = { server: cpuOf(server.pid!), bench: cpuOf(process.pid, true) };
  await Promise.all(
    Array.from({ length: N }, (_, i) =>
      (values.client === 'curl' ? uploadByCurl : upload)(
        base,
        token,
        join(sources, `u${i}.wav`),
        `bench-${run}-${i}.wav`,
      ),
    ),
  );
  const upMs = performance.now() - u0;
  const upCpu = { server: cpuOf(server.pid!) - upCpu0.server, bench: cpuOf(process.pid, true) - upCpu0.bench };
  const total = N * BYTES;
  const up = mbps(total, upMs);
  const copy = mbps(total, copyMs);
  const durable = mbps(total, durableMs);
  const bareUp = mbps(total, bareRunPlain.ms);
  const bareHashed = mbps(total, bareRunHashed.ms);
  const { cpu: bareCpu } = bareRunPlain;
  const { cpu: hashedCpu } = bareRunHashed;
  console.log('measure | MB/s | seconds');
  console.log(
    `raw copy, ${N} parallel streams, until every copy is on disk (anchor) | ${durable.toFixed(1)} | ${(durableMs / 1000).toFixed(1)}`,
  );
  console.log(
    `  the same copy until its last write returned (page cache) | ${copy.toFixed(1)} | ${(copyMs / 1000).toFixed(1)}`,
  );
  console.log(
    `bare HTTP PUT to files, ${N} parallel, each on disk before its answer (second anchor) | ${bareUp.toFixed(1)} | ${(bareRunPlain.ms / 1000).toFixed(1)}`,
  );
  console.log(
    `  the same with a SHA-256 of each body on the bare server (third anchor) | ${bareHashed.toFixed(1)} | ${(bareRunHashed.ms / 1000).toFixed(1)}`,
  );
  console.log(
    `SHA-256 of ${((N * BYTES) / 1024 ** 3).toFixed(2)} GiB from memory on one core | ${mbps(total, hashMs).toFixed(1)} | ${(hashMs / 1000).toFixed(1)}`,
  );
  console.log(
    `tus upload to stored items, ${N} parallel, each on disk before its answer | ${up.toFixed(1)} | ${(upMs / 1000).toFixed(1)}`,
  );
  console.log(
    `ratio upload / copy on disk: ${(up / durable).toFixed(2)} (goal >= 0.8: ${up / durable >= 0.8 ? 'met' : 'NOT met'}); upload / copy in page cache: ${(up / copy).toFixed(2)}`,
  );
  // where the two cores went: the sending client (this process) and the receiving server
  console.log(
    `CPU seconds, server / client: bare HTTP ${bareCpu.server.toFixed(1)} / ${bareCpu.bench.toFixed(1)}, bare HTTP hashed ${hashedCpu.server.toFixed(1)} / ${hashedCpu.bench.toFixed(1)}, tus upload ${upCpu.server.toFixed(1)} / ${upCpu.bench.toFixed(1)}`,
  );
  console.log(
    `ratio bare HTTP / copy on disk: ${(bareUp / durable).toFixed(2)}; bare HTTP hashed / copy on disk: ${(bareHashed / durable).toFixed(2)}; upload / bare HTTP: ${(up / bareUp).toFixed(2)}; upload / bare HTTP hashed: ${(up / bareHashed).toFixed(2)}`,
  );
} finally {
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(root, { recursive: true, force: true });
}
