/**
 * Scale-out benchmark (issue 12): positions per second and alarm push latency with 1, 2 and 3
 * server nodes on this machine, the same load generator for each, printed side by side.
 *
 *   TEST_DATABASE_URL=postgres://bwc:bwc@127.0.0.1:5432/bwc_test npx tsx bench/cluster.ts \
 *     [--devices 400] [--seconds 10] [--warmup 3] [--concurrency 64] [--consoles 8] [--sos-rate 20]
 *
 * Layouts, each on a fresh PostgreSQL database (created on the server of TEST_DATABASE_URL) with
 * the demo seed and a private redis-server:
 *   - 1 node without Redis: the baseline (one process, as `npm start` on PostgreSQL);
 *   - 1 node with Redis: what carrying the bus through Redis adds;
 *   - 2 and 3 nodes with Redis: what a node costs or gains on this machine.
 * For each: `--devices` devices are provisioned and each is bound to node i % N (what a load
 * balancer does); `--consoles` consoles open the push channel (/ws/session), console j on node
 * j % N. Then:
 *   1. positions: for `--warmup` (not counted) then `--seconds`, `--concurrency` uploads in flight,
 *      round robin over the devices, each upload 5 fixes of one device through its node. Figures:
 *      accepted per second (answers) and persisted per second (COUNT(*) of positions before and
 *      after, read from PostgreSQL);
 *   2. alarm push: SOS at `--sos-rate` per second for `--seconds`, round robin over the devices
 *      through their nodes; latency from the SOS request's start to each console's alarm_data of
 *      that SOS (p50 / p99 / max over every delivery), deliveries expected vs received.
 * CPU seconds of the node processes over each phase are printed (PostgreSQL and Redis not
 * included; they share the same 2 cores). No timing assertion anywhere: this prints what it measures.
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { MenuId } from '@bwc/protocol';
import { DeviceClient, Transport, provisionDevices, simulatedIdentity, type Position } from '@bwc/simulator';
import {
  createDatabase,
  sharedDataDir,
  startNode,
  startRedis,
  type ServerNode,
} from '../apps/server/cluster-test/nodes';
import { createDb } from '../apps/server/src/db/connection';
import { createRole, createUser, login } from '../apps/server/test/helpers';
import { openPushChannel } from '../apps/server/test/push-channel';
import type { TestConsole } from '../apps/server/test/ws-client';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '400' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '64' },
    consoles: { type: 'string', default: '8' },
    'sos-rate': { type: 'string', default: '20' },
    layouts: { type: 'string', default: '1,1r,2,3' },
  },
});
const DEVICES = Number(values.devices);
const SECONDS = Number(values.seconds);
const WARMUP = Number(values.warmup);
const CONCURRENCY = Number(values.concurrency);
const CONSOLES = Number(values.consoles);
const SOS_RATE = Number(values['sos-rate']);
const PROVISION_KEY = 'bench-cluster-provision-key-0001';
const BATCH = 5;

if (!process.env.TEST_DATABASE_URL) {
  console.error('set TEST_DATABASE_URL=postgres://... (the bench creates and drops a database per layout)');
  process.exit(1);
}

function cpuSecondsOf(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}
const cpuOf = (nodes: ServerNode[]) => nodes.reduce((s, n) => s + cpuSecondsOf(n.pid), 0);
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;

interface Layout {
  label: string;
  nodes: number;
  redis: boolean;
}

interface Result {
  layout: Layout;
  accepted: number;
  persisted: number;
  uploadP99: number;
  positionCpu: number;
  sosSent: number;
  deliveries: number;
  expected: number;
  p50: number;
  p99: number;
  max: number;
  sosCpu: number;
}

async function runLayout(layout: Layout): Promise<Result> {
  const database = await createDatabase();
  const data = sharedDataDir();
  const redis = layout.redis ? await startRedis() : null;
  const nodes: ServerNode[] = [];
  const db = createDb({ kind: 'postgres', url: database.url });
  const transports: Transport[] = [];
  const sockets: TestConsole[] = [];
  try {
    for (let i = 0; i < layout.nodes; i++)
      nodes.push(
        await startNode({
          name: `bench-${layout.label}-${i + 1}`,
          databaseUrl: database.url,
          redisUrl: redis?.url,
          dataDir: data.path,
          env: { LOG_LEVEL: 'warn', DEVICE_PROVISION_KEY: PROVISION_KEY },
        }),
      );
    for (const n of nodes) transports.push(new Transport({ server: n.address, maxSockets: CONCURRENCY }));

    // devices: provisioned once, each bound to node i % N
    const ids = Array.from({ length: DEVICES }, (_, k) => simulatedIdentity(`C${layout.label}_`, k + 1));
    const answer = await provisionDevices(transports[0]!, PROVISION_KEY, ids);
    const clients = answer.devices.map((d, i) => new DeviceClient(transports[i % nodes.length]!, d.hostbody, d.secret));
    for (let i = 0; i < clients.length; i += 100) await Promise.all(clients.slice(i, i + 100).map((c) => c.login()));

    // consoles on the push channel, console j on node j % N
    const role = await createRole(db, 'bench desk', [
      { ids: [MenuId.EMERGENCY, MenuId.DISPATCH_ALARM, MenuId.MONITOR_ALARM], actions: ['view', 'edit'] },
    ]);
    for (let j = 0; j < CONSOLES; j++) {
      const node = nodes[j % nodes.length]!;
      const user = await createUser(db, { roleId: role });
      const s = await login(node.app, user.username, user.password);
      sockets.push(await openPushChannel(node.app, node.address.replace('http', 'ws'), s));
    }

    // 1. positions
    const clock = new Map<DeviceClient, number>();
    const upload = async (seconds: number) => {
      let next = 0;
      let accepted = 0;
      const latencies: number[] = [];
      const deadline = performance.now() + seconds * 1000;
      const worker = async () => {
        while (performance.now() < deadline) {
          const c = clients[next++ % clients.length]!;
          const t0 = clock.get(c) ?? Date.parse('2026-01-01T00:00:00Z');
          const fixes: Position[] = Array.from({ length: BATCH }, (_, i) => ({
            time: t0 + i * 1000,
            lat: 22.5431 + ((next % 1000) - 500) * 1e-5,
            lng: 114.0579 + (i - BATCH / 2) * 1e-5,
            speed: 4.2,
            course: 90,
            battery: 80,
          }));
          clock.set(c, t0 + BATCH * 1000);
          const s = performance.now();
          // not `accepted += await ...`: that reads `accepted` before the await and loses the other workers' counts
          const answer = await c.sendPositions(fixes);
          accepted += answer.accepted;
          latencies.push(performance.now() - s);
        }
      };
      const started = performance.now();
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      return { accepted, seconds: (performance.now() - started) / 1000, latencies: latencies.sort((a, b) => a - b) };
    };
    const count = async () =>
      Number(
        (await db.selectFrom('positions').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n,
      );
    await upload(WARMUP);
    const before = await count();
    const cpu0 = cpuOf(nodes);
    const run = await upload(SECONDS);
    const positionCpu = cpuOf(nodes) - cpu0;
    const persisted = (await count()) - before;

    // 2. alarm push
    const sentAt = new Map<string, number>();
    const latencies: number[] = [];
    for (const ws of sockets)
      ws.ws.on('message', (data) => {
        const at = performance.now();
        const m = JSON.parse(data.toString()) as { type?: string; data?: { message?: string } };
        if (m.type !== 'alarm_data') return;
        const t = sentAt.get(m.data?.message ?? '');
        if (t !== undefined) latencies.push(at - t);
      });
    const total = Math.round(SOS_RATE * SECONDS);
    const cpu1 = cpuOf(nodes);
    const started = performance.now();
    const pending: Promise<unknown>[] = [];
    for (let k = 0; k < total; k++) {
      const due = started + (k * 1000) / SOS_RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const tag = `bench-sos-${k}`;
      sentAt.set(tag, performance.now());
      pending.push(clients[k % clients.length]!.sos({ lat: 22.54, lng: 114.05, message: tag }).catch(() => null));
    }
    await Promise.all(pending);
    const expected = total * CONSOLES;
    const end = performance.now() + 10_000;
    while (latencies.length < expected && performance.now() < end) await new Promise((r) => setTimeout(r, 100));
    const sosCpu = cpuOf(nodes) - cpu1;
    latencies.sort((a, b) => a - b);
    return {
      layout,
      accepted: run.accepted / run.seconds,
      persisted: persisted / run.seconds,
      uploadP99: pct(run.latencies, 0.99),
      positionCpu,
      sosSent: total,
      deliveries: latencies.length,
      expected,
      p50: pct(latencies, 0.5),
      p99: pct(latencies, 0.99),
      max: latencies[latencies.length - 1] ?? NaN,
      sosCpu,
    };
  } finally {
    for (const ws of sockets) ws.close();
    for (const t of transports) t.close();
    await Promise.all(nodes.map((n) => n.stop()));
    await db.destroy();
    await database.drop();
    await redis?.stop();
    data.remove();
  }
}

const LAYOUTS: Record<string, Layout> = {
  '1': { label: '1', nodes: 1, redis: false },
  '1r': { label: '1r', nodes: 1, redis: true },
  '2': { label: '2', nodes: 2, redis: true },
  '3': { label: '3', nodes: 3, redis: true },
};
console.log(
  `cluster bench: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), node ${process.version}, PostgreSQL ${new URL(process.env.TEST_DATABASE_URL).host}, ` +
    `${DEVICES} devices, ${CONCURRENCY} uploads in flight of ${BATCH} fixes, ${CONSOLES} consoles, ${SOS_RATE} SOS/s, ${SECONDS} s per phase`,
);
const results: Result[] = [];
for (const key of String(values.layouts).split(',')) {
  const layout = LAYOUTS[key];
  if (!layout) throw new Error(`unknown layout ${key} (1, 1r, 2, 3)`);
  const load = loadavg()[0]!.toFixed(1);
  const r = await runLayout(layout);
  results.push(r);
  console.log(
    `  ${describe(layout)}: ${Math.round(r.accepted)} positions accepted/s, ${Math.round(r.persisted)} persisted/s (upload p99 ${r.uploadP99.toFixed(0)} ms, node CPU ${r.positionCpu.toFixed(1)} s); ` +
      `alarm push p50 ${r.p50.toFixed(1)} ms p99 ${r.p99.toFixed(1)} ms max ${r.max.toFixed(1)} ms, ${r.deliveries}/${r.expected} delivered (node CPU ${r.sosCpu.toFixed(1)} s); load before ${load}`,
  );
}

function describe(l: Layout): string {
  return `${l.nodes} node${l.nodes > 1 ? 's' : ''}${l.redis ? ' + Redis' : ', no Redis'}`;
}

const base = results.find((r) => r.layout.label === '1') ?? results[0]!;
console.log(`\nside by side (ratio: to ${describe(base.layout)}, measured in this run)`);
console.log('layout              persisted/s  ratio  alarm p50 ms  alarm p99 ms  ratio  delivered');
for (const r of results) {
  console.log(
    `${describe(r.layout).padEnd(19)} ${String(Math.round(r.persisted)).padEnd(12)} ${(r.persisted / base.persisted).toFixed(2).padEnd(6)} ` +
      `${r.p50.toFixed(1).padEnd(13)} ${r.p99.toFixed(1).padEnd(13)} ${(r.p99 / base.p99).toFixed(2).padEnd(6)} ${r.deliveries}/${r.expected}`,
  );
}
