// Shared set-up steps of `npm start` and `npm test`: plain Node, no dependencies, so that it runs
// on a fresh clone before `npm install`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

const colour = process.stdout.isTTY && !process.env.NO_COLOR;
export function say(text) {
  console.log(colour ? `\x1b[1;36m==>\x1b[0m ${text}` : `==> ${text}`);
}
export function warn(text) {
  console.error(colour ? `\x1b[1;33m!!!\x1b[0m ${text}` : `!!! ${text}`);
}

/** Runs a command with inherited output; resolves with its exit code (signals count as failure). */
export function run(cmd, args, { cwd = ROOT, env = process.env, timeoutMs } = {}) {
  return new Promise((resolveCode) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'inherit', 'inherit'] });
    let timer;
    if (timeoutMs) {
      timer = setTimeout(() => {
        warn(`${cmd} ${args.join(' ')}: no end after ${Math.round(timeoutMs / 60000)} min, stopping it`);
        // the whole tree, read before anything dies: a killed runner's own children (the e2e
        // server) once lived on and held their port into the next run
        const tree = [child.pid, ...descendantsOf(child.pid)];
        signalAll(tree, 'SIGTERM');
        setTimeout(() => signalAll(tree, 'SIGKILL'), 10_000).unref();
      }, timeoutMs);
    }
    child.on('error', (err) => {
      warn(`${cmd}: ${err.message}`);
      clearTimeout(timer);
      resolveCode(127);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolveCode(code ?? (signal ? 128 : 1));
    });
  });
}

/** The process ids below `pid` (children, their children, ...), from ps. */
export function descendantsOf(pid) {
  const r = spawnSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  if (r.status !== 0) return [];
  const children = new Map();
  for (const line of r.stdout.split('\n')) {
    const [p, parent] = line.trim().split(/\s+/).map(Number);
    if (!p || !parent) continue;
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(p);
  }
  const found = [];
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length > 0) {
    const next = queue.shift();
    found.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return found;
}

function signalAll(pids, signal) {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/** Synchronous, quiet probe: true when the command exits 0. */
export function succeeds(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'ignore', ...options });
  return r.status === 0;
}

export function hasCommand(name) {
  return succeeds('sh', ['-c', `command -v ${name}`]);
}

/** apt-get install as root; returns false (and says what to install) when not root or it fails. */
export async function aptInstall(packages, why) {
  if (packages.length === 0) return true;
  const line = `apt-get update && apt-get install -y ${packages.join(' ')}`;
  if (!isRoot) {
    warn(`${why}: missing Debian packages. Install them as root:\n    ${line}`);
    return false;
  }
  say(`${why}: installing ${packages.join(' ')} (apt-get)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if ((await run('apt-get', ['update'], { env })) !== 0) return false;
  return (await run('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { env })) === 0;
}

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** Newest modification time of the files under dir (skips node_modules, dist and hidden entries). */
function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : mtime(path));
  }
  return newest;
}

const HIDDEN_LOCK = join(ROOT, 'node_modules/.package-lock.json');

function dependenciesStale() {
  if (!existsSync(HIDDEN_LOCK)) return 'node_modules is missing';
  if (mtime(join(ROOT, 'package-lock.json')) > mtime(HIDDEN_LOCK))
    return 'package-lock.json is newer than node_modules';
  return null;
}

/** better-sqlite3 is a native addon: loading it in a child proves the compiled binary matches this Node. */
function sqliteLoads() {
  const serverRequire = createRequire(join(ROOT, 'apps/server/package.json'));
  let entry;
  try {
    entry = serverRequire.resolve('better-sqlite3');
  } catch {
    return false;
  }
  const probe = `const D=require(${JSON.stringify(entry)});const db=new D(':memory:');db.prepare('select 1').get();db.close();`;
  return succeeds(process.execPath, ['-e', probe]);
}

/**
 * node-gyp downloads Node's headers unless told where they are; Debian's and NodeSource's nodejs
 * packages ship them next to the binary, so point it there (no download needed).
 */
function nativeBuildEnv() {
  const env = { ...process.env };
  const prefix = dirname(dirname(process.execPath));
  if (!env.npm_config_nodedir && existsSync(join(prefix, 'include/node/node.h'))) env.npm_config_nodedir = prefix;
  return env;
}

/**
 * Finds (or, as root, creates) and starts the local PostgreSQL cluster, creates role bwc (password
 * bwc) and `database`; answers { url } or { error } naming what is missing.
 */
export async function ensurePostgres(packagesReady, database) {
  if (!packagesReady || !hasCommand('pg_lsclusters') || !hasCommand('psql')) {
    return { error: 'PostgreSQL is not installed: apt-get install -y postgresql (or set TEST_DATABASE_URL)' };
  }
  const list = () =>
    spawnSync('pg_lsclusters', ['--no-header'], { encoding: 'utf8' })
      .stdout.split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter((cols) => cols.length >= 4 && /^\d+$/.test(cols[0]));
  let clusters = list();
  if (clusters.length === 0 && isRoot) {
    const versions = readdirSync('/usr/lib/postgresql')
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) {
      say(`creating PostgreSQL cluster ${versions[0]}/main`);
      await run('pg_createcluster', [versions[0], 'main']);
      clusters = list();
    }
  }
  const cluster = clusters.find((c) => c[1] === 'main') ?? clusters[0];
  if (!cluster) return { error: 'no PostgreSQL cluster: run pg_createcluster <version> main as root' };
  const [version, name, port, status] = cluster;
  if (status !== 'online') {
    say(`starting PostgreSQL ${version}/${name}: pg_ctlcluster ${version} ${name} start`);
    if ((await run('pg_ctlcluster', [version, name, 'start'])) !== 0) {
      return { error: `pg_ctlcluster ${version} ${name} start failed (run it as root or as postgres)` };
    }
  }
  const url = `postgres://bwc:bwc@127.0.0.1:${port}/${database}`;
  const reachable = () =>
    succeeds('psql', [url, '-tAc', 'select 1'], { env: { ...process.env, PGCONNECT_TIMEOUT: '5' } });
  if (reachable()) return { url };
  if (!isRoot) {
    return {
      error: `cannot connect to ${url}: as the postgres user create role bwc (password bwc, CREATEDB) and database ${database}`,
    };
  }
  const asPostgres = (sql, db = 'postgres') =>
    spawnSync('runuser', ['-u', 'postgres', '--', 'psql', '-p', port, '-d', db, '-v', 'ON_ERROR_STOP=1', '-tAc', sql], {
      encoding: 'utf8',
      cwd: '/',
    });
  if (asPostgres("SELECT 1 FROM pg_roles WHERE rolname = 'bwc'").stdout.trim() !== '1') {
    say('creating PostgreSQL role bwc');
    asPostgres("CREATE ROLE bwc LOGIN PASSWORD 'bwc' CREATEDB");
  }
  if (asPostgres(`SELECT 1 FROM pg_database WHERE datname = '${database}'`).stdout.trim() !== '1') {
    say(`creating PostgreSQL database ${database}`);
    asPostgres(`CREATE DATABASE ${database} OWNER bwc`);
  }
  return reachable() ? { url } : { error: `cannot connect to ${url} after creating role and database` };
}

/** Installs dependencies when missing or stale and makes sure better-sqlite3 is built for this Node. */
export async function ensureDependencies() {
  const reason = dependenciesStale();
  if (reason) {
    // better-sqlite3 compiles from source with node-gyp when no prebuilt binary can be fetched
    const tools = [
      ['python3', 'python3'],
      ['make', 'make'],
      ['g++', 'g++'],
    ].filter(([cmd]) => !hasCommand(cmd));
    if (tools.length)
      await aptInstall(
        tools.map(([, pkg]) => pkg),
        'building better-sqlite3 needs a C++ tool chain',
      );
    say(`installing dependencies (${reason}): npm install`);
    const code = await run('npm', ['install', '--no-audit', '--no-fund'], { env: nativeBuildEnv() });
    if (code !== 0) throw new Error(`npm install failed (exit ${code})`);
    // npm leaves the hidden lockfile untouched when nothing changed; mark the install as current
    const now = new Date();
    utimesSync(HIDDEN_LOCK, now, now);
  }
  if (!sqliteLoads()) {
    say('better-sqlite3 does not load for this Node: npm rebuild better-sqlite3 (compiles, about a minute)');
    const code = await run('npm', ['rebuild', 'better-sqlite3'], { env: nativeBuildEnv() });
    if (code !== 0 || !sqliteLoads()) {
      throw new Error(
        'better-sqlite3 cannot be built: it needs python3, make and g++ (apt-get install -y python3 make g++)',
      );
    }
  }
}

const WEB = join(ROOT, 'apps/web');
/** where the console is built for `npm start` (production build) */
export const WEB_DIST = join(WEB, 'dist');
/**
 * where the test build of the console lives (end-to-end suite, map benchmark): built with
 * `--mode e2e`, which keeps the handles the checks read (`window.__bwcMap`, apps/web/src/map/testHandle.ts)
 * that a production build leaves out. A run on another E2E_PORT than the default builds into its own
 * folder (e2e/dist-<port>): runs side by side while developing once rebuilt the same folder, and one
 * run's assets answered 404 while the other rebuilt. E2E_WEB_DIST names a folder outright.
 */
const E2E_DEFAULT_PORT = '18084';
const e2ePort = process.env.E2E_PORT || E2E_DEFAULT_PORT;
export const E2E_WEB_DIST =
  process.env.E2E_WEB_DIST || join(ROOT, e2ePort === E2E_DEFAULT_PORT ? 'e2e/dist' : `e2e/dist-${e2ePort}`);

/**
 * Builds the console when its folder is missing or older than a source of apps/web or
 * packages/protocol: the production build into apps/web/dist, or with `test` the test build into
 * E2E_WEB_DIST.
 */
export async function ensureWebBuilt({ force = false, test = false } = {}) {
  const outDir = test ? E2E_WEB_DIST : WEB_DIST;
  const built = mtime(join(outDir, 'index.html'));
  const sources = Math.max(newestMtime(WEB), newestMtime(join(ROOT, 'packages/protocol')));
  if (!force && built && built >= sources) return;
  const what = test ? 'the console for the tests (apps/web, mode e2e)' : 'the console (apps/web)';
  say(built ? `sources changed since the last build: building ${what}` : `building ${what}`);
  const mode = test ? ['--mode', 'e2e'] : [];
  const code = await run('npm', ['run', 'build', '-w', '@bwc/web', '--', '--outDir', outDir, '--emptyOutDir', ...mode]);
  if (code !== 0) throw new Error(`building the console failed (exit ${code})`);
}

/** Polls url until any HTTP answer arrives; false after timeoutMs. */
export async function waitForHttp(url, timeoutMs, isAlive = () => true) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && isAlive()) {
    try {
      await fetch(url);
      return true;
    } catch {
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  return false;
}

/** The seeded demo accounts (apps/server's demo seed). */
export const DEMO_ACCOUNTS = [
  { username: 'admin', password: 'Admin@123', role: 'administrator (all permissions, system settings, licence)' },
  { username: 'dispatcher', password: 'Dispatch@1', role: 'dispatcher (dispatch and monitor areas)' },
  { username: 'unitadmin', password: 'Unit@1234', role: 'unit administrator of one sub-unit' },
];

/** The account made for the officer of each simulated camera (apps/server's DEMO_OFFICER): username = its police number. */
export const DEMO_OFFICER = {
  username: '100001',
  password: 'Police@123',
  role: "officer (民警) of a simulated camera; each camera's police number logs in: 100001, 100002, ...",
};
