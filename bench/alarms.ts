/**
 * Alarm push benchmark: SOS ingest to `alarm_data` on the consoles' sockets (goal in bench/README.md).
 *
 *   npx tsx bench/alarms.ts [--rate 1000] [--seconds 10] [--warmup 2] [--consoles 100] [--devices 100]
 *                           [--concurrency 64] [--port 18104] [--cpu-prof <dir>] [--inline-consoles]
 *
 * 1. Prepares a SQLite database in a temp DATA_DIR (migrations, demo seed), registers a licence for
 *    the workstations, creates `--devices` devices and `--consoles` console users (alarm view
 *    permission, top unit) and logs each in once (sessions stored in the database).
 * 2. Starts the REAL server (apps/server/src/main.ts under tsx) as a child process on `--port`
 *    (env BENCH_PORT; default a free port); `--cpu-prof <dir>` makes it write a V8 CPU profile there.
 * 3. Connects the consoles to /ws/session (client_login with each session's logincode) on a WORKER
 *    THREAD (bench/alarm-consoles.ts), so that receiving 100 x 1,000 messages/s does not share an
 *    event loop with the load generator (`--inline-consoles`: on the generator's thread, as before).
 *    Logs the devices in through the device API, then sends SOS through the device API (node:http,
 *    keep-alive) at `--rate` per second for `--warmup` + `--seconds` (at most `--concurrency` in
 *    flight), each SOS tagged with a sequence number. The SOS of the first `--warmup` seconds
 *    (connections opening, JIT, per-device caches: up to ~1.4 s in the first runs) are reported
 *    apart, not in the latency and answer-time figures; every SOS counts for persisted/deliveries.
 * 4. Figures: SOS answered per second and how far the generator fell behind its schedule; SOS answer
 *    time; latency from the moment the SOS request starts to each console receiving its alarm_data
 *    (p50 / p99 / max over every delivery; absolute clock shared by both threads); deliveries
 *    expected vs received; alarms persisted (COUNT(*) from the database file after the run) vs
 *    answered; CPU seconds of the server process and of the bench process (/proc) over the run, and
 *    the load average before and after (other work on the machine shares its 2 cores).
 * No timing assertion anywhere: this prints what it measures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'node:http';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { MenuId, SESSION_WS_PATH } from '@bwc/protocol';
import { addDevice, type CreatedDevice } from '../apps/server/test/devices';
import { createRole, createUser, login, DEMO } from '../apps/server/test/helpers';
import { WebSocket, type WsClient } from '../packages/simulator/src/ws';
import { cpuOf, freePort, prepareDataDir, startServer } from './support';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    consoles: { type: 'string', default: '100' },
    devices: { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '64' },
    port: { type: 'string', default: process.env.BENCH_PORT ?? '' },
    'cpu-prof': { type: 'string', default: '' },
    'inline-consoles': { type: 'boolean', default: false },
  },
});
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
/** seconds of SOS at the same rate before the measured ones (connections, JIT, caches); reported apart */
const WARMUP = Number(values.warmup);
const CONSOLES = Number(values.consoles);
const DEVICES = Number(values.devices);
const CONCURRENCY = Number(values.concurrency);

interface Prepared {
  devices: CreatedDevice[];
  consoles: { token: string; logincode: string; username: string }[];
}

async function prepare(dataDir: string): Promise<Prepared> {
  const app = await prepareDataDir(dataDir, { workstations: CONSOLES + 10, devices: DEVICES + 100 }, '1234');
  const admin = await login(app, DEMO.admin.username, DEMO.admin.password);
  const unit = (await app.db.selectFrom('units').select('id').where('pid', '=', 0).executeTakeFirstOrThrow()).id;
  const devices: CreatedDevice[] = [];
  for (let i = 0; i < DEVICES; i++) devices.push(await addDevice(app, admin, unit));
  const role = await createRole(app.db, 'bench desk', [{ ids: [MenuId.DISPATCH_ALARM], actions: ['view'] }]);
  const consoles: Prepared['consoles'] = [];
  for (let i = 0; i < CONSOLES; i++) {
    const u = await createUser(app.db, { roleId: role, username: `bench_${i}` });
    const s = await login(app, u.username, u.password);
    const info = (await app.inject({ method: 'GET', url: '/rest/user/user/get_info', headers: s.headers })).json() as {
      data: { logincode: string };
    };
    consoles.push({ token: s.token, logincode: info.data.logincode, username: u.username });
  }
  await app.close();
  return { devices, consoles };
}

/** keep-alive connections for the SOS requests (node:http: lighter per request than fetch) */
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function post(port: number, path: string, body: unknown, token?: string) {
  const payload = JSON.stringify(body);
  return new Promise<{ code: number; data: Record<string, unknown> }>((res, rej) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => {
          try {
            res(JSON.parse(Buffer.concat(chunks).toString()) as { code: number; data: Record<string, unknown> });
          } catch (err) {
            rej(err as Error);
          }
        });
        r.on('error', rej);
      },
    );
    req.on('error', rej);
    req.end(payload);
  });
}

const pct = (sorted: ArrayLike<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

interface ConsoleReport {
  seqs: Int32Array;
  times: Float64Array;
  deliveries: number;
  others: number;
}

interface Consoles {
  ready: Promise<void>;
  count(): Promise<number>;
  report(): Promise<ConsoleReport>;
}

/** The console sockets on a worker thread (bench/alarm-consoles.ts). */
function workerConsoles(port: number, consoles: Prepared['consoles']): Consoles {
  // the worker is TypeScript too: loaded through tsx's API
  const api = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(api)}).then((m) => m.tsImport(${JSON.stringify(new URL('./alarm-consoles.ts', import.meta.url).href)}, ${JSON.stringify(import.meta.url)}))`;
  const worker = new Worker(boot, { eval: true, workerData: { port, path: SESSION_WS_PATH, consoles } });
  const next = <T>(): Promise<T> =>
    new Promise<T>((res, rej) => {
      worker.once('message', res);
      worker.once('error', rej);
    });
  return {
    ready: next<unknown>().then((m) => {
      if (m !== 'ready') throw new Error(`consoles: ${JSON.stringify(m)}`);
    }),
    count: async () => {
      const m = next<{ deliveries: number }>();
      worker.postMessage('count');
      return (await m).deliveries;
    },
    report: async () => {
      const m = next<ConsoleReport>();
      worker.postMessage('report');
      const r = await m;
      await worker.terminate();
      return r;
    },
  };
}

/** The console sockets on this thread, sharing its event loop with the load generator. */
function inlineConsoles(port: number, consoles: Prepared['consoles']): Consoles {
  const seqs: number[] = [];
  const times: number[] = [];
  let others = 0;
  const sockets: WsClient[] = [];
  const ready = Promise.all(
    consoles.map(
      (c) =>
        new Promise<void>((res, rej) => {
          const ws = new WebSocket(`ws://127.0.0.1:${port}${SESSION_WS_PATH}`, {
            headers: { authorization: `Bearer ${c.token}` },
          });
          sockets.push(ws);
          ws.on('error', rej);
          ws.on('open', () =>
            ws.send(
              JSON.stringify({
                cmd: 'client_login',
                logincode: c.logincode,
                username: c.username,
                scode: '',
                cate: '',
              }),
            ),
          );
          ws.on('message', (data) => {
            const at = performance.timeOrigin + performance.now();
            const text = data.toString();
            if (text.startsWith('{"cmd":"client_login"')) {
              if (text.includes('"code":200')) res();
              else rej(new Error(text));
              return;
            }
            const m = /"message":"bench (\d+)"/.exec(text);
            if (!m || !text.startsWith('{"type":"alarm_data"')) {
              others += 1;
              return;
            }
            seqs.push(Number(m[1]));
            times.push(at);
          });
        }),
    ),
  ).then(() => undefined);
  return {
    ready,
    count: async () => seqs.length,
    report: async () => {
      for (const ws of sockets) ws.close();
      return { seqs: Int32Array.from(seqs), times: Float64Array.from(times), deliveries: seqs.length, others };
    },
  };
}

// the server would build its basemap tile pack in a child process after start: not what is measured
process.env.BASEMAP_PACK ??= '0';
const dataDir = mkdtempSync(join(tmpdir(), 'bwc-bench-alarms-'));
const dbFile = join(dataDir, 'bwc.db');
console.log(
  `alarm push bench: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), node ${process.version}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}, SQLite (WAL) in ${dataDir}`,
);
const prepared = await prepare(dataDir);
const port = values.port ? Number(values.port) : await freePort();
// --cpu-prof <dir>: the server writes a V8 CPU profile there when it exits (SIGTERM below)
const child = await startServer(
  dataDir,
  port,
  values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${values['cpu-prof']}`] : [],
);
try {
  // consoles: on a worker thread (or, with --inline-consoles, on this thread with the load generator)
  const consoles = values['inline-consoles']
    ? inlineConsoles(port, prepared.consoles)
    : workerConsoles(port, prepared.consoles);
  await consoles.ready;
  console.log(
    `${prepared.consoles.length} consoles logged in on ${SESSION_WS_PATH} (${values['inline-consoles'] ? 'same thread as the load generator' : 'worker thread'})`,
  );

  // devices
  const tokens: string[] = [];
  for (const d of prepared.devices) {
    const env = await post(port, '/rest/device/api/login', { device: d.hostbody, secret: d.secret });
    if (env.code !== 200) throw new Error(`device login failed: ${JSON.stringify(env)}`);
    tokens.push(String(env.data.token));
  }

  // load: RATE SOS per second, paced, at most CONCURRENCY in flight
  const warm = Math.round(RATE * WARMUP);
  const total = warm + RATE * SECONDS;
  /** absolute start time (performance.timeOrigin + performance.now(), ms) of each SOS request */
  const sentAt = new Float64Array(total);
  const answerMs: number[] = [];
  let seq = 0;
  let answered = 0;
  let errors = 0;
  let inFlight = 0;
  let maxLag = 0;
  const started = performance.now();
  const serverCpu0 = cpuOf(child.pid!);
  const benchCpu0 = cpuOf(process.pid);
  await new Promise<void>((done) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * RATE));
      maxLag = Math.max(maxLag, due - seq);
      while (seq < due && inFlight < CONCURRENCY) {
        const n = seq++;
        inFlight += 1;
        const t0 = performance.now();
        sentAt[n] = performance.timeOrigin + t0;
        post(port, '/rest/device/api/sos', { message: `bench ${n}` }, tokens[n % tokens.length])
          .then((env) => {
            if (env.code === 200) {
              answered += 1;
              if (n >= warm) answerMs.push(performance.now() - t0);
            } else errors += 1;
          })
          .catch(() => (errors += 1))
          .finally(() => {
            inFlight -= 1;
            if (seq >= total && inFlight === 0) done();
          });
      }
      if (seq < total) setTimeout(tick, 1);
    };
    tick();
  });
  const elapsed = (performance.now() - started) / 1000;
  // let the last pushes arrive
  const expected = answered * prepared.consoles.length;
  const until = Date.now() + 10_000;
  while ((await consoles.count()) < expected && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  const drained = (performance.now() - started) / 1000;
  const serverCpu = cpuOf(child.pid!) - serverCpu0;
  const benchCpu = cpuOf(process.pid) - benchCpu0;
  const report = await consoles.report();

  const db = new SQLite(dbFile, { readonly: true, fileMustExist: true });
  const persisted = Number(
    (db.prepare("select count(*) as n from alarms where message like 'bench %'").get() as { n: number }).n,
  );
  db.close();
  // deliveries of the warm-up SOS (seq < warm) apart from the measured ones
  const warmLatencies: number[] = [];
  const measured: number[] = [];
  for (let i = 0; i < report.deliveries; i++) {
    const seqNo = report.seqs[i]!;
    (seqNo < warm ? warmLatencies : measured).push(report.times[i]! - sentAt[seqNo]!);
  }
  const latencies = Float64Array.from(measured).sort();
  const warmSorted = Float64Array.from(warmLatencies).sort();
  answerMs.sort((a, b) => a - b);
  console.log(
    [
      `SOS sent ${seq} in ${elapsed.toFixed(1)} s (target ${RATE}/s, generator at most ${maxLag} behind schedule): answered ${answered} (${(answered / elapsed).toFixed(0)}/s), errors ${errors}`,
      `SOS answer time (after the warm-up): p50 ${pct(answerMs, 0.5).toFixed(1)} ms, p99 ${pct(answerMs, 0.99).toFixed(1)} ms`,
      `alarms persisted ${persisted} of ${answered} answered`,
      `deliveries ${report.deliveries} of ${expected} expected (${prepared.consoles.length} consoles), other messages ${report.others}`,
      `ingest request -> console alarm_data latency (${latencies.length} deliveries after the ${WARMUP} s warm-up): p50 ${pct(latencies, 0.5).toFixed(1)} ms, p99 ${pct(latencies, 0.99).toFixed(1)} ms, max ${(latencies.at(-1) ?? 0).toFixed(1)} ms`,
      `warm-up (first ${warm} SOS, ${warmSorted.length} deliveries, not in the figure above): p50 ${pct(warmSorted, 0.5).toFixed(1)} ms, p99 ${pct(warmSorted, 0.99).toFixed(1)} ms, max ${(warmSorted.at(-1) ?? 0).toFixed(1)} ms`,
      `CPU over the ${drained.toFixed(1)} s of load and delivery: server ${serverCpu.toFixed(1)} s (${((1000 * serverCpu) / Math.max(1, answered)).toFixed(2)} ms per SOS, ${((100 * serverCpu) / drained).toFixed(0)}% of one core), bench process (generator + consoles) ${benchCpu.toFixed(1)} s (${((100 * benchCpu) / drained).toFixed(0)}% of one core)`,
      `load average at the end: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    ].join('\n'),
  );
} finally {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
}
