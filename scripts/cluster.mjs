// `npm run cluster`: several server nodes on one machine behind HAProxy, sharing one PostgreSQL
// database and one Redis, on loopback addresses only (issue 12; docs/OPERATIONS.md "Several
// nodes"). For demos and tests of the cluster, not a production layout.
//
//   npm run cluster -- [--nodes 3] [--port 18080]
//
// The load balancer listens on --port (open http://127.0.0.1:18080/), the nodes on the next ports.
// DATABASE_URL and REDIS_URL are used when set; otherwise the local PostgreSQL (database
// bwc_cluster, created as root when missing) and a redis-server of its own on a free port.
// The demo's simulated fleet (SIM_DEVICES, default 100) comes through the balancer. Ctrl-C stops
// everything it started.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  ROOT,
  aptInstall,
  ensureDependencies,
  ensurePostgres,
  ensureWebBuilt,
  hasCommand,
  say,
  waitForHttp,
  warn,
} from './lib/setup.mjs';

const { values } = parseArgs({
  options: { nodes: { type: 'string', default: '3' }, port: { type: 'string', default: '18080' } },
});
const count = Number(values.nodes);
const base = Number(values.port);
if (!Number.isInteger(count) || count < 1 || count > 9) throw new Error('--nodes must be 1 to 9');
if (!Number.isInteger(base) || base < 1024 || base + count > 65535)
  throw new Error('--port must leave room for the nodes');

const children = [];
let stopping = false;
function stopAll(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 2_000).unref();
}
process.on('SIGINT', () => stopAll(0));
process.on('SIGTERM', () => stopAll(0));

function start(name, cmd, args, env = {}, log) {
  const child = spawn(cmd, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', log ?? 'inherit', log ?? 'inherit'],
  });
  child.on('exit', (code, signal) => {
    if (!stopping) warn(`${name} stopped (${signal ?? `exit ${code}`})`);
  });
  children.push(child);
  return child;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

await ensureDependencies();
await ensureWebBuilt();
const missing = ['redis-server', 'haproxy'].filter((c) => !hasCommand(c));
if (!hasCommand('pg_ctlcluster') && !process.env.DATABASE_URL) missing.push('postgresql');
if (missing.length) await aptInstall(missing, 'the local cluster');

const pg = process.env.DATABASE_URL
  ? { url: process.env.DATABASE_URL }
  : await ensurePostgres(hasCommand('pg_ctlcluster'), 'bwc_cluster');
if (!pg.url) {
  warn(pg.error);
  process.exit(1);
}

const dir = join(ROOT, 'data/cluster');
mkdirSync(dir, { recursive: true });

let redisUrl = process.env.REDIS_URL;
if (!redisUrl) {
  if (!hasCommand('redis-server')) {
    warn('redis-server is missing: apt-get install -y redis-server (or set REDIS_URL)');
    process.exit(1);
  }
  const port = await freePort();
  start(
    'redis-server',
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {},
    'ignore',
  );
  redisUrl = `redis://127.0.0.1:${port}`;
}

// one data directory for every node, as a shared volume would be: the licence keys and install id,
// uploaded files
const nodes = Array.from({ length: count }, (_, i) => ({ name: `node-${i + 1}`, port: base + 1 + i }));
for (const [i, node] of nodes.entries()) {
  start(node.name, process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    DEMO: '1',
    HOST: '127.0.0.1',
    PORT: String(node.port),
    DATA_DIR: dir,
    DATABASE_URL: pg.url,
    REDIS_URL: redisUrl,
    NODE_ID: node.name,
    // the console service under /ws/console of each node's port; OsmAnd and RTMP ingest on the
    // first node only (one port each on this machine)
    CONSOLE_PORT: '0',
    OSMAND_PORT: i === 0 ? (process.env.OSMAND_PORT ?? '5055') : '0',
    RTMP_PORT: i === 0 ? (process.env.RTMP_PORT ?? '1935') : '0',
    TRUSTED_PROXIES: '127.0.0.1',
  });
}
for (const node of nodes) {
  if (!(await waitForHttp(`http://127.0.0.1:${node.port}/rest/index/login/get`, 120_000))) {
    warn(`${node.name} does not answer on port ${node.port} within 2 minutes`);
    stopAll(1);
    await new Promise(() => {});
  }
}
say(`${count} nodes answer: ${nodes.map((n) => `${n.name} http://127.0.0.1:${n.port}/`).join(', ')}`);

let entry = `http://127.0.0.1:${nodes[0].port}`;
if (hasCommand('haproxy')) {
  const cfg = join(dir, 'haproxy.cfg');
  writeFileSync(
    cfg,
    [
      'global',
      '  maxconn 4000',
      'defaults',
      '  mode http',
      '  option forwardfor',
      '  timeout connect 5s',
      '  timeout client 60s',
      '  timeout server 60s',
      // websockets (push channel, console service) and device long polls stay open
      '  timeout tunnel 1h',
      'frontend console',
      `  bind 127.0.0.1:${base}`,
      '  default_backend nodes',
      'backend nodes',
      '  balance roundrobin',
      '  option httpchk GET /rest/index/login/get',
      '  http-check expect status 200',
      ...nodes.map((n) => `  server ${n.name} 127.0.0.1:${n.port} check inter 2s fall 2 rise 1`),
      '',
    ].join('\n'),
  );
  const lb = start('haproxy', 'haproxy', ['-f', cfg, '-db']);
  if (!(await waitForHttp(`http://127.0.0.1:${base}/rest/index/login/get`, 30_000, () => lb.exitCode === null))) {
    warn(`HAProxy does not answer on port ${base}: open a node directly`);
  } else {
    say(`load balancer: http://127.0.0.1:${base}/ (HAProxy, round robin over ${count} nodes); Ctrl-C stops all`);
    entry = `http://127.0.0.1:${base}`;
  }
} else {
  warn('haproxy is missing (apt-get install -y haproxy): open a node directly');
}

// the demo's simulated fleet, through the balancer as real devices would come (SIM_DEVICES, 0: none)
const simDevices = Number(process.env.SIM_DEVICES ?? 100);
if (simDevices > 0) {
  start(
    'simulator',
    process.execPath,
    ['--import', 'tsx', 'packages/simulator/src/cli.ts', '--devices', String(simDevices), '--server', entry],
    {
      DATA_DIR: dir,
    },
    'ignore',
  );
  say(`simulated fleet: ${simDevices} body cameras through ${entry} (SIM_DEVICES=0 turns it off)`);
}
