// Starts the real server for the end-to-end suite: the console's test build, demo data, fixed test captcha and
// a fresh data directory that is removed again when the server stops.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { E2E_WEB_DIST, ROOT, ensureWebBuilt } from '../scripts/lib/setup.mjs';

// the test build: it carries the map handle the specs read (window.__bwcMap)
await ensureWebBuilt({ test: true });
const dataDir = mkdtempSync(join(tmpdir(), 'bwc-e2e-'));
const env = {
  ...process.env,
  NODE_ENV: 'test',
  TEST_CAPTCHA: process.env.TEST_CAPTCHA || '1234',
  DEMO: '1',
  PORT: process.env.E2E_PORT || '18084',
  DATA_DIR: dataDir,
  WEB_DIST: E2E_WEB_DIST,
  LOG_LEVEL: process.env.LOG_LEVEL || 'info',
  // the console service answers under /ws/console of PORT: no dedicated port shared (and fought
  // over) by e2e servers running side by side; gis info's group_api then names PORT
  CONSOLE_PORT: process.env.CONSOLE_PORT || '0',
  // likewise the HTTPS port (the specs' Chromium is on localhost, a secure context already)
  HTTPS_PORT: process.env.HTTPS_PORT || '0',
};
// the suite always runs on a fresh SQLite database inside dataDir
delete env.DATABASE_URL;

// the server's pino log goes to a file kept with the screenshots as a CI artifact
const artifacts = join(ROOT, 'e2e/artifacts');
mkdirSync(artifacts, { recursive: true });
const log = openSync(join(artifacts, env.PORT === '18084' ? 'server.log' : `server-${env.PORT}.log`), 'w');
const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: ROOT,
  env,
  stdio: ['ignore', log, 'inherit'],
});
server.on('exit', (code) => {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
