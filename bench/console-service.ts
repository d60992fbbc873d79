/**
 * Console service benchmark (goal in bench/README.md).
 *
 *   npx tsx bench/console-service.ts [--consoles 500] [--terminals 5000] [--units 10] [--seconds 60]
 *        [--warmup 10] [--gps-every 5] [--im-every 60] [--emergencies 6] [--echo-seconds 15] [--port N]
 *        [--cpu-prof DIR]
 *   quick: npx tsx bench/console-service.ts --consoles 20 --terminals 200 --seconds 15 --warmup 5
 *
 * 1. Prepares a SQLite database in a temp DATA_DIR (migrations, demo seed, a licence for the run)
 *    and a bench-only set-up through the server's own helpers: `--units` units under the root, in
 *    each `consoles/units` console users (a role with view on Emergency, scoped to that unit, each
 *    logged in over HTTP once: their console-service account comes from gis info) and
 *    `terminals/units` devices with a cluster number. So each console sees its own unit's
 *    terminals only, as dispatchers do.
 * 2. Baseline, same machine, same run: a bare websocket echo server (`ws`, a child process) with as
 *    many connections; its memory per connection, then for `--echo-seconds` the terminals' message
 *    rate echoed (round trip p50/p99), then every connection keeping one message in flight
 *    (messages per second it can echo).
 * 3. The REAL server (apps/server/src/main.ts, a child process) on `--port`; every console and
 *    terminal logs on at /ws/console (consoles with their gis-info account, terminals with their
 *    device credentials); server RSS before and after = memory per connection.
 * 4. Load for `--warmup` + `--seconds`: each terminal reports a fix every `--gps-every` s and sends
 *    one text a minute (`--im-every`) to a console of its unit; `--emergencies` spread over the
 *    measured seconds; everybody heartbeats every 10 s as the SDK does. Only what was sent in the
 *    measured seconds is counted; 5 s after it, the figures: notices delivered per second; latency
 *    per kind from the moment the bench sent the request to each console's receipt (gps: report ->
 *    notice_gps carrying that fix, which the service merges per console up to once a second; im:
 *    req_send_im -> notice_im; emergency: req_emergency -> notice_emergency), p50 / p99 / max;
 *    expected vs received deliveries per kind (waiting until all came or none came for 10 s);
 *    gps notices per console per second, and those received less than 0.9 s apart; CPU seconds of the server and of the bench, load average.
 * No timing assertion: this prints what it measures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CONSOLE_WS_PATH, imeiWithCheckDigit, ImType, MenuId } from '@bwc/protocol';
import { now } from '../apps/server/src/db/connection';
import { insertNewDevice } from '../apps/server/src/modules/devices/devices.service';
import { groupApiOf } from '../apps/server/test/console-fixtures';
import { createRole, createUser, login } from '../apps/server/test/helpers';
import { WebSocket, type WsClient } from '@bwc/simulator/ws';
import { freePort, prepareDataDir, ROOT, startServer } from './support';

type Ws = WsClient;

const { values } = parseArgs({
  options: {
    consoles: { type: 'string', default: '500' },
    terminals: { type: 'string', default: '5000' },
    units: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '10' },
    'gps-every': { type: 'string', default: '5' },
    'im-every': { type: 'string', default: '60' },
    emergencies: { type: 'string', default: '6' },
    'echo-seconds': { type: 'string', default: '15' },
    port: { type: 'string', default: process.env.BENCH_PORT ?? '' },
    'cpu-prof': { type: 'string', default: '' },
  },
});
const CONSOLES = Number(values.consoles);
const TERMINALS = Number(values.terminals);
const UNITS = Number(values.units);
const SECONDS = Number(values.seconds);
const WARMUP = Number(values.warmup);
const GPS_MS = Number(values['gps-every']) * 1000;
const IM_MS = Number(values['im-every']) * 1000;
const EMERGENCIES = Number(values.emergencies);
const ECHO_SECONDS = Number(values['echo-seconds']);
const HEARTBEAT_MS = 10_000;
if (CONSOLES % UNITS || TERMINALS % UNITS) throw new Error('--consoles and --terminals must be multiples of --units');

interface Account {
  unit: number;
  logon_name: string;
  passwd: string;
  orgid?: string;
}

async function prepare(dataDir: string): Promise<{ consoles: Account[]; terminals: Account[] }> {
  const app = await prepareDataDir(dataDir, { workstations: CONSOLES + 10, devices: TERMINALS + 100 }, '1234');
  const root = (
    await app.db.selectFrom('units').select('id').where('pid', '=', 0).orderBy('id').executeTakeFirstOrThrow()
  ).id;
  const role = await createRole(app.db, 'bench dispatcher', [{ ids: [MenuId.EMERGENCY], actions: ['view'] }]);
  const consoles: Account[] = [];
  const terminals: Account[] = [];
  for (let u = 0; u < UNITS; u++) {
    const bh = `4499${String(u + 1).padStart(8, '0')}`;
    await app.db
      .insertInto('units')
      .values({ pid: root, bh, name: `bench unit ${u + 1}`, sort: 900 + u, created: now() })
      .execute();
    const unitId = (await app.db.selectFrom('units').select('id').where('bh', '=', bh).executeTakeFirstOrThrow()).id;
    for (let i = 0; i < TERMINALS / UNITS; i++) {
      const n = u * (TERMINALS / UNITS) + i + 1;
      const hostbody = `BT${String(n).padStart(6, '0')}`;
      const { secret } = await insertNewDevice(app.db, {
        hostbody,
        imei: imeiWithCheckDigit(`8699${String(n).padStart(10, '0')}`),
        hostname: `bench ${n}`,
        hostcode: `B${n}`,
        jq_hostcode: String(600000 + n),
        unit_id: unitId,
      });
      terminals.push({ unit: u, logon_name: hostbody, passwd: secret });
    }
    for (let i = 0; i < CONSOLES / UNITS; i++) {
      const n = u * (CONSOLES / UNITS) + i;
      const user = await createUser(app.db, { roleId: role, unitBh: bh, username: `bench_desk_${n}` });
      const session = await login(app, user.username, user.password, `10.9.${n >> 8}.${n & 255}`);
      const account = await groupApiOf(app, session);
      consoles.push({ unit: u, logon_name: account.username, passwd: account.djpwd, orgid: account.orgid });
    }
  }
  await app.close();
  return { consoles, terminals };
}

/** Resident memory of a process, bytes (/proc, Linux). */
function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) * 1024;
}
/** CPU seconds (user + system) a process used so far (/proc, Linux). */
function cpuOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** p50 / p99 / max of latencies in ms. */
function summary(samples: number[]): string {
  if (!samples.length) return 'no samples';
  const s = Float64Array.from(samples).sort();
  const at = (p: number) => s[Math.min(s.length - 1, Math.floor(s.length * p))]!;
  return `p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${s[s.length - 1]!.toFixed(1)} ms (${s.length.toLocaleString('en')} samples)`;
}

/** Open `n` sockets to `url`, at most 100 opening at once; `each` sets one up once open. */
async function openAll(n: number, url: string, each: (ws: Ws, i: number) => Promise<void>): Promise<Ws[]> {
  const sockets: Ws[] = new Array<Ws>(n);
  let next = 0;
  async function lane(): Promise<void> {
    while (next < n) {
      const i = next++;
      const ws = new WebSocket(url);
      await new Promise<void>((res, rej) => {
        ws.on('open', () => res());
        ws.on('error', rej);
      });
      sockets[i] = ws;
      await each(ws, i);
    }
  }
  await Promise.all(Array.from({ length: Math.min(100, n) }, lane));
  return sockets;
}

// ---------------------------------------------------------------------------------------------
// baseline: a bare websocket echo server

const ECHO_SOURCE = `
const { WebSocketServer } = require('ws');
const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' }, () => console.log('port ' + wss.address().port));
wss.on('connection', (ws) => ws.on('message', (data, binary) => ws.send(data, { binary })));
`;

async function echoBaseline(connections: number, ratePerS: number): Promise<string[]> {
  const child: ChildProcess = spawn(process.execPath, ['-e', ECHO_SOURCE], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const port = await new Promise<number>((res, rej) => {
      child.stdout!.on('data', (c: Buffer) => {
        const m = /port (\d+)/.exec(c.toString());
        if (m) res(Number(m[1]));
      });
      child.once('exit', (code) => rej(new Error(`echo server exited ${code}`)));
    });
    await sleep(300);
    const rssBefore = rssOf(child.pid!);
    const pending = new Map<number, number>();
    const rtts: number[] = [];
    let echoed = 0;
    let inFlightMode = false;
    let seq = 0;
    const sockets = await openAll(connections, `ws://127.0.0.1:${port}/`, async (ws) => {
      ws.on('message', (data) => {
        const m = JSON.parse(data.toString()) as { seq: number };
        echoed += 1;
        const sent = pending.get(m.seq);
        if (sent !== undefined) {
          pending.delete(m.seq);
          if (!inFlightMode) rtts.push(performance.now() - sent);
        }
        if (inFlightMode) send(ws);
      });
    });
    // a message the size of a terminal's gps report
    const body = JSON.stringify({
      msg_code: 'req_report_gps',
      cmd_type: 0,
      gps: [
        {
          time: new Date().toISOString(),
          lat: 22.5431234,
          lng: 114.0579123,
          speed: 4.2,
          course: 87,
          accuracy: 6.5,
          battery: 77,
        },
      ],
    });
    function send(ws: Ws): void {
      const s = ++seq;
      pending.set(s, performance.now());
      ws.send(`{"seq":${s},${body.slice(1)}`);
    }
    await sleep(500);
    const rssConnected = rssOf(child.pid!);
    // the terminals' rate, spread evenly
    const cpu0 = cpuOf(child.pid!);
    const t0 = performance.now();
    let due = 0;
    await new Promise<void>((res) => {
      const tick = setInterval(() => {
        const elapsed = performance.now() - t0;
        if (elapsed >= ECHO_SECONDS * 1000) {
          clearInterval(tick);
          res();
          return;
        }
        const target = Math.floor((elapsed / 1000) * ratePerS);
        for (; due < target; due++) send(sockets[due % sockets.length]!);
      }, 5);
    });
    await sleep(1000);
    const rateCpu = cpuOf(child.pid!) - cpu0;
    // saturation: every connection keeps one message in flight for 5 s
    inFlightMode = true;
    pending.clear();
    const before = echoed;
    const s0 = performance.now();
    for (const ws of sockets) send(ws);
    await sleep(5000);
    inFlightMode = false;
    const maxRate = (echoed - before) / ((performance.now() - s0) / 1000);
    for (const ws of sockets) ws.terminate();
    return [
      `echo baseline (bare ws server, same machine, ${connections.toLocaleString('en')} connections):`,
      `  memory ${((rssConnected - rssBefore) / connections / 1024).toFixed(1)} KiB per connection (RSS ${(rssBefore / 2 ** 20).toFixed(0)} -> ${(rssConnected / 2 ** 20).toFixed(0)} MiB)`,
      `  at the terminals' rate (${ratePerS.toFixed(0)} msgs/s for ${ECHO_SECONDS} s): round trip ${summary(rtts)}; echo server CPU ${rateCpu.toFixed(2)} s`,
      `  saturated (one message in flight per connection, 5 s): ${Math.round(maxRate).toLocaleString('en')} msgs/s echoed`,
    ];
  } finally {
    child.kill('SIGTERM');
  }
}

// ---------------------------------------------------------------------------------------------
// the console service

interface Sent {
  at: number;
  counted: boolean;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bwc-bench-console-'));
  const out: string[] = [];
  const print = (line: string) => {
    out.push(line);
    console.log(line);
  };
  let server: ChildProcess | null = null;
  try {
    print(
      `console service bench: ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), node ${process.version}, load ${load()}, ${new Date().toISOString()}`,
    );
    print(
      `${CONSOLES} consoles and ${TERMINALS} terminals in ${UNITS} units; gps every ${GPS_MS / 1000} s, one text every ${IM_MS / 1000} s per terminal, ${EMERGENCIES} emergencies; ${WARMUP} s warm-up + ${SECONDS} s measured`,
    );
    const t0 = Date.now();
    const { consoles, terminals } = await prepare(dataDir);
    print(`prepared in ${((Date.now() - t0) / 1000).toFixed(0)} s`);

    const ratePerS = TERMINALS / (GPS_MS / 1000) + TERMINALS / (IM_MS / 1000);
    for (const line of await echoBaseline(CONSOLES + TERMINALS, ratePerS)) print(line);

    const port = values.port ? Number(values.port) : await freePort();
    server = await startServer(
      dataDir,
      port,
      values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']] : [],
    );
    const pid = server.pid!;
    const url = `ws://127.0.0.1:${port}${CONSOLE_WS_PATH}`;
    await sleep(2000);
    const rssIdle = rssOf(pid);

    // figures
    const lat = { gps: [] as number[], im: [] as number[], emergency: [] as number[] };
    const expected = { gps: 0, im: 0, emergency: 0 };
    const received = { gps: 0, im: 0, emergency: 0 };
    let notices = 0;
    let gpsNoticesInWindow = 0;
    let noticesInWindow = 0;
    let closeGpsNotices = 0;
    let minGpsGap = Infinity;
    let errors = 0;
    let lastError = '';
    let measuring = false;
    const perUnitConsoles = CONSOLES / UNITS;
    /** per terminal uid: fixes sent, by their time (ms) */
    const gpsSent = new Map<number, Map<number, Sent>>();
    const imSent = new Map<string, Sent>();
    const emergencySent = new Map<string, Sent>();
    let serial = 0;
    const waiters = new Map<string, (m: Record<string, unknown>) => void>();

    function request(ws: Ws, code: string, payload: Record<string, unknown>): Promise<Record<string, unknown>> {
      const cbid = `b${++serial}`;
      return new Promise((res) => {
        waiters.set(cbid, res);
        ws.send(JSON.stringify({ msg_code: code, cmd_type: 0, cbid, ...payload }));
      });
    }
    function onMessage(m: Record<string, unknown>, now: number, state: { lastGps: number }): void {
      if (m.cmd_type === 1) {
        const w = waiters.get(m.cbid as string);
        if (w) {
          waiters.delete(m.cbid as string);
          w(m);
        }
        if (m.cmd_status !== 0) {
          errors += 1;
          lastError = `${String(m.msg_code)} ${String(m.cmd_status)} ${String(m.error_reason)}`;
        }
        return;
      }
      if (m.cmd_type !== 2) return;
      notices += 1;
      if (measuring) noticesInWindow += 1;
      switch (m.msg_code) {
        case 'notice_gps': {
          if (measuring) gpsNoticesInWindow += 1;
          // the service flushes at most once a second; receipt times jitter by the bench's own event loop
          if (state.lastGps && measuring) {
            if (now - state.lastGps < 900) closeGpsNotices += 1;
            minGpsGap = Math.min(minGpsGap, now - state.lastGps);
          }
          state.lastGps = now;
          for (const fix of m.gps as { uid: number; time: string }[]) {
            const sent = gpsSent.get(fix.uid)?.get(Date.parse(fix.time));
            if (sent?.counted) {
              received.gps += 1;
              lat.gps.push(now - sent.at);
            }
          }
          break;
        }
        case 'notice_im': {
          const sent = imSent.get((m.im as { content: string }).content);
          if (sent?.counted) {
            received.im += 1;
            lat.im.push(now - sent.at);
          }
          break;
        }
        case 'notice_emergency': {
          const sent = emergencySent.get(m.message as string);
          if (sent?.counted) {
            received.emergency += 1;
            lat.emergency.push(now - sent.at);
          }
          break;
        }
        default:
          break;
      }
    }

    const gpsQueue: { data: Buffer; now: number; state: { lastGps: number } }[] = [];
    let gpsDraining = false;
    function deferGps(data: Buffer, now: number, state: { lastGps: number }): void {
      gpsQueue.push({ data, now, state });
      if (gpsDraining) return;
      gpsDraining = true;
      setImmediate(drainGps);
    }
    function drainGps(): void {
      const until = performance.now() + 2;
      let next = 0;
      while (next < gpsQueue.length && performance.now() < until) {
        const { data, now, state } = gpsQueue[next++]!;
        onMessage(JSON.parse(data.toString()) as Record<string, unknown>, now, state);
      }
      gpsQueue.splice(0, next);
      if (gpsQueue.length) setImmediate(drainGps);
      else gpsDraining = false;
    }

    const heartbeats: NodeJS.Timeout[] = [];
    const logon = async (ws: Ws, a: Account, userType: number): Promise<number> => {
      const state = { lastGps: 0 };
      ws.on('message', (data: Buffer) => {
        const now = performance.now();
        // A console's gps notice carries its unit's fixes of the last second (~10 KB), and all 500
        // arrive together once a second: parsed here, they held this event loop 20-30 ms each
        // second and a text arriving meanwhile was stamped that much late (the bench's delay, not
        // the server's). They are stamped on arrival and parsed in slices between two polls.
        if (data.subarray(0, 64).includes('"notice_gps"') || data.subarray(-64).includes('"notice_gps"'))
          deferGps(data, now, state);
        else onMessage(JSON.parse(data.toString()) as Record<string, unknown>, now, state);
      });
      const rsp = await request(ws, 'req_logon', {
        logon_name: a.logon_name,
        passwd: a.passwd,
        ...(a.orgid ? { orgid: a.orgid } : {}),
        user_type: userType,
        clientid: `bench-${a.logon_name}`,
      });
      if (rsp.cmd_status !== 0)
        throw new Error(`logon of ${a.logon_name}: ${String(rsp.cmd_status)} ${String(rsp.error_reason)}`);
      // heartbeats from the logon on, as the SDK does (the service closes connections silent for 60 s)
      heartbeats.push(setInterval(() => ws.send('{"msg_code":"heartbeat","cmd_type":0}'), HEARTBEAT_MS));
      return rsp.uid as number;
    };
    const c0 = Date.now();
    const consoleUids: number[] = new Array<number>(CONSOLES);
    const consoleSockets = await openAll(CONSOLES, url, async (ws, i) => {
      consoleUids[i] = await logon(ws, consoles[i]!, 1);
    });
    const terminalUids: number[] = new Array<number>(TERMINALS);
    const terminalSockets = await openAll(TERMINALS, url, async (ws, i) => {
      terminalUids[i] = await logon(ws, terminals[i]!, 0);
    });
    print(
      `logged on ${CONSOLES} consoles and ${TERMINALS} terminals in ${((Date.now() - c0) / 1000).toFixed(1)} s (${errors} refusals)`,
    );
    await sleep(3000);
    const rssConnected = rssOf(pid);
    const connections = CONSOLES + TERMINALS;
    print(
      `server memory: ${((rssConnected - rssIdle) / connections / 1024).toFixed(1)} KiB per logged-on connection (RSS ${(rssIdle / 2 ** 20).toFixed(0)} -> ${(rssConnected / 2 ** 20).toFixed(0)} MiB for ${connections.toLocaleString('en')})`,
    );

    // load
    const timers: NodeJS.Timeout[] = [];
    const every = (ms: number, offset: number, fn: () => void) => {
      timers.push(
        setTimeout(() => {
          fn();
          timers.push(setInterval(fn, ms));
        }, offset),
      );
    };
    const all = [...consoleSockets, ...terminalSockets];
    let gpsReports = 0;
    let imsSent = 0;
    terminalSockets.forEach((ws, i) => {
      const uid = terminalUids[i]!;
      const sentOf = new Map<number, Sent>();
      gpsSent.set(uid, sentOf);
      let lat0 = 22.5 + (i % 100) / 1000;
      // phases spread so that every unit's terminals report all through the period (terminals are
      // numbered unit by unit: i / TERMINALS would make each unit report in one burst)
      every(GPS_MS, (((i * 7919) % TERMINALS) / TERMINALS) * GPS_MS, () => {
        // whole milliseconds; a fix's time identifies it in the notices
        const time = Date.now();
        lat0 += 0.00001;
        sentOf.set(time, { at: performance.now(), counted: measuring });
        if (sentOf.size > 4) sentOf.delete(sentOf.keys().next().value!);
        if (measuring) expected.gps += perUnitConsoles;
        gpsReports += 1;
        ws.send(
          JSON.stringify({
            msg_code: 'req_report_gps',
            cmd_type: 0,
            gps: [
              {
                time: new Date(time).toISOString(),
                lat: lat0,
                lng: 114.05,
                speed: 4,
                course: 90,
                accuracy: 5,
                battery: 80,
              },
            ],
          }),
        );
      });
      const unit = terminals[i]!.unit;
      const desk = consoleUids[unit * perUnitConsoles + (i % perUnitConsoles)]!;
      every(IM_MS, ((i * 7919) % TERMINALS) * (IM_MS / TERMINALS), () => {
        const content = `bench im ${++serial}`;
        imSent.set(content, { at: performance.now(), counted: measuring });
        if (measuring) expected.im += 1;
        imsSent += 1;
        ws.send(JSON.stringify({ msg_code: 'req_send_im', cmd_type: 0, target: desk, im_type: ImType.TEXT, content }));
      });
    });
    print(`warm-up ${WARMUP} s (load ${load()})`);
    await sleep(WARMUP * 1000);
    measuring = true;
    const cpuServer0 = cpuOf(pid);
    const cpuBench0 = process.cpuUsage();
    const m0 = performance.now();
    const notices0 = notices;
    const reports0 = gpsReports;
    const ims0 = imsSent;
    for (let e = 0; e < EMERGENCIES; e++)
      timers.push(
        setTimeout(
          () => {
            const i = Math.floor(((e + 0.5) / EMERGENCIES) * TERMINALS);
            const message = `bench emergency ${e}`;
            emergencySent.set(message, { at: performance.now(), counted: true });
            expected.emergency += perUnitConsoles;
            terminalSockets[i]!.send(
              JSON.stringify({ msg_code: 'req_emergency', cmd_type: 0, lat: 22.55, lng: 114.06, message }),
            );
          },
          ((e + 0.5) / EMERGENCIES) * SECONDS * 1000,
        ),
      );
    await sleep(SECONDS * 1000);
    measuring = false;
    const window = (performance.now() - m0) / 1000;
    const deliveredInWindow = notices - notices0;
    const cpuServer = cpuOf(pid) - cpuServer0;
    const cpuBench = process.cpuUsage(cpuBench0);
    for (const t of [...timers, ...heartbeats]) {
      clearTimeout(t);
      clearInterval(t);
    }
    // drain: until every expected delivery came, or nothing more came for 10 s
    const drain0 = performance.now();
    let lastTotal = -1;
    let lastProgress = performance.now();
    const total = () => received.gps + received.im + received.emergency;
    const wanted = () => expected.gps + expected.im + expected.emergency;
    while (total() < wanted() && performance.now() - lastProgress < 10_000) {
      if (total() !== lastTotal) {
        lastTotal = total();
        lastProgress = performance.now();
      }
      await sleep(200);
    }
    const drained = (performance.now() - drain0) / 1000;
    const rssEnd = rssOf(pid);

    print(
      `measured ${window.toFixed(1)} s (load at the end ${load()}); deliveries still arriving ${drained.toFixed(1)} s after it:`,
    );
    print(
      `  sent: ${(gpsReports - reports0).toLocaleString('en')} gps reports (${((gpsReports - reports0) / window).toFixed(0)}/s), ${(imsSent - ims0).toLocaleString('en')} texts (${((imsSent - ims0) / window).toFixed(1)}/s), ${EMERGENCIES} emergencies`,
    );
    print(
      `  notices delivered: ${Math.round(deliveredInWindow / window).toLocaleString('en')}/s (${deliveredInWindow.toLocaleString('en')} notices; ${noticesInWindow.toLocaleString('en')} received during the window)`,
    );
    for (const kind of ['gps', 'im', 'emergency'] as const)
      print(
        `  ${kind.padEnd(9)} deliveries ${received[kind].toLocaleString('en')} of ${expected[kind].toLocaleString('en')} expected${received[kind] === expected[kind] ? ' (all)' : ' (MISSING ' + (expected[kind] - received[kind]).toLocaleString('en') + ')'}; latency ${summary(lat[kind])}`,
      );
    print(
      `  gps notices per console: ${(gpsNoticesInWindow / CONSOLES / window).toFixed(2)}/s (merged: at most 1/s); less than 0.9 s apart as received (the bench's own event loop bunches them): ${closeGpsNotices}, smallest gap ${minGpsGap.toFixed(0)} ms`,
    );
    print(`  error answers: ${errors}${lastError ? ` (last: ${lastError})` : ''}`);
    print(
      `  CPU: server ${cpuServer.toFixed(1)} s (${((cpuServer / window) * 100).toFixed(0)} % of a core), bench ${((cpuBench.user + cpuBench.system) / 1e6).toFixed(1)} s; server RSS at the end ${(rssEnd / 2 ** 20).toFixed(0)} MiB`,
    );
    for (const ws of all) ws.terminate();
  } finally {
    server?.kill('SIGTERM');
    await sleep(500);
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(0);
}

await main();
