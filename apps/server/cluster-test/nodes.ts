import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import pg from 'pg';
import { TEST_CAPTCHA } from '../test/helpers';

/**
 * The multi-node suite's parts (issue 12): a private redis-server, a fresh PostgreSQL database
 * (from TEST_DATABASE_URL), and server processes (`node --import tsx src/main.ts`) on loopback
 * ports sharing both, each reachable through an `inject` that speaks real HTTP so that the server
 * suites' helpers (login, api, addDevice, logonConsole) work against a node unchanged.
 */

const SERVER_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const LOGS = resolve(SERVER_DIR, '../../test-results/cluster');

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => res(port));
    });
  });
}

export async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export interface RedisServer {
  url: string;
  stop: () => Promise<void>;
}

/** redis-server (Debian's package) on a free loopback port, nothing saved to disk. */
export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const url = `redis://127.0.0.1:${port}`;
  await until('redis-server answers', async () => {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => {});
    try {
      await client.connect();
      return (await client.ping()) === 'PONG';
    } finally {
      client.disconnect();
    }
  });
  return { url, stop: () => stopChild(child, 'SIGTERM') };
}

export interface Database {
  url: string;
  drop: () => Promise<void>;
}

/** A fresh database on the PostgreSQL of TEST_DATABASE_URL. */
export async function createDatabase(): Promise<Database> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base || !/^postgres(ql)?:\/\//.test(base))
    throw new Error('the multi-node suite needs TEST_DATABASE_URL=postgres://...');
  const name = `bwc_c_${Math.random().toString(16).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((res) => {
    child.once('exit', () => res());
    child.kill(signal);
  });
}

interface InjectOptions {
  method?: string;
  url: string;
  query?: Record<string, string>;
  payload?: unknown;
  headers?: Record<string, string>;
}

/** What the helpers read of an inject answer. */
interface InjectAnswer {
  statusCode: number;
  body: string;
  json: () => unknown;
  cookies: { name: string; value: string }[];
}

export interface ServerNode {
  name: string;
  port: number;
  /** http://127.0.0.1:port */
  address: string;
  /** the node as the helpers take an app: `inject` over real HTTP */
  app: FastifyInstance;
  /** SIGTERM and wait */
  stop: () => Promise<void>;
  /** SIGKILL (kill -9) and wait */
  kill: () => Promise<void>;
  /** started again on the same port after a stop or kill */
  restart: () => Promise<void>;
  readonly alive: boolean;
  /** the process id (CPU figures of the bench) */
  readonly pid: number | undefined;
}

export interface NodeOptions {
  name: string;
  databaseUrl: string;
  /** absent: a node alone (the bench's one-node baseline) */
  redisUrl?: string;
  /** one DATA_DIR for every node, as a shared volume would be (licence keys, uploads) */
  dataDir: string;
  env?: Record<string, string>;
}

/** One server process; resolves once it answers HTTP. */
export async function startNode(options: NodeOptions): Promise<ServerNode> {
  const port = await freePort();
  const address = `http://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  const launch = async () => {
    rmSync(join(LOGS, `${options.name}.log`), { force: true });
    const { mkdirSync } = await import('node:fs');
    mkdirSync(LOGS, { recursive: true });
    const log = openSync(join(LOGS, `${options.name}.log`), 'a');
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: SERVER_DIR,
      stdio: ['ignore', log, log],
      env: {
        ...process.env,
        NODE_ENV: 'test',
        TEST_CAPTCHA,
        DEMO: '1',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: options.dataDir,
        DATABASE_URL: options.databaseUrl,
        ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
        NODE_ID: options.name,
        CONSOLE_PORT: '0',
        OSMAND_PORT: '0',
        RTMP_PORT: '0',
        LOG_LEVEL: 'info',
        ...options.env,
      },
    });
    const started = child;
    await until(`node ${options.name} answers`, async () => {
      if (started.exitCode !== null) throw new Error(`node ${options.name} exited with ${started.exitCode}`);
      const res = await fetch(`${address}/rest/index/login/get`);
      return res.ok;
    });
  };
  await launch();

  const inject = async (o: InjectOptions): Promise<InjectAnswer> => {
    const url = new URL(o.url, address);
    for (const [k, v] of Object.entries(o.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    let body: string | undefined;
    if (o.payload !== undefined) {
      body = typeof o.payload === 'string' ? o.payload : JSON.stringify(o.payload);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(url, { method: o.method ?? 'GET', headers, body });
    const text = await res.text();
    const cookies = res.headers.getSetCookie().map((c) => {
      const [pair = ''] = c.split(';');
      const eq = pair.indexOf('=');
      return { name: pair.slice(0, eq), value: pair.slice(eq + 1) };
    });
    return { statusCode: res.status, body: text, json: () => JSON.parse(text) as unknown, cookies };
  };

  return {
    name: options.name,
    port,
    address,
    app: { inject } as unknown as FastifyInstance,
    stop: () => (child ? stopChild(child, 'SIGTERM') : Promise.resolve()),
    kill: () => (child ? stopChild(child, 'SIGKILL') : Promise.resolve()),
    restart: launch,
    get alive() {
      return child !== null && child.exitCode === null && child.signalCode === null;
    },
    get pid() {
      return child?.pid;
    },
  };
}

/** A data directory shared by the nodes of one test file. */
export function sharedDataDir(): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), 'bwc-cluster-'));
  return { path, remove: () => rmSync(path, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }) };
}
