// GB/T 28181 registration and keepalive load (issue 16 section 4): N simulated devices
// (@bwc/simulator/gb, one GbSimHub, UDP, paced startAll) register with digest (REGISTER -> 401,
// REGISTER with credentials -> 200) at the real GbSipPlatform in a child process, then keep alive
// every --interval s for --hold keepalive intervals. Printed: registrations/s over the whole ramp,
// keepalives answered against those the devices sent, devices the platform holds at the end,
// retransmissions, the platform's RSS and CPU, and the bench's (the devices') CPU. The anchor, in
// the same run: a bare UDP request/answer round trip between two node processes on loopback (an
// echo server in its own process; the floor of any SIP exchange here), one at a time and with as
// many in flight as the ramp had.
//
//   npx tsx bench/gb-register.ts [--devices 10000] [--interval 15] [--hold 3] [--rate 1000]
import { spawn, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { GbSimHub, type GbDevice } from '@bwc/simulator/gb';
import { GbSipPlatform } from '../apps/server/src/modules/gb28181/sip';
import { cpuOf, ROOT } from './support';

const PLATFORM_ID = '34020000002000000001';
const DOMAIN = '3402000000';
const PASSWORD = '12345678';

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '10000' },
    /** keepalive interval, s (the devices' and the platform's) */
    interval: { type: 'string', default: '15' },
    /** how many keepalive intervals to hold all devices */
    hold: { type: 'string', default: '3' },
    /** devices started per second (GbSimHub.startAll pacing) */
    rate: { type: 'string', default: '1000' },
    /** internal: run as the platform process */
    platform: { type: 'boolean', default: false },
  },
});
const INTERVAL = Number(values.interval);

/** VmRSS of a process in MB (/proc, Linux). */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Datagrams the kernel dropped at the UDP socket bound to `port` (full receive buffer), from /proc/net/udp. */
function udpDrops(port: number): number {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  for (const line of readFileSync('/proc/net/udp', 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f[1]?.endsWith(hex)) return Number(f[f.length - 1]);
  }
  return NaN;
}

interface PlatformStats {
  registered: number;
  online: number;
  keepalives: number;
  offline: number;
  unregistered: number;
}

function startPlatform(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), '--platform', '--interval', String(INTERVAL)],
    { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  return new Promise((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve({ child, port: m.port }));
    child.once('exit', (code) => reject(new Error(`platform exited with ${code}`)));
  });
}

function platformStats(child: ChildProcess): Promise<PlatformStats> {
  return new Promise((resolve) => {
    child.once('message', (m: PlatformStats) => resolve(m));
    child.send('stats');
  });
}

const ECHO_SERVER = `
const s = require('node:dgram').createSocket('udp4');
s.on('message', (m, r) => s.send(m, r.port, r.address));
s.bind(0, '127.0.0.1', () => { s.setRecvBufferSize(4 * 1024 * 1024); process.stdout.write(s.address().port + '\\n'); });
`;

/**
 * Anchor: request/answer round trips over UDP on loopback to an echo server in its own process,
 * `inFlight` at a time, for `seconds`. A lost datagram is sent again after 500 ms (as SIP would).
 */
async function udpRoundTrips(
  inFlight: number,
  seconds: number,
): Promise<{ perSec: number; lost: number; echoCpu: number; clientCpu: number }> {
  const echo = spawn(process.execPath, ['-e', ECHO_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((r) => echo.stdout!.once('data', (d: Buffer) => r(Number(String(d)))));
  const sock = dgram.createSocket('udp4');
  await new Promise<void>((r) => sock.bind(0, '127.0.0.1', () => r()));
  sock.setRecvBufferSize(4 * 1024 * 1024);
  // a datagram of a REGISTER's size
  const payload = Buffer.alloc(520, 0x41);
  const timers = new Map<number, NodeJS.Timeout>();
  let seq = 0;
  let done = 0;
  let lost = 0;
  let running = true;
  const send = (id: number) => {
    // a copy each: send() reads the buffer later
    const msg = Buffer.from(payload);
    msg.writeUInt32BE(id, 0);
    sock.send(msg, port, '127.0.0.1');
    timers.set(
      id,
      setTimeout(() => {
        lost++;
        send(id);
      }, 500),
    );
  };
  const cpu0 = { echo: cpuOf(echo.pid!), client: cpuOf(process.pid) };
  const t0 = performance.now();
  sock.on('message', (m) => {
    const id = m.readUInt32BE(0);
    const t = timers.get(id);
    if (!t) return;
    clearTimeout(t);
    timers.delete(id);
    done++;
    if (running) send(seq++);
  });
  for (let i = 0; i < inFlight; i++) send(seq++);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  running = false;
  const ms = performance.now() - t0;
  const cpu = { echo: cpuOf(echo.pid!) - cpu0.echo, client: cpuOf(process.pid) - cpu0.client };
  for (const t of timers.values()) clearTimeout(t);
  sock.close();
  echo.kill();
  return { perSec: done / (ms / 1000), lost, echoCpu: cpu.echo, clientCpu: cpu.client };
}

async function main() {
  const N = Number(values.devices);
  const RATE = Number(values.rate);
  const HOLD = Number(values.hold);
  console.log(
    `GB28181 registration: ${N} UDP devices, digest, paced at ${RATE}/s, keepalive every ${INTERVAL} s, held ${HOLD} intervals`,
  );

  // anchor first, on the idle pair of processes
  const single = await udpRoundTrips(1, 3);
  const windowed = await udpRoundTrips(Math.max(1, Math.round(RATE / 10)), 3);

  const { child, port } = await startPlatform();
  const hub = new GbSimHub({ host: '127.0.0.2', ffmpeg: null, font: null });
  await hub.start();
  const devices: GbDevice[] = [];
  let kaOk = 0;
  let kaOther = 0;
  const kaStatus = new Map<number, number>();
  const failures = new Map<number, number>();
  let reRegistered = 0;
  for (let i = 0; i < N; i++) {
    const d = hub.device({
      deviceId: `3402000000132${String(i + 1).padStart(7, '0')}`,
      password: PASSWORD,
      server: { id: PLATFORM_ID, domain: DOMAIN, host: '127.0.0.1', port },
      keepaliveIntervalSec: INTERVAL,
      expires: 3600,
      channels: 1,
    });
    d.on('keepalive', ({ status }) => {
      if (status === 200) kaOk++;
      else {
        kaOther++;
        kaStatus.set(status, (kaStatus.get(status) ?? 0) + 1);
      }
    });
    d.on('registerFailed', ({ status }) => failures.set(status, (failures.get(status) ?? 0) + 1));
    let first = true;
    d.on('registered', () => {
      if (!first) reRegistered++;
      first = false;
    });
    devices.push(d);
  }

  const serverRss0 = rssMb(child.pid!);
  const cpu0 = { server: cpuOf(child.pid!), bench: cpuOf(process.pid) };
  const t0 = performance.now();
  const registered = await hub.startAll(devices, RATE);
  const rampMs = performance.now() - t0;
  const cpuRamp = { server: cpuOf(child.pid!) - cpu0.server, bench: cpuOf(process.pid) - cpu0.bench };
  const afterRamp = await platformStats(child);
  const retransRamp = hub.stats().retransmissions;
  const dropsRamp = { platform: udpDrops(port), devices: udpDrops(hub.sipPort) };
  const serverRssRamp = rssMb(child.pid!);
  console.log(
    `  ramp: ${registered} of ${N} registered in ${(rampMs / 1000).toFixed(1)} s; platform holds ${afterRamp.online}; retransmissions ${retransRamp}`,
  );

  // hold: keepalives only
  const kaOk0 = kaOk;
  const kaOther0 = kaOther;
  const plat0 = afterRamp.keepalives;
  const cpuH0 = { server: cpuOf(child.pid!), bench: cpuOf(process.pid) };
  const h0 = performance.now();
  let serverRssMax = serverRssRamp;
  for (let s = 0; s < HOLD * INTERVAL; s += 5) {
    await new Promise((r) => setTimeout(r, 5000));
    serverRssMax = Math.max(serverRssMax, rssMb(child.pid!));
    const st = await platformStats(child);
    console.log(
      `  hold ${Math.round((performance.now() - h0) / 1000)} s: platform holds ${st.online}, keepalives answered ${kaOk - kaOk0}, not ${kaOther - kaOther0}`,
    );
  }
  const holdMs = performance.now() - h0;
  const cpuHold = { server: cpuOf(child.pid!) - cpuH0.server, bench: cpuOf(process.pid) - cpuH0.bench };
  const end = await platformStats(child);
  const stats = hub.stats();
  const dropsEnd = { platform: udpDrops(port), devices: udpDrops(hub.sipPort) };
  const benchRss = process.memoryUsage().rss / 1024 / 1024;
  const sent = kaOk - kaOk0 + (kaOther - kaOther0);
  const regPerSec = registered / (rampMs / 1000);

  console.log('');
  console.log('figure | ours | anchor (same run) | anchor value | ratio ours/anchor | goal | goal met');
  console.log(
    `registrations/s over the ramp (401 + digest 200 each, paced at ${RATE}/s) | ${regPerSec.toFixed(0)} | bare UDP round trips/s, ${Math.max(1, Math.round(RATE / 10))} in flight | ${windowed.perSec.toFixed(0)} | ${(regPerSec / windowed.perSec).toFixed(3)} | - | -`,
  );
  console.log(
    `SIP round trips/s over the ramp (2 per registration) | ${(2 * regPerSec).toFixed(0)} | bare UDP round trips/s, 1 in flight | ${single.perSec.toFixed(0)} | ${((2 * regPerSec) / single.perSec).toFixed(2)} | - | -`,
  );
  console.log(
    `devices registered / held by the platform at the end | ${registered} / ${end.online} | WVP (quoted, LAN server) | 50,000+ | - | ${N} | ${end.online >= 10_000 && end.online === N ? 'met' : 'NOT met'}`,
  );
  console.log(
    `keepalives answered / sent by the devices in ${(holdMs / 1000).toFixed(0)} s | ${kaOk - kaOk0} / ${sent} | expected ${N} x ${HOLD} intervals | ~${N * HOLD} | - | all answered | ${sent > 0 && kaOther === kaOther0 ? 'met' : 'NOT met'}`,
  );
  console.log(`keepalives the platform counted in the hold | ${end.keepalives - plat0} | - | - | - | - | -`);
  console.log(`retransmissions (ramp / whole run) | ${retransRamp} / ${stats.retransmissions} | - | - | - | - | -`);
  console.log(
    `UDP datagrams the kernel dropped (full receive buffer) at the platform's / the devices' socket, ramp / whole run | ${dropsRamp.platform} / ${dropsRamp.devices}, ${dropsEnd.platform} / ${dropsEnd.devices} | - | - | - | - | -`,
  );
  console.log(
    `offline / re-registered / register failures | ${end.offline} / ${reRegistered} / ${[...failures].map(([k, v]) => `${k}:${v}`).join(' ') || 0} | - | - | - | - | -`,
  );
  console.log(
    `platform RSS MB (start / after ramp / max in hold) | ${serverRss0.toFixed(0)} / ${serverRssRamp.toFixed(0)} / ${serverRssMax.toFixed(0)} | - | - | - | - | -`,
  );
  console.log(
    `platform CPU, ms per registration | ${((cpuRamp.server * 1000) / Math.max(1, registered)).toFixed(3)} | echo server CPU ms per round trip (${Math.max(1, Math.round(RATE / 10))} in flight) | ${((windowed.echoCpu * 1000) / (windowed.perSec * 3)).toFixed(3)} | ${((cpuRamp.server * 1000) / Math.max(1, registered) / ((windowed.echoCpu * 1000) / (windowed.perSec * 3))).toFixed(1)} | - | -`,
  );
  console.log(
    `platform CPU in the hold, % of a core (${((sent / holdMs) * 1000).toFixed(0)} keepalives/s) | ${((cpuHold.server / (holdMs / 1000)) * 100).toFixed(1)} | - | - | - | - | -`,
  );
  console.log(
    `CPU s, platform / devices (bench): ramp ${cpuRamp.server.toFixed(1)} / ${cpuRamp.bench.toFixed(1)}, hold ${cpuHold.server.toFixed(1)} / ${cpuHold.bench.toFixed(1)}; bench RSS ${benchRss.toFixed(0)} MB`,
  );
  console.log(
    `anchor detail: 1 in flight ${single.perSec.toFixed(0)}/s (${single.lost} resent); ${Math.max(1, Math.round(RATE / 10))} in flight ${windowed.perSec.toFixed(0)}/s (${windowed.lost} resent), echo CPU ${windowed.echoCpu.toFixed(2)} s, client CPU ${windowed.clientCpu.toFixed(2)} s in 3 s`,
  );
  if (kaStatus.size)
    console.log(`keepalive answers other than 200: ${[...kaStatus].map(([k, v]) => `${k}:${v}`).join(' ')}`);

  await hub.stop(5000);
  child.send('stop');
  await new Promise((r) => child.once('exit', r));
}

async function platformMain() {
  // ---- the platform process: GbSipPlatform on a free port, real digest, counters over IPC
  const counts = { registered: 0, keepalives: 0, offline: 0, unregistered: 0 };
  const platform = new GbSipPlatform({
    platformId: PLATFORM_ID,
    domain: DOMAIN,
    host: '127.0.0.1',
    port: 0,
    transports: { udp: true, tcp: false },
    passwordFor: async () => PASSWORD,
    keepaliveIntervalSec: INTERVAL,
    keepaliveTimeoutCount: 3,
    log: { warn: (o: unknown, msg?: string) => console.error('platform:', msg ?? o) },
  });
  platform.on('registered', (e) => {
    if (!e.refresh) counts.registered++;
  });
  platform.on('keepalive', () => counts.keepalives++);
  platform.on('offline', () => counts.offline++);
  platform.on('unregistered', () => counts.unregistered++);
  await platform.start();
  process.on('message', (m: string) => {
    if (m === 'stats') {
      const s: PlatformStats = { ...counts, online: platform.listDevices().length };
      process.send!(s);
    }
    if (m === 'stop') void platform.stop().then(() => process.exit(0));
  });
  process.send!({ port: platform.port });
}

if (values.platform) await platformMain();
else await main();
