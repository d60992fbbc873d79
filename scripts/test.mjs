// `npm test`: runs every suite (unit, integration on SQLite and PostgreSQL, console, type check +
// lint, end to end in Chromium), counts passed and failed tests from the JSON reports and ends with
// one line `N passed, N failed`. Installs what it needs: npm dependencies, and, when run as root,
// Debian's postgresql and chromium.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, aptInstall, ensureDependencies, ensureWebBuilt, hasCommand, isRoot, run, say, succeeds, warn } from './lib/setup.mjs';

const REPORTS = join(ROOT, 'test-results/reports');
const MINUTE = 60_000;
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const started = Date.now();
/** @type {{name: string, passed: number, failed: number, seconds: number, note: string}[]} */
const results = [];

function record(name, passed, failed, since, note = '') {
  results.push({ name, passed, failed, seconds: Math.round((Date.now() - since) / 1000), note });
}

function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

function hasTestFiles(dir) {
  if (!existsSync(dir)) return false;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    if (entry.isDirectory() ? hasTestFiles(join(dir, entry.name)) : /\.test\.tsx?$/.test(entry.name)) return true;
  }
  return false;
}

/** A vitest workspace run; counts come from the JSON reporter, a crash without a report is one failure. */
async function vitestSuite(name, dir, env = process.env) {
  const since = Date.now();
  if (!hasTestFiles(join(ROOT, dir))) {
    say(`${name}: no test files in ${dir}`);
    record(name, 0, 0, since, 'no tests yet');
    return;
  }
  const report = join(REPORTS, `${name}.json`);
  say(`${name}: vitest run in ${dir}`);
  const code = await run(join(ROOT, 'node_modules/.bin/vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], {
    cwd: join(ROOT, dir),
    env,
    timeoutMs: 20 * MINUTE,
  });
  const json = readJson(report);
  if (!json) {
    record(name, 0, 1, since, `no report (exit ${code})`);
    return;
  }
  let passed = json.numPassedTests ?? 0;
  let failed = json.numFailedTests ?? 0;
  // a test file that fails to load has no failed test of its own: count the file
  for (const file of json.testResults ?? []) {
    const fileFailedTests = (file.assertionResults ?? []).filter((a) => a.status === 'failed').length;
    if (file.status === 'failed' && fileFailedTests === 0) failed += 1;
  }
  let note = '';
  if (code !== 0 && failed === 0) {
    failed = 1;
    note = `exit ${code} without a failed test (unhandled error?)`;
  }
  if (passed + failed === 0) note = 'ran no test';
  record(name, passed, failed, since, note);
}

/** Finds (or creates) and starts a local cluster, creates role bwc and database bwc_test; returns the URL or null. */
async function ensurePostgres(packagesReady) {
  if (process.env.TEST_DATABASE_URL) return { url: process.env.TEST_DATABASE_URL };
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
    const versions = readdirSync('/usr/lib/postgresql').filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
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
  const url = `postgres://bwc:bwc@127.0.0.1:${port}/bwc_test`;
  const reachable = () => succeeds('psql', [url, '-tAc', 'select 1'], { env: { ...process.env, PGCONNECT_TIMEOUT: '5' } });
  if (reachable()) return { url };
  if (!isRoot) {
    return { error: `cannot connect to ${url}: as the postgres user create role bwc (password bwc, CREATEDB) and database bwc_test` };
  }
  const asPostgres = (sql, db = 'postgres') =>
    spawnSync('runuser', ['-u', 'postgres', '--', 'psql', '-p', port, '-d', db, '-v', 'ON_ERROR_STOP=1', '-tAc', sql], { encoding: 'utf8', cwd: '/' });
  if (asPostgres("SELECT 1 FROM pg_roles WHERE rolname = 'bwc'").stdout.trim() !== '1') {
    say('creating PostgreSQL role bwc');
    asPostgres("CREATE ROLE bwc LOGIN PASSWORD 'bwc' CREATEDB");
  }
  if (asPostgres("SELECT 1 FROM pg_database WHERE datname = 'bwc_test'").stdout.trim() !== '1') {
    say('creating PostgreSQL database bwc_test');
    asPostgres('CREATE DATABASE bwc_test OWNER bwc');
  }
  return reachable() ? { url } : { error: `cannot connect to ${url} after creating role and database` };
}

/** Missing Debian packages for the database and browser suites, installed in one apt-get run. */
async function ensureSystemPackages() {
  const missing = [];
  const needPostgres = !process.env.TEST_DATABASE_URL && !(hasCommand('pg_ctlcluster') && hasCommand('psql'));
  if (needPostgres) missing.push('postgresql');
  const needChromium = !existsSync(CHROMIUM);
  if (needChromium) missing.push('chromium');
  // without a CJK font the zh-CN screenshots show empty boxes
  const cjk = spawnSync('fc-list', [':lang=zh'], { encoding: 'utf8' });
  if (cjk.status !== 0 || !cjk.stdout.trim()) missing.push('fonts-wqy-microhei');
  const ok = await aptInstall(missing, 'database and browser suites');
  return {
    postgres: !needPostgres || (ok && hasCommand('pg_ctlcluster')),
    chromium: existsSync(CHROMIUM),
  };
}

function printSummary() {
  const rows = [['suite', 'passed', 'failed', 'time', 'note'], ...results.map((r) => [r.name, String(r.passed), String(r.failed), `${r.seconds}s`, r.note])];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const line = (row) => row.map((cell, i) => (i === 1 || i === 2 || i === 3 ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join('  ').trimEnd();
  console.log('');
  console.log(line(rows[0]));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows.slice(1)) console.log(line(row));
  const passed = results.reduce((n, r) => n + r.passed, 0);
  const failed = results.reduce((n, r) => n + r.failed, 0);
  console.log(`total time ${Math.round((Date.now() - started) / 1000)}s`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}

async function main() {
  rmSync(REPORTS, { recursive: true, force: true });
  mkdirSync(REPORTS, { recursive: true });

  let since = Date.now();
  try {
    await ensureDependencies();
  } catch (err) {
    warn(err.message);
    record('install', 0, 1, since, 'npm dependencies could not be installed');
    return;
  }
  const system = await ensureSystemPackages();

  // the server suites choose their database from TEST_DATABASE_URL; the SQLite run must not inherit one
  const sqliteEnv = { ...process.env };
  delete sqliteEnv.TEST_DATABASE_URL;
  delete sqliteEnv.DATABASE_URL;

  await vitestSuite('protocol', 'packages/protocol');
  await vitestSuite('simulator', 'packages/simulator');
  await vitestSuite('server-sqlite', 'apps/server', sqliteEnv);

  since = Date.now();
  const pg = await ensurePostgres(system.postgres);
  if (pg.url) {
    const pgEnv = { ...sqliteEnv, TEST_DATABASE_URL: pg.url };
    await vitestSuite('server-postgres', 'apps/server', pgEnv);
  } else {
    warn(pg.error);
    record('server-postgres', 0, 1, since, pg.error);
  }

  await vitestSuite('web', 'apps/web');

  since = Date.now();
  say('check: npm run check (type check + lint + engines)');
  const check = await run('npm', ['run', 'check'], { timeoutMs: 15 * MINUTE });
  record('check (types + lint + engines)', check === 0 ? 1 : 0, check === 0 ? 0 : 1, since);

  since = Date.now();
  if (!system.chromium) {
    const msg = `Chromium is missing at ${CHROMIUM}: apt-get install -y chromium`;
    warn(msg);
    record('e2e', 0, 1, since, msg);
    return;
  }
  try {
    await ensureWebBuilt({ test: true });
  } catch (err) {
    warn(err.message);
    record('e2e', 0, 1, since, 'console build failed');
    return;
  }
  const report = join(REPORTS, 'e2e.json');
  say('e2e: playwright test (real server, built console, Chromium)');
  const code = await run(join(ROOT, 'node_modules/.bin/playwright'), ['test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'], {
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: report, CHROMIUM_PATH: CHROMIUM },
    timeoutMs: 30 * MINUTE,
  });
  const json = readJson(report);
  if (!json?.stats) {
    record('e2e', 0, 1, since, `no report (exit ${code})`);
    return;
  }
  const passed = (json.stats.expected ?? 0) + (json.stats.flaky ?? 0);
  let failed = json.stats.unexpected ?? 0;
  let note = json.stats.flaky ? `${json.stats.flaky} flaky (passed on retry)` : '';
  if (code !== 0 && failed === 0) {
    failed = 1;
    note = `exit ${code}: ${(json.errors ?? []).map((e) => e.message?.split('\n')[0]).join('; ') || 'see log'}`;
  }
  record('e2e', passed, failed, since, note);
}

try {
  await main();
} catch (err) {
  warn(err?.stack ?? String(err));
  record('runner', 0, 1, started, 'test runner crashed');
}
printSummary();
