/**
 * Group talk benchmark (issue 14): floor grant latency and audio relay with many groups talking
 * at once, beside a bare websocket relay doing the same work in the same run.
 *
 *   npx tsx bench/talk-groups.ts [--groups 50] [--members 4] [--seconds 30] [--burst 2] [--gap 0.3]
 *
 * 1. Prepares a SQLite DATA_DIR (demo seed, a licence for the run) with `--groups` fixed talk groups
 *    of `--members` terminals each (devices with cluster numbers), then starts the REAL server
 *    (apps/server/src/main.ts, a child process). Every terminal logs on at /ws/console with its
 *    device credentials and enters its group.
 * 2. For `--seconds`, in every group at once, member 0 talks in a loop: req_ptt_on (the grant's
 *    latency is request sent -> answer `granted` received), then `--burst` seconds of 20 ms frames
 *    (16-byte header + a 60-byte Opus-sized packet, paced on a 20 ms clock), req_ptt_off, a pause of
 *    `--gap` s. The other members listen: each frame's relay latency (sent -> received, same
 *    process clock) and frames lost per thousand (expected from the bursts' sequence numbers vs
 *    received, per listener).
 * 3. The anchor, same machine, same run, same sockets and pacing: a bare `ws` server (a child
 *    process) that echoes a text frame to its sender (the "grant") and relays a binary frame to
 *    the other sockets of the same path (the "group"). Figures print side by side with the ratio.
 * CPU seconds of each server process and the load average are printed. No timing assertion.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { AudioKind, decodeAudioFrame, encodeAudioFrame } from '@bwc/protocol';
import { freePort, prepareDataDir, ROOT, startServer } from './support';
import { createTalkGroups, logonGroups, Peer } from './talk-support';

const { values } = parseArgs({
  options: {
    groups: { type: 'string', default: '50' },
    members: { type: 'string', default: '4' },
    seconds: { type: 'string', default: '30' },
    burst: { type: 'string', default: '2' },
    gap: { type: 'string', default: '0.3' },
  },
});
const GROUPS = Number(values.groups);
const MEMBERS = Number(values.members);
const SECONDS = Number(values.seconds);
const BURST_FRAMES = Math.round((Number(values.burst) * 1000) / 20);
const GAP_MS = Number(values.gap) * 1000;
const OPUS = new Uint8Array(60).fill(0x5a);
OPUS[0] = 0xfc; // TOC: CELT 20 ms, mono

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
function cpuOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}
function pct(samples: number[], p: number): number {
  const s = Float64Array.from(samples).sort();
  return s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? NaN;
}

interface Figures {
  grants: number[];
  denied: number;
  relay: number[];
  expected: number;
  received: number;
  cpu: number;
}

/**
 * The talk loop over `peers[g][m]`: member 0 of each group asks (`ask`), sends bursts, lets go
 * (`release`); the others count what reaches them.
 */
async function run(
  peers: Peer[][],
  tgids: number[],
  ask: (p: Peer, tgid: number) => Promise<boolean>,
  release: (p: Peer, tgid: number) => Promise<void>,
  pid: number,
): Promise<Figures> {
  const fig: Figures = { grants: [], denied: 0, relay: [], expected: 0, received: 0, cpu: 0 };
  const sentAt = new Map<string, number>();
  for (const [g, members] of peers.entries())
    for (const listener of members.slice(1))
      listener.onBinary = (data, at) => {
        const f = decodeAudioFrame(data);
        if (!f || f.tgid !== tgids[g]) return;
        fig.received += 1;
        const t = sentAt.get(`${f.tgid}:${f.seq}`);
        if (t !== undefined) fig.relay.push(at - t);
      };
  const cpu0 = cpuOf(pid);
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    peers.map(async (members, g) => {
      const talker = members[0]!;
      const tgid = tgids[g]!;
      let seq = 0;
      await sleep((g * 20) % 1000); // not all in the same millisecond
      while (performance.now() < end) {
        const t0 = performance.now();
        if (!(await ask(talker, tgid))) {
          fig.denied += 1;
          await sleep(GAP_MS);
          continue;
        }
        fig.grants.push(performance.now() - t0);
        const start = performance.now();
        for (let i = 0; i < BURST_FRAMES; i += 1) {
          const wait = start + i * 20 - performance.now();
          if (wait > 0) await sleep(wait);
          seq = (seq + 1) & 0xffff;
          sentAt.set(`${tgid}:${seq}`, performance.now());
          talker.ws.send(
            encodeAudioFrame({ kind: AudioKind.GROUP, flags: 0, tgid, uid: 0, seq, clock: i * 20, opus: OPUS }),
            { binary: true },
          );
          fig.expected += members.length - 1;
        }
        await release(talker, tgid);
        await sleep(GAP_MS);
      }
    }),
  );
  await sleep(1500); // the last frames in flight
  fig.cpu = cpuOf(pid) - cpu0;
  return fig;
}

function print(label: string, f: Figures): void {
  const lost = f.expected ? ((f.expected - f.received) / f.expected) * 1000 : NaN;
  console.log(
    `${label.padEnd(22)} grant p50 ${pct(f.grants, 0.5).toFixed(1)} ms, p95 ${pct(f.grants, 0.95).toFixed(1)} ms, ` +
      `max ${pct(f.grants, 1).toFixed(1)} ms (${f.grants.length} grants, ${f.denied} refused) | relay p50 ` +
      `${pct(f.relay, 0.5).toFixed(1)} ms, p95 ${pct(f.relay, 0.95).toFixed(1)} ms | frames ${f.received}/${f.expected}, ` +
      `lost ${lost.toFixed(2)} per 1000 | server CPU ${f.cpu.toFixed(1)} s`,
  );
}

const RELAY_SOURCE = `
const { WebSocketServer } = require('ws');
const rooms = new Map();
const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' }, () => console.log('port ' + wss.address().port));
wss.on('connection', (ws, req) => {
  const room = rooms.get(req.url) ?? new Set();
  rooms.set(req.url, room);
  room.add(ws);
  ws.on('close', () => room.delete(ws));
  ws.on('message', (data, binary) => {
    if (!binary) return ws.send(data, { binary: false });
    for (const other of room) if (other !== ws) other.send(data, { binary: true });
  });
});
`;

async function anchor(tgids: number[]): Promise<Figures> {
  const child: ChildProcess = spawn(process.execPath, ['-e', RELAY_SOURCE], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const port = await new Promise<number>((res, rej) => {
      child.stdout!.on('data', (c: Buffer) => {
        const m = /port (\d+)/.exec(c.toString());
        if (m) res(Number(m[1]));
      });
      child.once('exit', (code) => rej(new Error(`relay exited ${code}`)));
    });
    const peers = await Promise.all(
      tgids.map((tgid) =>
        Promise.all(Array.from({ length: MEMBERS }, () => Peer.open(`ws://127.0.0.1:${port}/g/${tgid}`))),
      ),
    );
    const fig = await run(
      peers,
      tgids,
      async (p, tgid) => (await p.request('req_ptt_on', { tgid })).msg_code === 'req_ptt_on',
      async (p, tgid) => void (await p.request('req_ptt_off', { tgid })),
      child.pid!,
    );
    for (const g of peers) for (const p of g) p.ws.close();
    return fig;
  } finally {
    child.kill();
  }
}

async function main(): Promise<void> {
  console.log(
    `talk bench: ${GROUPS} groups x ${MEMBERS} members, ${SECONDS} s, bursts of ${BURST_FRAMES} frames, ` +
      `${cpus().length} cores, load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' / ')}`,
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'bwc-talk-bench-'));
  let server: ChildProcess | null = null;
  try {
    const app = await prepareDataDir(dataDir, { workstations: 20, devices: GROUPS * MEMBERS + 100 }, '1234');
    const groups = await createTalkGroups(app, GROUPS, MEMBERS);
    await app.close();
    const tgids = groups.map((g) => g.tgid);
    const port = await freePort();
    server = await startServer(dataDir, port);
    const peers = await logonGroups(port, groups);
    const beats = setInterval(() => {
      for (const g of peers) for (const p of g) p.ws.send('{"msg_code":"heartbeat","cmd_type":0}');
    }, 10_000);
    await sleep(1000);
    const ours = await run(
      peers,
      tgids,
      async (p, tgid) => (await p.request('req_ptt_on', { tgid })).result === 'granted',
      async (p, tgid) => void (await p.request('req_ptt_off', { tgid })),
      server.pid!,
    );
    clearInterval(beats);
    for (const g of peers) for (const p of g) p.ws.close();
    const bare = await anchor(tgids);
    print('console service', ours);
    print('bare ws relay (anchor)', bare);
    console.log(
      `ratio (ours / anchor): grant p95 ${(pct(ours.grants, 0.95) / pct(bare.grants, 0.95)).toFixed(2)}, ` +
        `relay p95 ${(pct(ours.relay, 0.95) / pct(bare.relay, 0.95)).toFixed(2)}; goal: grant p95 <= 50 ms`,
    );
  } finally {
    server?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
