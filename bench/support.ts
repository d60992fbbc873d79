// Shared set-up of the benchmarks: a prepared SQLite data folder with a licence large enough for
// the run, and the real server started as a child process on a free port.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../apps/server/src/app';
import type { Config } from '../apps/server/src/config';
import { issueLicenceCode } from '../apps/server/src/modules/licence/licence-code';
import { demoKeyPair } from '../apps/server/src/modules/licence/licence.service';

export const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (typeof a === 'object' && a ? res(a.port) : rej(new Error('no port'))));
    });
  });
}

/**
 * Builds (migrates, seeds) the demo database in `dataDir` in this process and registers a licence
 * for the run, signed with that folder's demo vendor key. With `testCaptcha` the app stays open in
 * test mode so that the caller can log users in through it; otherwise it is closed.
 */
export async function prepareDataDir(
  dataDir: string,
  limits: { workstations: number; devices: number },
  testCaptcha?: string,
): Promise<Awaited<ReturnType<typeof buildApp>>> {
  const config: Config = {
    port: 0,
    host: '127.0.0.1',
    dataDir,
    database: { kind: 'sqlite', path: join(dataDir, 'bwc.db') },
    nodeEnv: testCaptcha ? 'test' : 'production',
    logLevel: 'silent',
    testCaptcha,
    licencePublicKey: undefined,
    demo: true,
    gbMode: false,
    webDist: null,
    seed: true,
    osmandPort: 0,
  };
  const app = await buildApp(config);
  const code = issueLicenceCode(
    {
      v: 1,
      mac_code: app.licence.macCode,
      customer: 'bench',
      issued_at: new Date().toISOString(),
      valid_days: 30,
      ...limits,
    },
    demoKeyPair(dataDir).privateKey,
  );
  await app.licence.register(code);
  return app;
}

/**
 * The real server (tsx, production mode) on `port` over `dataDir`; resolves once it listens.
 * `nodeArgs` go to node before the script (e.g. --cpu-prof). `extraEnv` is applied last (e.g. NODE_ENV=test with TEST_CAPTCHA so that a browser can log in,
 * WEB_DIST to serve the built console).
 */
export async function startServer(
  dataDir: string,
  port: number,
  nodeArgs: string[] = [],
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DEMO: '1',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    OSMAND_PORT: '0',
    CONSOLE_PORT: '0',
    HTTPS_PORT: '0',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    // measure the ingest and alarm paths alone: no demo fences, no basemap tile pack built by a
    // child process in the background
    DEMO_FENCES: '0',
    BASEMAP_PACK: '0',
  };
  // the server refuses a fixed captcha outside test mode
  delete env.TEST_CAPTCHA;
  Object.assign(env, extraEnv);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((res, rej) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('bwc console server')) res();
    });
    child.once('exit', (code) => rej(new Error(`server exited with ${code}`)));
  });
  return child;
}

/**
 * CPU seconds (user + system) a process used so far, from /proc (Linux); with `children`, also
 * what its ended child processes used.
 */
export function cpuOf(pid: number, children = false): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime, stime, cutime, cstime in clock ticks (USER_HZ 100)
  const own = Number(fields[11]) + Number(fields[12]);
  return (children ? own + Number(fields[13]) + Number(fields[14]) : own) / 100;
}
