// Shared set-up of the live video benches (bench/live-*.ts): the ffmpeg of @ffmpeg-installer, the
// project's server with its RTMP gateway, node-media-server 4.4 alone as the anchor, CPU seconds
// of a process from /proc, and one place that kills every child process the bench started.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { copyFileSync, createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { join } from 'node:path';
import { encodeLoginInfo, hashPasswordForLogin, signPayload, type Envelope } from '@bwc/protocol';
import { addDevice, type CreatedDevice } from '../apps/server/test/devices';
import { DEMO, login } from '../apps/server/test/helpers';
import { ROOT, prepareDataDir, startServer } from './support';

const require = createRequire(import.meta.url);
export const FFMPEG = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
export const NMS_DIR = join(ROOT, 'node_modules/node-media-server');
export const CAPTCHA = '1234';

/** Every child process of the bench: killed on exit, on a signal and on a failure. */
const children = new Set<ChildProcess>();
export function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}
export function killAll(): void {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}
process.once('exit', killAll);
for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.once(sig, () => {
    killAll();
    process.exit(130);
  });

export function spawnTracked(cmd: string, args: string[], opts: SpawnOptions = {}): ChildProcess {
  return track(spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], ...opts }));
}

/** utime + stime of a process (every thread), seconds. */
export function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

/** Child processes of `pid` (direct), from /proc. */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** CPU seconds of a process and all its descendants (a browser and its renderers). */
export function treeCpuSeconds(pid: number): number {
  let total = 0;
  try {
    total = cpuSecondsOf(pid);
  } catch {
    return 0;
  }
  for (const c of childPids(pid)) total += treeCpuSeconds(c);
  return total;
}

export function waitPort(port: number, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve();
      });
      s.once('error', () => {
        s.destroy();
        if (Date.now() > end) reject(new Error(`port ${port} not listening within ${timeoutMs} ms`));
        else setTimeout(attempt, 100);
      });
    };
    attempt();
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function until(what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(50);
  }
}

/**
 * node-media-server 4.4 alone (its own bin/app.js, one Node process) on a copy of its config in
 * `dir` (it rewrites the file it is given): RTMP and HTTP/WS-FLV only, no HTTPS, no admin API,
 * no auth, its store in `dir`. Its debug log goes to /dev/null.
 */
export async function startNms(dir: string, rtmpPort: number, httpPort: number): Promise<ChildProcess> {
  const config = {
    bind: '127.0.0.1',
    notify: { url: '' },
    store: { path: join(dir, 'nms-data'), maxHistory: 100 },
    auth: { play: false, publish: false, secret: 'bench-not-used-secret' },
    rtmp: { port: rtmpPort },
    http: { port: httpPort },
    webadmin: { enable: false },
    record: { auto: false, path: join(dir, 'nms-record') },
  };
  const file = join(dir, 'nms-config.json');
  writeFileSync(file, JSON.stringify(config, null, 2));
  // (its cert and key are read only for rtmps/https, both off)
  copyFileSync(join(NMS_DIR, 'bin/key.pem'), join(dir, 'key.pem'));
  copyFileSync(join(NMS_DIR, 'bin/cert.pem'), join(dir, 'cert.pem'));
  const child = spawnTracked(process.execPath, [join(NMS_DIR, 'bin/app.js'), '-c', file], { cwd: dir });
  child.stderr?.resume();
  await waitPort(rtmpPort);
  await waitPort(httpPort);
  return child;
}

export interface Prepared {
  devices: CreatedDevice[];
  adminId: number;
  /** publish keys and play tokens signed with the data folder's key (shared with the server) */
  publishKey: (deviceId: number, ttlMs: number) => string;
  playToken: (userId: number, deviceId: number, ttlMs: number) => string;
}

/** Demo database in `dataDir`, `devices` devices in the root unit, key minting; the app is closed after. */
export async function prepareLive(dataDir: string, devices = 1): Promise<Prepared> {
  const app = await prepareDataDir(dataDir, { workstations: 20, devices: devices + 100 }, CAPTCHA);
  const admin = await login(app, DEMO.admin.username, DEMO.admin.password);
  const unit = (await app.db.selectFrom('units').select('id').where('pid', '=', 0).executeTakeFirstOrThrow()).id;
  const created: CreatedDevice[] = [];
  for (let i = 0; i < devices; i++) created.push(await addDevice(app, admin, unit));
  const adminId = (
    await app.db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()
  ).id;
  // minting is an HMAC with the key read at start: it needs no open database
  const keys = app.media.keys;
  await app.close();
  return {
    devices: created,
    adminId,
    publishKey: (d, t) => keys.publishKey(d, t),
    playToken: (u, d, t) => keys.playToken(u, d, t),
  };
}

/** The project's server (tsx, bench/support.ts startServer) with its RTMP gateway on `rtmpPort`. */
export async function startOurs(
  dataDir: string,
  port: number,
  rtmpPort: number,
  extraEnv: NodeJS.ProcessEnv = {},
  logFile?: string,
): Promise<ChildProcess> {
  const child = track(
    await startServer(dataDir, port, [], { RTMP_PORT: String(rtmpPort), LIVE_IDLE_S: '3600', ...extraEnv }),
  );
  if (logFile) child.stdout?.pipe(createWriteStream(logFile));
  else child.stdout?.resume();
  await waitPort(rtmpPort);
  return child;
}

/** The server's log lines about live video (media gateway, live service) from `logFile`. */
export function mediaLog(logFile: string): string[] {
  try {
    return readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((l) => /media gateway|"live: /.test(l))
      .map((l) => {
        try {
          const j = JSON.parse(l) as Record<string, unknown>;
          return `${new Date(Number(j.time)).toISOString().slice(11, 23)} ${String(j.msg)}${j.device ? ` device ${String(j.device)}` : ''}${j.reason ? ` (${String(j.reason)})` : ''}${j.why ? ` (${String(j.why)})` : ''}`;
        } catch {
          return l;
        }
      });
  } catch {
    return [];
  }
}

/** A console session through the real HTTP login (server in test mode with TEST_CAPTCHA). */
export async function httpLogin(base: string, username: string, password: string): Promise<string> {
  const page = (await (await fetch(`${base}/rest/index/login/get`)).json()) as Envelope<{ token: string }>;
  const fields: Record<string, unknown> = {
    login_info: encodeLoginInfo(username, hashPasswordForLogin(password)),
    token: page.data.token,
    captcha_code: CAPTCHA,
    pe_signals: 'bench',
    timestamp: Date.now(),
  };
  const res = await fetch(`${base}/rest/index/login/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...fields, signature: signPayload(fields) }),
  });
  const env = (await res.json()) as Envelope<{ token: string }>;
  if (env.code !== 200) throw new Error(`login ${username}: ${env.code} ${env.msg}`);
  return env.data.token;
}

export function median(xs: number[]): number {
  return quantile(xs, 0.5);
}
export function quantile(xs: number[], q: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}

/** A fixed-width text table. */
export function table(head: string[], rows: (string | number)[][]): string {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const w = head.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => '| ' + r.map((c, i) => c.padEnd(w[i]!)).join(' | ') + ' |';
  return [line(cells[0]!), '| ' + w.map((n) => '-'.repeat(n)).join(' | ') + ' |', ...cells.slice(1).map(line)].join(
    '\n',
  );
}
