/**
 * Live viewers per core: HTTP-FLV viewers of one ~1 Mbit/s stream that the project's media gateway
 * serves from ONE Node process, beside node-media-server 4.4 alone relaying the same stream on the
 * same machine in the same run (goal in bench/README.md, "Live video").
 *
 *   npx tsx bench/live-viewers.ts [--steps 50,100,200,300,400,600,800,1000,1500,2000,3000,4000] [--window 5] [--settle 3]
 *
 * 1. Encodes once a 20 s file (testsrc2 640x360 15 fps with noise so that x264 fills its rate,
 *    ~0.9 Mbit/s CBR video + 64 kbit/s AAC, keyframe every second); its bytes / duration is the
 *    stream's rate every viewer must keep up with.
 * 2. Server A: the project's server (apps/server/src/main.ts, production mode, a child process)
 *    with RTMP_PORT; one ffmpeg loops the file into it with `-re -stream_loop -1 -c copy` (no
 *    encoding while measuring) using a signed publish key.
 *    Server B (anchor): node-media-server 4.4 alone (its bin/app.js, a child process), fed by the
 *    same looping ffmpeg command. A and B run one after the other, never at once.
 * 3. THIS process is the load: raw TCP sockets sending one GET each and counting the bytes that
 *    arrive (no FLV or HTTP parsing). At each step it opens the viewers that are missing, waits
 *    `--settle` s, then over `--window` s reads the server's CPU (/proc/<pid>/stat, all its threads)
 *    and every viewer's bytes. A step is SUSTAINED when the server used < 100 % of one core and
 *    every viewer received >= 90 % of the stream's rate with none closed. The ramp of a server stops
 *    at its first step that is not sustained.
 * The load generator and ffmpeg share the machine's 2 cores with the server: their CPU is printed.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ChildProcess } from 'node:child_process';
import { freePort } from './support';
import {
  FFMPEG,
  cpuSecondsOf,
  killAll,
  prepareLive,
  sleep,
  spawnTracked,
  startNms,
  startOurs,
  table,
  until,
} from './live-support';

const { values } = parseArgs({
  options: {
    steps: { type: 'string', default: '50,100,200,300,400,600,800,1000,1500,2000,3000,4000' },
    window: { type: 'string', default: '5' },
    settle: { type: 'string', default: '3' },
  },
});
const STEPS = String(values.steps).split(',').map(Number);
const WINDOW_S = Number(values.window);
const SETTLE_S = Number(values.settle);
const FILE_S = 20;
const KEEP_UP = 0.9;

const load = () => loadavg()[0]!.toFixed(2);
const work = mkdtempSync(join(tmpdir(), 'bwc-live-viewers-'));

interface Viewer {
  socket: Socket;
  bytes: number;
  status: string;
  closed: boolean;
}

function openViewer(port: number, path: string): Viewer {
  const v: Viewer = { socket: connect(port, '127.0.0.1'), bytes: 0, status: '', closed: false };
  v.socket.setNoDelay(true);
  v.socket.on('connect', () =>
    v.socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n\r\n`),
  );
  v.socket.on('data', (d: Buffer) => {
    if (!v.status) v.status = d.subarray(0, 12).toString('latin1');
    v.bytes += d.length;
  });
  v.socket.on('error', () => {});
  v.socket.on('close', () => (v.closed = true));
  return v;
}

interface Step {
  viewers: number;
  cpu: number;
  loadgenCpu: number;
  ffmpegCpu: number;
  minRate: number;
  medianRate: number;
  behind: number;
  closed: number;
  /** viewers whose GET had no answer yet at the end of the window */
  unanswered: number;
  sustained: boolean;
  load: string;
}

async function ramp(
  name: string,
  server: ChildProcess,
  publisher: ChildProcess,
  port: number,
  path: string,
  rate: number,
) {
  const viewers: Viewer[] = [];
  const steps: Step[] = [];
  for (const n of STEPS) {
    while (viewers.length < n) {
      // in batches, as consoles would come
      const batch = Math.min(50, n - viewers.length);
      for (let i = 0; i < batch; i++) viewers.push(openViewer(port, path));
      await sleep(100);
    }
    await until(`${name}: ${n} viewers answered`, () => viewers.every((v) => v.status || v.closed), 30_000).catch(
      () => undefined,
    );
    const refused = viewers.filter((v) => v.status && !v.status.includes(' 200')).length;
    if (refused)
      console.log(
        `  ${name}: ${refused} viewers refused (${viewers.find((v) => v.status && !v.status.includes(' 200'))?.status})`,
      );
    await sleep(SETTLE_S * 1000);
    const b0 = viewers.map((v) => v.bytes);
    const c0 = cpuSecondsOf(server.pid!);
    const f0 = cpuSecondsOf(publisher.pid!);
    const l0 = process.cpuUsage();
    const t0 = performance.now();
    await sleep(WINDOW_S * 1000);
    const s = (performance.now() - t0) / 1000;
    const cpu = (cpuSecondsOf(server.pid!) - c0) / s;
    const ffmpegCpu = (cpuSecondsOf(publisher.pid!) - f0) / s;
    const l = process.cpuUsage(l0);
    const loadgenCpu = (l.user + l.system) / 1e6 / s;
    const rates = viewers.map((v, i) => (v.bytes - b0[i]!) / s);
    const sorted = [...rates].sort((a, b) => a - b);
    const closed = viewers.filter((v) => v.closed).length;
    const behind = rates.filter((r) => r < KEEP_UP * rate).length;
    const step: Step = {
      viewers: n,
      cpu,
      loadgenCpu,
      ffmpegCpu,
      minRate: sorted[0]!,
      medianRate: sorted[Math.floor(sorted.length / 2)]!,
      behind,
      closed,
      unanswered: viewers.filter((v) => !v.status).length,
      sustained: cpu < 1 && behind === 0 && closed === 0 && refused === 0,
      load: load(),
    };
    steps.push(step);
    console.log(
      `  ${name} ${n} viewers: server CPU ${(cpu * 100).toFixed(0)} % of a core, per viewer min ${((step.minRate * 8) / 1e6).toFixed(2)} / median ${((step.medianRate * 8) / 1e6).toFixed(2)} Mbit/s (stream ${((rate * 8) / 1e6).toFixed(2)}), behind ${behind} (of which ${step.unanswered} never answered), closed ${closed}, load generator ${(loadgenCpu * 100).toFixed(0)} %, ffmpeg ${(ffmpegCpu * 100).toFixed(0)} %, load ${step.load}${step.sustained ? '' : '  <- NOT sustained'}`,
    );
    if (!step.sustained) {
      if (cpu < 1)
        console.log(
          `  (${name} had CPU left at ${n}: the viewers short of the rate were not held back by the server's core but by connection set-up or the load generator, which shares the 2 cores)`,
        );
      break;
    }
  }
  for (const v of viewers) v.socket.destroy();
  return steps;
}

function loop(url: string): ChildProcess {
  const child = spawnTracked(FFMPEG, [
    ...['-hide_banner', '-loglevel', 'error', '-re', '-stream_loop', '-1', '-i', join(work, 'stream.flv')],
    ...['-c', 'copy', '-f', 'flv', url],
  ]);
  let said = '';
  child.stderr?.setEncoding('utf8').on('data', (t: string) => (said += t));
  child.once('exit', (code) => {
    if (code) console.log(`  publisher ffmpeg ended with ${code}: ${said.trim().slice(-300)}`);
  });
  return child;
}

/** Until one viewer gets 200 and 20 kB of the stream. */
async function waitForStream(port: number, path: string): Promise<void> {
  await until(
    `a viewer of ${path.split('?')[0]} on ${port} gets the stream`,
    async () => {
      const v = openViewer(port, path);
      await sleep(1000);
      v.socket.destroy();
      return v.status.includes(' 200') && v.bytes > 20_000;
    },
    20_000,
  );
}

/** Server CPU at the largest step both servers sustained: the like-for-like row. */
function common(a: Step[], b: Step[]): string[][] {
  const both = a.filter((x) => x.sustained && b.some((y) => y.sustained && y.viewers === x.viewers));
  const x = both[both.length - 1];
  if (!x) return [];
  const y = b.find((s) => s.viewers === x.viewers)!;
  return [
    [
      `server CPU at ${x.viewers} viewers (both sustained, % of a core)`,
      (x.cpu * 100).toFixed(0),
      '-',
      (y.cpu * 100).toFixed(0),
      `${(y.cpu / x.cpu).toFixed(2)} (nms CPU / ours)`,
      '-',
    ],
  ];
}

const best = (steps: Step[]) => [...steps].reverse().find((s) => s.sustained) ?? null;

let exitCode = 0;
try {
  console.log(`live-viewers: node ${process.version}, load ${load()} at start, ${new Date().toISOString()}`);
  // 1. the stream, encoded once
  const enc = spawnTracked(FFMPEG, [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `testsrc2=size=640x360:rate=15,noise=alls=12:allf=t`],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100', '-t', String(FILE_S)],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'baseline', '-pix_fmt', 'yuv420p'],
    ...['-g', '15', '-keyint_min', '15', '-sc_threshold', '0'],
    ...['-b:v', '900k', '-minrate', '900k', '-maxrate', '900k', '-bufsize', '900k', '-x264-params', 'nal-hrd=cbr'],
    ...['-c:a', 'aac', '-b:a', '64k', '-ac', '1', '-f', 'flv', join(work, 'stream.flv')],
  ]);
  enc.stderr?.resume();
  const encCode = await new Promise<number | null>((r) => enc.once('exit', r));
  if (encCode !== 0) throw new Error(`encoding the stream failed (${encCode})`);
  const rate = statSync(join(work, 'stream.flv')).size / FILE_S;
  console.log(
    `stream: ${((rate * 8) / 1e6).toFixed(3)} Mbit/s (file bytes / ${FILE_S} s), keep-up threshold ${KEEP_UP * 100} %`,
  );

  // 2a. ours
  const dataDir = join(work, 'data');
  const prepared = await prepareLive(dataDir, 1);
  const device = prepared.devices[0]!;
  const port = await freePort();
  const rtmpPort = await freePort();
  const ours = await startOurs(dataDir, port, rtmpPort);
  const pub = loop(
    `rtmp://127.0.0.1:${rtmpPort}/live/${device.id}?key=${encodeURIComponent(prepared.publishKey(device.id, 600_000))}`,
  );
  const token = prepared.playToken(prepared.adminId, device.id, 3_600_000);
  const ourPath = `/live/${device.id}.flv?token=${token}`;
  // publishing once a viewer is admitted
  await waitForStream(port, ourPath);
  await sleep(2000);
  console.log('ours (apps/server media gateway, one Node process):');
  const oursSteps = await ramp('ours', ours, pub, port, ourPath, rate);
  pub.kill('SIGKILL');
  ours.kill('SIGTERM');
  await new Promise((r) => (ours.exitCode !== null ? r(null) : ours.once('exit', r)));

  // 2b. node-media-server alone
  const nmsRtmp = await freePort();
  const nmsHttp = await freePort();
  const nms = await startNms(work, nmsRtmp, nmsHttp);
  const pub2 = loop(`rtmp://127.0.0.1:${nmsRtmp}/live/bench`);
  await waitForStream(nmsHttp, '/live/bench.flv');
  await sleep(2000);
  console.log('node-media-server 4.4 alone (one Node process):');
  const nmsSteps = await ramp('nms', nms, pub2, nmsHttp, '/live/bench.flv', rate);
  pub2.kill('SIGKILL');
  nms.kill('SIGKILL');

  // 3. the table
  const o = best(oursSteps);
  const m = best(nmsSteps);
  const perCore = (s: Step | null) => (s ? s.viewers / s.cpu : NaN);
  const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '-');
  const topTested = (steps: Step[]) => steps[steps.length - 1]?.viewers ?? 0;
  console.log(`\nRESULT (load ${load()} at the end; load generator, ffmpeg and the server share 2 cores)`);
  console.log(
    table(
      ['figure', 'ours', 'goal', 'anchor: node-media-server 4.4', 'ratio ours/nms', 'goal met'],
      [
        [
          'largest sustained step (viewers)',
          `${o?.viewers ?? 0}${o && o.viewers === topTested(oursSteps) && oursSteps.every((s) => s.sustained) ? ' (highest tested)' : ''}`,
          '-',
          `${m?.viewers ?? 0}${m && m.viewers === topTested(nmsSteps) && nmsSteps.every((s) => s.sustained) ? ' (highest tested)' : ''}`,
          m?.viewers ? ((o?.viewers ?? 0) / m.viewers).toFixed(2) : '-',
          '-',
        ],
        [
          'server CPU at that step (% of a core)',
          o ? (o.cpu * 100).toFixed(0) : '-',
          '< 100',
          m ? (m.cpu * 100).toFixed(0) : '-',
          '-',
          '-',
        ],
        ...common(oursSteps, nmsSteps),
        [
          'viewers per core at that step',
          fmt(perCore(o)),
          '>= 200',
          fmt(perCore(m)),
          Number.isFinite(perCore(o) / perCore(m)) ? (perCore(o) / perCore(m)).toFixed(2) : '-',
          `${perCore(o) >= 200 ? 'met' : 'NOT met'}; ratio >= 1.0 ${perCore(o) / perCore(m) >= 1 ? 'met' : 'NOT met'}`,
        ],
      ],
    ),
  );
} catch (err) {
  console.error('live-viewers failed:', err);
  exitCode = 1;
} finally {
  killAll();
  await sleep(300);
  rmSync(work, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}
process.exit(exitCode);
