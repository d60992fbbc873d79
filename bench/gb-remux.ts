// GB/T 28181 media remux cost (issue 16 section 4): CPU ms per second of video per stream of the
// server's receive path, PS over RTP/UDP -> UdpRtpReceiver (RtpReassembler, PsDemuxer) ->
// GbMediaSession's FlvPacketizer -> FLV tags (node-media-server's flv.js createMessage, as the
// gateway's LiveStream makes them), for --streams streams at once in a child process.
// The media: --seconds of ffmpeg testsrc (with noise, so inter frames are of a camera's size) in
// H.264 (libx264, a keyframe a second, no B-frames, --bitrate) + AAC 16 kHz mono, muxed to PS with
// PsMuxer and packetized with RtpPacketizer (1,400-byte payloads) by the bench, sent paced at
// --speed times real time (each frame's packets at once, as a camera sends them).
// Anchors, in the same run: ffmpeg's own remux of the same PS file to FLV (`-c copy`, its CPU from
// the shell's `times`), and the same RTP datagrams at the same pace into a child process that only
// receives them (one UDP socket per stream, bytes counted).
//
//   npx tsx bench/gb-remux.ts [--streams 8] [--seconds 20] [--size 1920x1080] [--bitrate 4M] [--speed 1]
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { splitH264AccessUnits } from '@bwc/gb28181/ps';
import { FFMPEG, FFPROBE } from '../apps/server/src/modules/evidence/ingest/media-tools';
import { parseAdts } from '../apps/server/src/modules/gb28181/media/adts';
import { GbMediaSession, PortAllocator, UdpRtpReceiver } from '../apps/server/src/modules/gb28181/media';
import { muxStream, rtpOf, type Pack } from '../apps/server/src/modules/gb28181/media/test-media';
import type { AvPacket } from '../apps/server/src/modules/media/live-stream';
import { cpuOf, ROOT } from './support';

const { values } = parseArgs({
  options: {
    streams: { type: 'string', default: '8' },
    seconds: { type: 'string', default: '20' },
    size: { type: 'string', default: '1920x1080' },
    bitrate: { type: 'string', default: '4M' },
    speed: { type: 'string', default: '1' },
    /** internal: run as the receiving process, 'gb' or 'raw' */
    child: { type: 'string' },
    /** internal: where the gb child writes stream 0's FLV at the end */
    flv: { type: 'string' },
  },
});
const STREAMS = Number(values.streams);
const SPEED = Number(values.speed);

interface ChildStats {
  packets: number;
  bytes: number;
  videoFrames: number;
  audioFrames: number;
  flvBytes: number;
  gaps: number;
  dropped: Record<string, number>;
}

// ---- the receiving process
async function childMain(mode: 'gb' | 'raw') {
  const totals: ChildStats = {
    packets: 0,
    bytes: 0,
    videoFrames: 0,
    audioFrames: 0,
    flvBytes: 0,
    gaps: 0,
    dropped: {},
  };
  const ports: number[] = [];
  let stats: () => ChildStats;
  let finish: () => Promise<void>;
  if (mode === 'gb') {
    const require = createRequire(join(ROOT, 'apps/server/package.json'));
    const Flv = require('node-media-server/src/protocol/flv.js') as {
      createHeader(hasAudio: boolean, hasVideo: boolean): Buffer;
      createMessage(packet: AvPacket): Buffer;
    };
    const allocator = new PortAllocator(36000, 36999);
    const sessions: GbMediaSession[] = [];
    const flvBytes: number[] = [];
    const first: Buffer[] = [Flv.createHeader(true, true)];
    for (let i = 0; i < STREAMS; i++) {
      const receiver = await UdpRtpReceiver.open(allocator, {
        ssrc: 0x01000000 + i,
        host: '127.0.0.1',
        timeoutMs: 60_000,
        // the defaults (5,000 packets/s, 4 MiB/s) scaled when the bench sends faster than real time
        maxPacketsPerSec: 5000 * Math.max(1, SPEED),
        maxBytesPerSec: 4 * 1024 * 1024 * Math.max(1, SPEED),
      });
      flvBytes.push(0);
      sessions.push(
        new GbMediaSession(receiver, {
          onPacket: (p) => {
            const tag = Flv.createMessage(p);
            flvBytes[i]! += tag.length;
            if (i === 0) first.push(tag);
          },
          log: { warn: (o: unknown, msg?: string) => console.error('media:', msg ?? o) },
        }),
      );
      ports.push(receiver.port);
    }
    stats = () => {
      const s: ChildStats = { ...totals, dropped: {} };
      sessions.forEach((x, i) => {
        const c = x.counters;
        s.packets += c.packets;
        s.bytes += c.bytes;
        s.videoFrames += c.videoFrames;
        s.audioFrames += c.audioFrames;
        s.gaps += c.gaps;
        s.flvBytes += flvBytes[i]!;
        for (const [k, v] of Object.entries(c.dropped)) s.dropped[k] = (s.dropped[k] ?? 0) + v;
      });
      return s;
    };
    finish = async () => {
      if (values.flv) writeFileSync(values.flv, Buffer.concat(first));
      for (const s of sessions) s.close();
    };
  } else {
    const sockets: dgram.Socket[] = [];
    for (let i = 0; i < STREAMS; i++) {
      const s = dgram.createSocket({ type: 'udp4', recvBufferSize: 4 * 1024 * 1024 });
      await new Promise<void>((r) => s.bind(0, '127.0.0.1', () => r()));
      s.on('message', (m) => {
        totals.packets++;
        totals.bytes += m.length;
      });
      sockets.push(s);
      ports.push(s.address().port);
    }
    stats = () => ({ ...totals });
    finish = async () => {
      for (const s of sockets) s.close();
    };
  }
  process.on('message', (m: string) => {
    if (m === 'stats') process.send!(stats());
    if (m === 'stop') void finish().then(() => process.exit(0));
  });
  process.send!({ ports });
}

function ffmpeg(args: string[]): void {
  const r = spawnSync(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
  if (r.status !== 0) throw new Error(`ffmpeg: ${r.stderr.toString()}`);
}

/** CPU seconds of a command's children, from bash's `times` (second line: children's user and system). */
function cpuOfCommand(cmd: string, args: string[]): number {
  const quoted = [cmd, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const r = spawnSync('bash', ['-c', `${quoted} >/dev/null || echo FAILED; times`]);
  const out = r.stdout.toString();
  if (out.includes('FAILED')) throw new Error(`${cmd} failed: ${r.stderr.toString()}`);
  const line = out.trim().split('\n').at(-1)!;
  const secs = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return secs[0]! + secs[1]!;
}

function startChild(mode: 'gb' | 'raw', flv?: string): Promise<{ child: ChildProcess; ports: number[] }> {
  const args = ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', mode];
  args.push('--streams', String(STREAMS), '--speed', String(SPEED));
  if (flv) args.push('--flv', flv);
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (m: { ports: number[] }) => resolve({ child, ports: m.ports }));
    child.once('exit', (code) => reject(new Error(`${mode} receiver exited with ${code}`)));
  });
}

function childStats(child: ChildProcess): Promise<ChildStats> {
  return new Promise((resolve) => {
    child.once('message', (m: ChildStats) => resolve(m));
    child.send('stats');
  });
}

/**
 * Sends every stream's packets to its port at the media's pace (--speed), then waits until the
 * child has taken them all (or nothing more came for 2 s). Returns the child's CPU seconds from
 * the first packet to the last one taken, the wall time and its counters.
 */
async function run(
  mode: 'gb' | 'raw',
  packs: Pack[],
  streams: Buffer[][][],
  flv?: string,
): Promise<{ cpu: number; senderCpu: number; ms: number; stats: ChildStats; rssMb: number; idleCpuPerSec: number }> {
  const { child, ports } = await startChild(mode, flv);
  // the child's own idle CPU (timers), 1 s
  const idle0 = cpuOf(child.pid!);
  await new Promise((r) => setTimeout(r, 1000));
  const idleCpuPerSec = cpuOf(child.pid!) - idle0;
  const sock = dgram.createSocket({ type: 'udp4', sendBufferSize: 8 * 1024 * 1024 });
  await new Promise<void>((r) => sock.bind(0, '127.0.0.1', () => r()));
  const total = streams.reduce((n, s) => n + s.reduce((m, p) => m + p.length, 0), 0);
  const cpu0 = cpuOf(child.pid!);
  const send0 = cpuOf(process.pid);
  const t0 = performance.now();
  const base = packs[0]!.ts;
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = (performance.now() - t0) * SPEED;
      while (next < packs.length && (packs[next]!.ts - base) / 90 <= now) {
        for (let s = 0; s < streams.length; s++) {
          for (const pkt of streams[s]![next]!) sock.send(pkt, ports[s]!, '127.0.0.1');
        }
        next++;
      }
      if (next < packs.length) setTimeout(tick, 2);
      else resolve();
    };
    tick();
  });
  const senderCpu = cpuOf(process.pid) - send0;
  let stats = await childStats(child);
  let last = stats.packets;
  let lastAt = performance.now();
  let doneAt = performance.now();
  let cpu = cpuOf(child.pid!) - cpu0;
  while (stats.packets < total && performance.now() - lastAt < 2000) {
    await new Promise((r) => setTimeout(r, 20));
    stats = await childStats(child);
    if (stats.packets !== last) {
      last = stats.packets;
      lastAt = doneAt = performance.now();
      cpu = cpuOf(child.pid!) - cpu0;
    }
  }
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
  child.send('stop');
  await new Promise((r) => child.once('exit', r));
  sock.close();
  return {
    cpu,
    senderCpu,
    ms: doneAt - t0,
    stats,
    rssMb: rss ? Number(rss[1]) / 1024 : NaN,
    idleCpuPerSec,
  };
}

async function main() {
  const SECONDS = Number(values.seconds);
  const [w, h] = values.size!.split('x').map(Number) as [number, number];
  const dir = mkdtempSync(join(tmpdir(), 'bwc-gb-remux-'));
  try {
    console.log(
      `GB28181 remux: ${STREAMS} streams of ${SECONDS} s H.264 ${w}x${h} ${values.bitrate}bit/s + AAC, PS/RTP over UDP at ${SPEED}x real time`,
    );
    const e0 = performance.now();
    ffmpeg([
      ...['-f', 'lavfi', '-i', `testsrc=size=${w}x${h}:rate=25`, '-t', String(SECONDS)],
      ...['-vf', 'noise=alls=8:allf=t', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast'],
      ...['-b:v', values.bitrate!, '-maxrate', values.bitrate!, '-bufsize', values.bitrate!],
      ...['-g', '25', '-sc_threshold', '0', '-bf', '0', '-f', 'h264', join(dir, 'v.h264')],
    ]);
    ffmpeg([
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=16000', '-t', String(SECONDS)],
      ...['-c:a', 'aac', '-ac', '1', '-f', 'adts', join(dir, 'a.aac')],
    ]);
    const video = splitH264AccessUnits(readFileSync(join(dir, 'v.h264')));
    const adts = readFileSync(join(dir, 'a.aac'));
    const aac: Buffer[] = [];
    for (let off = 0; off < adts.length;) {
      const f = parseAdts(adts, off);
      aac.push(adts.subarray(off, off + f.length));
      off += f.length;
    }
    // no B-frames: PTS = DTS
    const packs = muxStream(video, 'h264', { codec: 'aac', frames: aac }, 0);
    const psFile = join(dir, 'stream.ps');
    writeFileSync(psFile, Buffer.concat(packs.map((p) => p.pack)));
    const videoSeconds = video.length / 25;
    // per stream: for each pack, its RTP packets (own SSRC)
    const streams = Array.from({ length: STREAMS }, (_, s) => {
      const per: Buffer[][] = packs.map(() => []);
      for (const { pack, pkt } of rtpOf(packs, 0x01000000 + s)) per[pack]!.push(pkt);
      return per;
    });
    const perStream = streams[0]!.reduce((n, p) => n + p.length, 0);
    const psBytes = statSync(psFile).size;
    console.log(
      `  media made in ${((performance.now() - e0) / 1000).toFixed(1)} s: ${video.length} video frames, ${aac.length} AAC frames, PS ${(psBytes / 1e6).toFixed(1)} MB (${((psBytes * 8) / videoSeconds / 1e6).toFixed(2)} Mbit/s), ${perStream} RTP packets per stream`,
    );

    // anchor 1: ffmpeg remuxes the same PS to FLV, three times (the lowest counts)
    const ffOut = join(dir, 'ffmpeg.flv');
    // (ADTS to raw AAC frames, as our FlvPacketizer does)
    const ffArgs = (input: string) => [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'mpeg', '-i', input],
      ...['-c', 'copy', '-bsf:a', 'aac_adtstoasc', '-f', 'flv', ffOut],
    ];
    const ffCpu = Math.min(...[0, 1, 2].map(() => cpuOfCommand(FFMPEG, ffArgs(psFile))));
    // and its start-up alone: the same on one second of the PS
    const oneSec = join(dir, 'one.ps');
    writeFileSync(oneSec, Buffer.concat(packs.filter((p) => p.ts - packs[0]!.ts < 90_000).map((p) => p.pack)));
    const ffStart = Math.min(...[0, 1, 2].map(() => cpuOfCommand(FFMPEG, ffArgs(oneSec))));

    // anchor 2: the same datagrams, receive only
    const raw = await run('raw', packs, streams);
    // ours
    const flvFile = join(dir, 'stream0.flv');
    const gb = await run('gb', packs, streams, flvFile);

    const probe = spawnSync(FFPROBE, ['-v', 'error', '-count_frames', '-show_streams', '-of', 'json', flvFile]);
    const probed = (
      JSON.parse(probe.stdout.toString() || '{"streams":[]}') as {
        streams: { codec_name: string; width?: number; height?: number; nb_read_frames?: string }[];
      }
    ).streams;

    const perVideoSec = (cpu: number) => (cpu * 1000) / (videoSeconds * STREAMS);
    const ours = perVideoSec(gb.cpu);
    const rawMs = perVideoSec(raw.cpu);
    const ffMs = (ffCpu * 1000) / videoSeconds;
    const ffNet = ((ffCpu - ffStart) * 1000) / (videoSeconds - 1);
    console.log('');
    console.log('figure | ours | anchor (same run) | anchor value | ratio ours/anchor');
    console.log(
      `CPU ms per second of video per stream, PS/RTP -> FLV tags (${STREAMS} streams at once) | ${ours.toFixed(2)} | ffmpeg -c copy of the same PS to FLV (file, one process) | ${ffMs.toFixed(2)} | ${(ours / ffMs).toFixed(2)}`,
    );
    console.log(
      `same, ffmpeg without its start-up (its 1 s run subtracted) | ${ours.toFixed(2)} | ffmpeg -c copy, start-up ${(ffStart * 1000).toFixed(0)} ms subtracted | ${ffNet.toFixed(2)} | ${(ours / ffNet).toFixed(2)}`,
    );
    console.log(
      `same | ${ours.toFixed(2)} | the same datagrams received only (UDP sockets, ${STREAMS} streams) | ${rawMs.toFixed(2)} | ${(ours / rawMs).toFixed(2)}`,
    );
    console.log(
      `streams one core would hold at this cost | ${Math.floor(1000 / ours)} | receive only | ${Math.floor(1000 / rawMs)} | -`,
    );
    const expectPackets = perStream * STREAMS;
    console.log(
      `ours: ${gb.stats.packets} of ${expectPackets} RTP packets, ${gb.stats.videoFrames} of ${video.length * STREAMS} video frames, ${gb.stats.audioFrames} of ${aac.length * STREAMS} AAC frames out, gaps ${gb.stats.gaps}, dropped ${JSON.stringify(gb.stats.dropped)}; FLV ${(gb.stats.flvBytes / 1e6).toFixed(1)} MB; ${(gb.ms / 1000).toFixed(1)} s; child CPU ${gb.cpu.toFixed(2)} s (idle ${(gb.idleCpuPerSec * 1000).toFixed(0)} ms/s), RSS ${gb.rssMb.toFixed(0)} MB`,
    );
    console.log(
      `receive only: ${raw.stats.packets} of ${expectPackets} packets; ${(raw.ms / 1000).toFixed(1)} s; child CPU ${raw.cpu.toFixed(2)} s (idle ${(raw.idleCpuPerSec * 1000).toFixed(0)} ms/s), RSS ${raw.rssMb.toFixed(0)} MB`,
    );
    console.log(
      `sender (bench) CPU: ${raw.senderCpu.toFixed(2)} s / ${gb.senderCpu.toFixed(2)} s; ffmpeg remux CPU ${ffCpu.toFixed(2)} s for ${videoSeconds} s of one stream`,
    );
    console.log(
      `stream 0's FLV read by ffprobe: ${probed.map((s) => `${s.codec_name}${s.width ? ` ${s.width}x${s.height}` : ''} ${s.nb_read_frames} frames`).join(', ') || probe.stderr.toString().trim()}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (values.child === 'gb' || values.child === 'raw') await childMain(values.child);
else await main();
