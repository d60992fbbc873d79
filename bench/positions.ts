/**
 * Position ingest benchmark: positions persisted per second through the device API (goal in bench/README.md).
 *
 *   npx tsx bench/positions.ts [--seconds 10] [--batches 5,20] [--concurrency 128] [--fleets 1000,10000]
 *
 * 1. Prepares a SQLite database in a temp DATA_DIR (migrations, demo seed) and registers a licence
 *    for 20,000 devices signed with the demo vendor key of that DATA_DIR.
 * 2. Starts the REAL server (apps/server/src/main.ts under tsx) as a child process on a free port:
 *    one process for the server, this one for the load, so that each gets one of the 2 cores.
 * 3. For each fleet size: provisions the devices and logs each in through the device API
 *    (packages/simulator client), then for `--seconds` keeps `--concurrency` uploads in flight,
 *    round robin over the devices, each upload one batch of `b` positions of one device
 *    (b = 5: five seconds of 1 Hz fixes, what a camera uploading every 5 s sends).
 * 4. Figures: positions the server ACCEPTED per second (answers counted by the client) and
 *    positions PERSISTED per second (COUNT(*) of the positions table before and after, read from
 *    the database file once the run is over, divided by the same wall time). The server answers a
 *    batch only after its group-commit transaction, so accepted == persisted is expected.
 * No timing assertion anywhere: this prints what it measures.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import { DeviceClient, Transport, provisionDevices, simulatedIdentity, type Position } from '@bwc/simulator';
import { freePort, prepareDataDir, startServer } from './support';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '5' },
    batches: { type: 'string', default: '5,20' },
    concurrency: { type: 'string', default: '128' },
    fleets: { type: 'string', default: '1000,10000' },
    keep: { type: 'boolean', default: false },
  },
});
const SECONDS = Number(values.seconds);
const WARMUP = Number(values.warmup);
const BATCHES = String(values.batches).split(',').map(Number);
const CONCURRENCY = Number(values.concurrency);
const FLEETS = String(values.fleets).split(',').map(Number);

function cpuSecondsOf(pid: number): number {
  // utime + stime in clock ticks (100 Hz on Linux)
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function countPositions(dbFile: string): number {
  const db = new SQLite(dbFile, { readonly: true, fileMustExist: true });
  try {
    return Number((db.prepare('select count(*) as n from positions').get() as { n: number }).n);
  } finally {
    db.close();
  }
}

async function provisionAndLogin(
  transport: Transport,
  key: string,
  prefix: string,
  n: number,
): Promise<DeviceClient[]> {
  const clients: DeviceClient[] = [];
  for (let i = 0; i < n; i += 1000) {
    const ids = Array.from({ length: Math.min(1000, n - i) }, (_, k) => simulatedIdentity(prefix, i + k + 1));
    const answer = await provisionDevices(transport, key, ids);
    for (const d of answer.devices) clients.push(new DeviceClient(transport, d.hostbody, d.secret));
  }
  for (let i = 0; i < clients.length; i += 200) await Promise.all(clients.slice(i, i + 200).map((c) => c.login()));
  return clients;
}

interface RunResult {
  fleet: number;
  batch: number;
  requests: number;
  accepted: number;
  persisted: number;
  seconds: number;
  serverCpu: number;
  clientCpu: number;
  p50: number;
  p99: number;
  errors: number;
}

async function run(
  clients: DeviceClient[],
  batch: number,
  dbFile: string,
  serverPid: number,
  seconds = SECONDS,
): Promise<RunResult> {
  const before = countPositions(dbFile);
  const clock = new Map<DeviceClient, number>();
  let next = 0;
  let accepted = 0;
  let requests = 0;
  let errors = 0;
  const latencies: number[] = [];
  const serverCpu0 = cpuSecondsOf(serverPid);
  const clientCpu0 = process.cpuUsage();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const centre = { lat: 22.5431, lng: 114.0579 };
  async function worker(): Promise<void> {
    while (performance.now() < deadline) {
      const c = clients[next++ % clients.length]!;
      const t0 = clock.get(c) ?? Date.parse('2026-01-01T00:00:00Z');
      const positions: Position[] = Array.from({ length: batch }, (_, i) => ({
        time: t0 + i * 1000,
        lat: centre.lat + ((next % 1000) - 500) * 1e-5,
        lng: centre.lng + (i - batch / 2) * 1e-5,
        speed: 4.2,
        course: 90,
        accuracy: 5,
        battery: 80,
      }));
      clock.set(c, t0 + batch * 1000);
      const s = performance.now();
      try {
        const answer = await c.sendPositions(positions);
        accepted += answer.accepted;
        requests += 1;
        latencies.push(performance.now() - s);
      } catch {
        errors += 1;
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(clientCpu0);
  const persisted = countPositions(dbFile) - before;
  latencies.sort((a, b) => a - b);
  return {
    fleet: clients.length,
    batch,
    requests,
    accepted,
    persisted,
    seconds: elapsed,
    serverCpu: cpuSecondsOf(serverPid) - serverCpu0,
    clientCpu: (cpu.user + cpu.system) / 1e6,
    p50: latencies[Math.floor(latencies.length * 0.5)] ?? 0,
    p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
    errors,
  };
}

const dataDir = mkdtempSync(join(tmpdir(), 'bwc-bench-'));
const dbFile = join(dataDir, 'bwc.db');
console.log(
  `position ingest bench: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), node ${process.version}, SQLite (WAL) in ${dataDir}`,
);
await (await prepareDataDir(dataDir, { workstations: 10, devices: 20_000 })).close();
const port = await freePort();
const server = await startServer(dataDir, port);
const key = readFileSync(join(dataDir, 'device-provision.key'), 'utf8').trim();
const transport = new Transport({ server: `http://127.0.0.1:${port}`, maxSockets: CONCURRENCY });
const results: RunResult[] = [];
try {
  for (const fleet of FLEETS) {
    const t0 = performance.now();
    const clients = await provisionAndLogin(transport, key, `B${fleet}_`, fleet);
    console.log(
      `  fleet ${fleet}: provisioned and logged in ${clients.length} devices in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    // warm-up (JIT, caches, WAL growth), not counted
    const w = await run(clients, BATCHES[0]!, dbFile, server.pid!, WARMUP);
    console.log(`  warm-up ${WARMUP} s: ${Math.round(w.accepted / w.seconds)} positions/s (not counted)`);
    for (const batch of BATCHES) {
      const load = loadavg()[0]!.toFixed(1);
      const r = await run(clients, batch, dbFile, server.pid!);
      results.push(r);
      console.log(
        `  fleet ${r.fleet}, ${r.batch} positions per upload: ${Math.round(r.accepted / r.seconds)} accepted/s, ${Math.round(r.persisted / r.seconds)} persisted/s ` +
          `(${r.requests} uploads = ${Math.round(r.requests / r.seconds)}/s, ${r.accepted} accepted, ${r.persisted} rows counted, ${r.errors} errors, ` +
          `latency p50 ${r.p50.toFixed(1)} ms p99 ${r.p99.toFixed(1)} ms, CPU server ${r.serverCpu.toFixed(1)} s client ${r.clientCpu.toFixed(1)} s over ${r.seconds.toFixed(1)} s, load average before ${load})`,
      );
    }
  }
} finally {
  transport.close();
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  if (!values.keep) rmSync(dataDir, { recursive: true, force: true });
}

console.log('\nsummary (positions per second; goal >= 20,000 with every position persisted)');
console.log('fleet   batch  accepted/s  persisted/s  uploads/s  positions per server CPU-second');
for (const r of results) {
  console.log(
    `${String(r.fleet).padEnd(7)} ${String(r.batch).padEnd(6)} ${String(Math.round(r.accepted / r.seconds)).padEnd(11)} ${String(Math.round(r.persisted / r.seconds)).padEnd(12)} ${String(Math.round(r.requests / r.seconds)).padEnd(10)} ${Math.round(r.persisted / Math.max(r.serverCpu, 0.01))}`,
  );
}
console.log(
  `\nhow: real server child process (tsx, SQLite WAL, group commit), load from this process with the simulator's device API client over HTTP keep-alive, ` +
    `${CONCURRENCY} uploads in flight, ${SECONDS} s per run after a ${WARMUP} s warm-up; "persisted" = COUNT(*) of positions after minus before, read from the database file after each run. ` +
    `The last column divides by the CPU time the server process really got (/proc/<pid>/stat): when the machine is shared (load average above the core count), wall-clock rates understate capacity; that column is an estimate of one dedicated core, not a measurement of one.`,
);
console.log(
  `load average now: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${cpus().length} cores`,
);
