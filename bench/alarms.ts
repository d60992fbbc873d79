/**
 * Alarm push benchmark (issue 5, section 5).
 *
 *   npx tsx bench/alarms.ts [--rate 1000] [--seconds 10] [--consoles 100] [--devices 100] [--concurrency 64]
 *
 * 1. Prepares a SQLite database in a temp DATA_DIR (migrations, demo seed), registers a licence for
 *    200 workstations, creates `--devices` devices and `--consoles` console users (alarm view
 *    permission, top unit) and logs each in once (sessions stored in the database).
 * 2. Starts the REAL server (apps/server/src/main.ts under tsx) as a child process on a free port.
 * 3. Connects the consoles to /ws/session (client_login with each session's logincode), logs the
 *    devices in through the device API, then sends SOS through the device API at `--rate` per second
 *    for `--seconds` (at most `--concurrency` in flight), each SOS tagged with a sequence number.
 * 4. Figures: SOS answered per second; latency from the moment the SOS request starts to each
 *    console receiving its alarm_data (p50 / p99 / max over every delivery); deliveries expected vs
 *    received; alarms persisted (COUNT(*) read from the database file after the run) vs answered.
 * No timing assertion anywhere: this prints what it measures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import SQLite from 'better-sqlite3';
import { MenuId, SESSION_WS_PATH } from '@bwc/protocol';
import { addDevice, type CreatedDevice } from '../apps/server/src/modules/devices/test-support';
import { createRole, createUser, login, DEMO } from '../apps/server/test/helpers';
import type { WsClient } from '../apps/server/src/realtime/ws-client';
import { freePort, prepareDataDir, startServer } from './support';

const WebSocket = createRequire(import.meta.url)('ws') as new (
  url: string,
  options?: { headers?: Record<string, string> },
) => WsClient;

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '10' },
    consoles: { type: 'string', default: '100' },
    devices: { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '64' },
  },
});
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
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

async function post(base: string, path: string, body: unknown, token?: string) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { code: number; data: Record<string, unknown> };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

const dataDir = mkdtempSync(join(tmpdir(), 'bwc-bench-alarms-'));
const dbFile = join(dataDir, 'bwc.db');
console.log(
  `alarm push bench: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), node ${process.version}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}, SQLite (WAL) in ${dataDir}`,
);
const prepared = await prepare(dataDir);
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const child = await startServer(dataDir, port);
try {
  // consoles
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  let deliveries = 0;
  const sockets: WsClient[] = [];
  await Promise.all(
    prepared.consoles.map(
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
            const text = data.toString();
            if (text.startsWith('{"cmd":"client_login"')) {
              if (text.includes('"code":200')) res();
              else rej(new Error(text));
              return;
            }
            const m = /"message":"bench (\d+)"/.exec(text);
            if (!m || !text.includes('"alarm_data"')) return;
            const t0 = sentAt.get(Number(m[1]));
            if (t0 !== undefined) latencies.push(performance.now() - t0);
            deliveries += 1;
          });
        }),
    ),
  );
  console.log(`${sockets.length} consoles logged in on ${SESSION_WS_PATH}`);

  // devices
  const tokens: string[] = [];
  for (const d of prepared.devices) {
    const env = await post(base, '/rest/device/api/login', { device: d.hostbody, secret: d.secret });
    if (env.code !== 200) throw new Error(`device login failed: ${JSON.stringify(env)}`);
    tokens.push(String(env.data.token));
  }

  // load: RATE SOS per second, paced, at most CONCURRENCY in flight
  let seq = 0;
  let answered = 0;
  let errors = 0;
  let inFlight = 0;
  const total = RATE * SECONDS;
  const started = performance.now();
  await new Promise<void>((done) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * RATE));
      while (seq < due && inFlight < CONCURRENCY) {
        const n = seq++;
        inFlight += 1;
        sentAt.set(n, performance.now());
        post(base, '/rest/device/api/sos', { message: `bench ${n}` }, tokens[n % tokens.length])
          .then((env) => (env.code === 200 ? (answered += 1) : (errors += 1)))
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
  const expected = answered * sockets.length;
  const until = Date.now() + 10_000;
  while (deliveries < expected && Date.now() < until) await new Promise((r) => setTimeout(r, 50));

  const db = new SQLite(dbFile, { readonly: true, fileMustExist: true });
  const persisted = Number(
    (db.prepare("select count(*) as n from alarms where message like 'bench %'").get() as { n: number }).n,
  );
  db.close();
  latencies.sort((a, b) => a - b);
  console.log(
    [
      `SOS sent ${seq} in ${elapsed.toFixed(1)} s (target ${RATE}/s): answered ${answered} (${(answered / elapsed).toFixed(0)}/s), errors ${errors}`,
      `alarms persisted ${persisted} of ${answered} answered`,
      `deliveries ${deliveries} of ${expected} expected (${sockets.length} consoles)`,
      `ingest request -> console alarm_data latency: p50 ${pct(latencies, 0.5).toFixed(1)} ms, p99 ${pct(latencies, 0.99).toFixed(1)} ms, max ${(latencies.at(-1) ?? 0).toFixed(1)} ms`,
    ].join('\n'),
  );
  for (const ws of sockets) ws.close();
} finally {
  child.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}
