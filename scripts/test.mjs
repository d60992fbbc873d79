// `npm test`: runs every suite (unit, integration on SQLite and PostgreSQL, several server nodes on
// PostgreSQL and Redis, console, type check + lint, first-load size, end to end in Chromium), counts passed and
// failed tests from the JSON reports and ends with one line `N passed, N failed`. Installs what it
// needs: npm dependencies, and, when run as root, Debian's postgresql, redis-server and chromium.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  ROOT,
  aptInstall,
  ensureDependencies,
  ensurePostgres,
  ensureWebBuilt,
  hasCommand,
  run,
  say,
  warn,
} from './lib/setup.mjs';

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
async function vitestSuite(name, dir, env = process.env, extraArgs = []) {
  const since = Date.now();
  if (!hasTestFiles(join(ROOT, dir))) {
    say(`${name}: no test files in ${dir}`);
    record(name, 0, 0, since, 'no tests yet');
    return;
  }
  const report = join(REPORTS, `${name}.json`);
  say(`${name}: vitest run in ${dir}`);
  const code = await run(
    join(ROOT, 'node_modules/.bin/vitest'),
    ['run', ...extraArgs, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    {
      cwd: join(ROOT, dir),
      env,
      timeoutMs: 20 * MINUTE,
    },
  );
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

/** Missing Debian packages for the database, SIP and browser suites, installed in one apt-get run. */
async function ensureSystemPackages() {
  const missing = [];
  const needPostgres = !process.env.TEST_DATABASE_URL && !(hasCommand('pg_ctlcluster') && hasCommand('psql'));
  if (needPostgres) missing.push('postgresql');
  const needChromium = !existsSync(CHROMIUM);
  if (needChromium) missing.push('chromium');
  // the multi-node suite starts its own redis-server
  const needRedis = !hasCommand('redis-server');
  if (needRedis) missing.push('redis-server');
  // the GB28181 SIP tests run SIPp (Debian's sip-tester) as an independent peer
  if (!hasCommand('sipp')) missing.push('sip-tester');
  // the simulator's talk bursts are spoken by espeak-ng (its test is skipped without it)
  if (!hasCommand('espeak-ng')) missing.push('espeak-ng');
  // without a CJK font the zh-CN screenshots show empty boxes
  const cjk = spawnSync('fc-list', [':lang=zh'], { encoding: 'utf8' });
  if (cjk.status !== 0 || !cjk.stdout.trim()) missing.push('fonts-wqy-microhei');
  const ok = await aptInstall(missing, 'database, SIP and browser suites');
  return {
    postgres: !needPostgres || (ok && hasCommand('pg_ctlcluster')),
    chromium: existsSync(CHROMIUM),
    redis: hasCommand('redis-server'),
  };
}

function printSummary() {
  const rows = [
    ['suite', 'passed', 'failed', 'time', 'note'],
    ...results.map((r) => [r.name, String(r.passed), String(r.failed), `${r.seconds}s`, r.note]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const line = (row) =>
    row
      .map((cell, i) => (i === 1 || i === 2 || i === 3 ? cell.padStart(widths[i]) : cell.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
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
  await vitestSuite('gb28181', 'packages/gb28181');
  await vitestSuite('simulator', 'packages/simulator');
  await vitestSuite('server-sqlite', 'apps/server', sqliteEnv);

  since = Date.now();
  const pg = process.env.TEST_DATABASE_URL
    ? { url: process.env.TEST_DATABASE_URL }
    : await ensurePostgres(system.postgres, 'bwc_test');
  if (pg.url) {
    const pgEnv = { ...sqliteEnv, TEST_DATABASE_URL: pg.url };
    await vitestSuite('server-postgres', 'apps/server', pgEnv);
    since = Date.now();
    if (system.redis) await vitestSuite('cluster', 'apps/server', pgEnv, ['-c', 'vitest.cluster.config.ts']);
    else record('cluster', 0, 1, since, 'redis-server is missing: apt-get install -y redis-server');
  } else {
    warn(pg.error);
    record('server-postgres', 0, 1, since, pg.error);
    record('cluster', 0, 1, since, `needs PostgreSQL: ${pg.error}`);
  }

  await vitestSuite('web', 'apps/web');

  since = Date.now();
  say('check: npm run check (type check + lint + engines)');
  const check = await run('npm', ['run', 'check'], { timeoutMs: 15 * MINUTE });
  record('check (types + lint + engines)', check === 0 ? 1 : 0, check === 0 ? 0 : 1, since);

  // the first-load limit of issue 10 (login and shell at most 400 KB of gzip in each language): a
  // size, not a timing, so it is a check; it went over unseen once when it was only a bench
  since = Date.now();
  say('bundle: the first load within its limit (bench/bundle-size.ts)');
  const bundle = await run('npx', ['tsx', 'bench/bundle-size.ts'], { timeoutMs: 10 * MINUTE });
  record('bundle (first load <= 400 KB)', bundle === 0 ? 1 : 0, bundle === 0 ? 0 : 1, since);

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
  const code = await run(
    join(ROOT, 'node_modules/.bin/playwright'),
    ['test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'],
    {
      env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: report, CHROMIUM_PATH: CHROMIUM },
      // the CI on record stopped it at 30 min, at test 49 of 54; a clean-clone run here took 37 min
      // (2026-11-28, build included). Every other suite together takes about 30 min, so the run
      // still ends inside CI's 90.
      timeoutMs: 45 * MINUTE,
    },
  );
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
