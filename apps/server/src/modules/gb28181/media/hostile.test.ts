/**
 * GB28181 live media against bad input: wrong SSRC, garbage, floods, oversize packets, a second TCP
 * connection, broken framing, truncated frames, silence, a port range run dry, and every cut of the
 * parameter sets and ADTS headers. Run: cd apps/server && npx vitest run src/modules/gb28181/media
 */
import dgram from 'node:dgram';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildRtp, frameRtpTcp, splitAnnexB, type AccessUnit } from '@bwc/gb28181/ps';
import type { AvPacket } from '../../media/live-stream';
import { AdtsSplitter, parseAdts } from './adts';
import { FlvPacketizer } from './flv-packets';
import { MediaError, parseH264Sps, parseH265Sps } from './h26x';
import { PortAllocator } from './ports';
import { TcpActiveRtpReceiver, TcpPassiveRtpReceiver, UdpRtpReceiver, type RtpReceiver } from './receiver';
import { GbMediaSession } from './session';
import { flvFile, makeMedia, muxStream, probe, rng, rtpOf, type TestMedia } from './test-media';

let dir: string;
let media: TestMedia;
const base = 43000 + Math.floor(Math.random() * 2000) * 10;
const ports = new PortAllocator(base, base + 9);
const open: RtpReceiver[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gb-media-hostile-'));
  media = makeMedia(dir);
});

afterEach(() => {
  for (const r of open.splice(0)) r.close();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function udp(opts: Partial<Parameters<typeof UdpRtpReceiver.open>[1]> = {}): Promise<UdpRtpReceiver> {
  const r = await UdpRtpReceiver.open(ports, { ssrc: 1234, host: '127.0.0.1', ...opts });
  open.push(r);
  return r;
}

async function sendUdp(port: number, pkts: Buffer[]): Promise<void> {
  const sock = dgram.createSocket('udp4');
  for (let i = 0; i < pkts.length; i++) {
    await new Promise<void>((resolve, reject) =>
      sock.send(pkts[i]!, port, '127.0.0.1', (e) => (e ? reject(e) : resolve())),
    );
    if (i % 16 === 15) await new Promise((r) => setImmediate(r));
  }
  sock.close();
}

function collect(r: RtpReceiver): AccessUnit[] {
  const units: AccessUnit[] = [];
  r.on('unit', (u) => units.push(u));
  return units;
}

function logLines(): {
  lines: { obj: Record<string, unknown>; msg: string }[];
  log: { warn(o: object, m: string): void };
} {
  const lines: { obj: Record<string, unknown>; msg: string }[] = [];
  return { lines, log: { warn: (obj, msg) => lines.push({ obj: obj as Record<string, unknown>, msg }) } };
}

const videoFrames = 30;

describe('UDP', () => {
  it('takes only the expected SSRC: another stream interleaved is dropped, counted, and logged once', async () => {
    const { lines, log } = logLines();
    const r = await udp({ ssrc: 1234, log });
    const units = collect(r);
    const good = rtpOf(muxStream(media.h264.slice(0, videoFrames), 'h264', null), 1234).map((x) => x.pkt);
    const bad = rtpOf(muxStream(media.h264.slice(0, videoFrames), 'h264', null), 4321, 100).map((x) => x.pkt);
    const mixed = good.flatMap((p, i) => (bad[i] ? [p, bad[i]] : [p]));
    await sendUdp(r.port, mixed);
    await vi.waitFor(() => expect(r.stats.packets + r.stats.dropped.ssrc).toBe(mixed.length), { timeout: 10_000 });
    expect(r.stats.packets).toBe(good.length);
    expect(r.stats.dropped.ssrc).toBe(bad.length);
    expect(units.filter((u) => u.kind === 'video').length).toBe(videoFrames);
    const ssrcLines = lines.filter((l) => l.obj.reason === 'ssrc');
    expect(ssrcLines.length).toBe(1);
    expect(ssrcLines[0]!.obj.detail).toBe('SSRC 4321, expected 1234');
  });

  it('garbage datagrams are dropped as malformed and the stream after them still decodes', async () => {
    const r = await udp();
    const units = collect(r);
    const rand = rng(11);
    const garbage: Buffer[] = [];
    for (let i = 0; i < 300; i++) {
      const b = Buffer.alloc(1 + Math.floor(rand() * 1500));
      for (let k = 0; k < b.length; k++) b[k] = Math.floor(rand() * 256);
      b[0] = b[0]! & 0x3f; // version 0: never RTP
      garbage.push(b);
    }
    // and RTP headers cut short, padding longer than the packet
    garbage.push(Buffer.from([0x80, 0x60, 0, 1]), Buffer.from([0xa0, 0x60, 0, 1, 0, 0, 0, 0, 0, 0, 4, 0xd2, 200]));
    const good = rtpOf(muxStream(media.h264.slice(0, videoFrames), 'h264', null), 1234).map((x) => x.pkt);
    await sendUdp(r.port, [...garbage, ...good]);
    await vi.waitFor(() => expect(r.stats.packets).toBe(good.length), { timeout: 10_000 });
    expect(r.stats.dropped.malformed).toBe(garbage.length);
    expect(units.filter((u) => u.kind === 'video').length).toBe(videoFrames);
  });

  it('a flood over the packet rate is cut: packets beyond the limit in a second are dropped as rate', async () => {
    const { lines, log } = logLines();
    const r = await udp({ maxPacketsPerSec: 100, log });
    const flood = Array.from({ length: 1000 }, (_, i) =>
      buildRtp({ marker: true, payloadType: 96, sequence: i, timestamp: i * 3600, ssrc: 1234 }, Buffer.alloc(100)),
    );
    const t0 = performance.now();
    await sendUdp(r.port, flood);
    await vi.waitFor(() => expect(r.stats.packets + r.stats.dropped.rate).toBe(flood.length), { timeout: 10_000 });
    const seconds = Math.ceil((performance.now() - t0) / 1000);
    expect(r.stats.packets).toBeLessThanOrEqual(100 * (seconds + 1));
    expect(r.stats.dropped.rate).toBeGreaterThanOrEqual(1000 - 100 * (seconds + 1));
    expect(lines.filter((l) => l.obj.reason === 'rate').length).toBeLessThanOrEqual(seconds / 5 + 1);
  });

  it('oversize datagrams are dropped as size', async () => {
    const r = await udp({ maxPacketBytes: 2000 });
    const big = buildRtp({ marker: true, payloadType: 96, sequence: 1, timestamp: 0, ssrc: 1234 }, Buffer.alloc(3000));
    const small = buildRtp({ marker: true, payloadType: 96, sequence: 2, timestamp: 0, ssrc: 1234 }, Buffer.alloc(100));
    await sendUdp(r.port, [big, small]);
    await vi.waitFor(() => expect(r.stats.packets).toBe(1));
    expect(r.stats.dropped.size).toBe(1);
  });

  it("nothing for timeoutMs reports 'timeout'; packets re-arm it and it reports again", async () => {
    const r = await udp({ timeoutMs: 150 });
    const t0 = performance.now();
    await once(r, 'timeout');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    const pkt = buildRtp({ marker: true, payloadType: 96, sequence: 1, timestamp: 0, ssrc: 1234 }, Buffer.alloc(10));
    const again = once(r, 'timeout');
    await sendUdp(r.port, [pkt]);
    await again;
    expect(r.stats.packets).toBe(1);
  });

  it('truncated frames: payloads cut short give demux errors, no exception, and the video resumes at the next keyframe; ffprobe decodes the result', async () => {
    const r = await udp();
    const packets: AvPacket[] = [];
    const s = new GbMediaSession(r, { onPacket: (p) => packets.push(p) });
    const rtp = rtpOf(muxStream(media.h264, 'h264', null), 1234);
    // frames 5-9 lose the end of their last packet's payload (the PES length runs past it)
    const cut = new Set<Buffer>();
    const sent = rtp.map(({ pack, pkt }, i) => {
      const last = rtp[i + 1]?.pack !== pack;
      if (pack >= 5 && pack <= 9 && last && pkt.length > 40) {
        const short = pkt.subarray(0, pkt.length - 20);
        cut.add(short);
        return short;
      }
      return pkt;
    });
    expect(cut.size).toBe(5);
    await sendUdp(r.port, sent);
    await vi.waitFor(() => expect(r.stats.packets).toBe(sent.length), { timeout: 10_000 });
    expect(r.stats.dropped.demux).toBeGreaterThanOrEqual(5);
    const v = packets.filter((p) => p.codec_type === 9 && p.flags !== 2);
    expect(v.length).toBe(media.h264.length - 5);
    expect(s.counters.videoFrames).toBe(v.length);
    const file = join(dir, 'cut.flv');
    writeFileSync(file, flvFile(packets, false));
    const streams = probe(file);
    expect(streams[0]).toMatchObject({ codec_name: 'h264', width: 640, height: 360 });
    expect(Number(streams[0]!.nb_read_frames)).toBe(v.length);
    s.close();
  });
});

describe('TCP', () => {
  it('passive: a second connection is refused while the first is open; the first keeps streaming', async () => {
    const { lines, log } = logLines();
    const r = await TcpPassiveRtpReceiver.open(ports, { ssrc: 1234, host: '127.0.0.1', log });
    open.push(r);
    const units = collect(r);
    const first = net.connect(r.port, '127.0.0.1');
    await once(r, 'connected');
    const second = net.connect(r.port, '127.0.0.1');
    second.on('error', () => {});
    await once(second, 'close');
    expect(r.stats.dropped.refused).toBe(1);
    expect(lines.some((l) => l.obj.reason === 'refused')).toBe(true);
    const rtp = rtpOf(muxStream(media.h264.slice(0, videoFrames), 'h264', null), 1234).map((x) => x.pkt);
    first.write(Buffer.concat(rtp.map(frameRtpTcp)));
    await vi.waitFor(() => expect(r.stats.packets).toBe(rtp.length), { timeout: 10_000 });
    expect(units.filter((u) => u.kind === 'video').length).toBe(videoFrames);
    first.destroy();
  });

  it('passive: connections from another address than allowFrom are refused', async () => {
    const r = await TcpPassiveRtpReceiver.open(ports, { ssrc: 1234, host: '127.0.0.1', allowFrom: '127.0.0.9' });
    open.push(r);
    const sock = net.connect(r.port, '127.0.0.1');
    sock.on('error', () => {});
    await once(sock, 'close');
    expect(r.stats.dropped.refused).toBe(1);
  });

  it('passive: a framing error (length 0) ends the connection; the device may connect again', async () => {
    const r = await TcpPassiveRtpReceiver.open(ports, { ssrc: 1234, host: '127.0.0.1' });
    open.push(r);
    const bad = net.connect(r.port, '127.0.0.1');
    bad.on('error', () => {});
    bad.write(Buffer.from([0, 0, 1, 2, 3]));
    await once(r, 'disconnected');
    expect(r.stats.dropped.malformed).toBe(1);
    const units = collect(r);
    const good = net.connect(r.port, '127.0.0.1');
    const rtp = rtpOf(muxStream(media.h264.slice(0, 5), 'h264', null), 1234).map((x) => x.pkt);
    good.write(Buffer.concat(rtp.map(frameRtpTcp)));
    await vi.waitFor(() => expect(units.length).toBe(5), { timeout: 10_000 });
    good.destroy();
  });

  it('active: a device that never listens closes the receiver after connectTimeoutMs', async () => {
    // a port that was free a moment ago
    const probeServer = net.createServer();
    await new Promise<void>((res) => probeServer.listen(0, '127.0.0.1', res));
    const port = (probeServer.address() as net.AddressInfo).port;
    await new Promise((res) => probeServer.close(res));
    const r = new TcpActiveRtpReceiver({ ssrc: 1234, remote: { host: '127.0.0.1', port }, connectTimeoutMs: 300 });
    open.push(r);
    const [reason] = (await once(r, 'closed')) as [string];
    expect(reason).toMatch(/^cannot connect to the device: .*ECONNREFUSED/);
  });

  it('active: the device closing the connection closes the receiver', async () => {
    const device = net.createServer((sock) => sock.end(Buffer.concat([frameRtpTcp(Buffer.alloc(20, 0x80))])));
    await new Promise<void>((res) => device.listen(0, '127.0.0.1', res));
    const port = (device.address() as net.AddressInfo).port;
    const r = new TcpActiveRtpReceiver({ ssrc: 1234, remote: { host: '127.0.0.1', port } });
    open.push(r);
    const [reason] = (await once(r, 'closed')) as [string];
    expect(reason).toBe('the device closed the connection');
    expect(r.stats.dropped.ssrc).toBe(1); // 20 bytes of 0x80: SSRC 0x80808080
    device.close();
  });
});

describe('ports', () => {
  it('never hands out a held port; a full range gives null; release makes it free again, last in turn', () => {
    const p = new PortAllocator(100, 102);
    const taken = [p.take(), p.take(), p.take()];
    expect(new Set(taken).size).toBe(3);
    expect(p.take()).toBeNull();
    p.release(101);
    expect(p.take()).toBe(101);
    p.release(100);
    p.release(102);
    expect(p.take()).toBe(102);
    expect(p.take()).toBe(100);
    expect(() => new PortAllocator(10, 5)).toThrow(RangeError);
    expect(() => new PortAllocator(0, 5)).toThrow(RangeError);
  });

  it('receivers bind distinct ports of the range; a full range is refused; close frees the port', async () => {
    const b = 45000 + Math.floor(Math.random() * 1000) * 10;
    const small = new PortAllocator(b, b + 1);
    const a = await UdpRtpReceiver.open(small, { ssrc: 1, host: '127.0.0.1' });
    const t = await TcpPassiveRtpReceiver.open(small, { ssrc: 1, host: '127.0.0.1' });
    open.push(a, t);
    expect(a.port).not.toBe(t.port);
    expect([a.port, t.port].every((x) => x >= b && x <= b + 1)).toBe(true);
    await expect(UdpRtpReceiver.open(small, { ssrc: 1 })).rejects.toThrow(`no free media port in ${b}-${b + 1}`);
    a.close();
    expect(small.inUse).toBe(1);
    // the port is really free: bind it
    const s = dgram.createSocket('udp4');
    await new Promise<void>((res, rej) => {
      s.once('error', rej);
      s.bind(a.port, '127.0.0.1', res);
    });
    s.close();
  });

  it('a busy port of the range is skipped', async () => {
    const b = 46000 + Math.floor(Math.random() * 1000) * 10;
    const busy = dgram.createSocket('udp4');
    await new Promise<void>((res) => busy.bind(b, '127.0.0.1', res));
    try {
      const r = await UdpRtpReceiver.open(new PortAllocator(b, b + 1), { ssrc: 1, host: '127.0.0.1' });
      open.push(r);
      expect(r.port).toBe(b + 1);
    } finally {
      busy.close();
    }
  });
});

describe('parsers', () => {
  const nalOf = (au: Buffer, type: (n: Buffer) => boolean) => splitAnnexB(au).find(type)!;

  it('every cut and corruption of a real H.264 / H.265 SPS throws MediaError or parses; never anything else', () => {
    const sps264 = nalOf(media.h264[0]!, (n) => (n[0]! & 0x1f) === 7);
    expect(parseH264Sps(sps264)).toMatchObject({ width: 640, height: 360 });
    const cases: [Buffer, (b: Buffer) => unknown][] = [[sps264, parseH264Sps]];
    if (media.h265) {
      const sps265 = nalOf(media.h265[0]!, (n) => ((n[0]! >> 1) & 0x3f) === 33);
      expect(parseH265Sps(sps265)).toMatchObject({ width: 320, height: 240 });
      cases.push([sps265, parseH265Sps]);
    }
    const rand = rng(7);
    for (const [sps, parse] of cases) {
      for (let n = 0; n < sps.length; n++) {
        try {
          parse(sps.subarray(0, n));
        } catch (e) {
          expect(e).toBeInstanceOf(MediaError);
        }
      }
      for (let i = 0; i < 2000; i++) {
        const b = Buffer.from(sps);
        b[1 + Math.floor(rand() * (b.length - 1))] = Math.floor(rand() * 256);
        if (rand() < 0.3) b.fill(0, 1 + Math.floor(rand() * (b.length - 1)));
        try {
          parse(b);
        } catch (e) {
          expect(e).toBeInstanceOf(MediaError);
        }
      }
    }
  });

  it('ADTS: every cut throws adts-truncated; a stream split at every byte gives the same frames', () => {
    const f = media.aac[3]!;
    expect(parseAdts(f).length).toBe(f.length);
    for (let n = 0; n < f.length; n++) expect(() => parseAdts(f.subarray(0, n))).toThrow(/adts-truncated/);
    const stream = Buffer.concat(media.aac.slice(0, 10));
    for (const step of [1, 7, 100]) {
      const sp = new AdtsSplitter();
      const frames = [];
      for (let at = 0; at < stream.length; at += step) frames.push(...sp.push(stream.subarray(at, at + step)));
      expect(frames.length).toBe(10);
    }
    const sp = new AdtsSplitter();
    expect(sp.push(Buffer.concat([Buffer.from('garbage'), media.aac[0]!])).length).toBe(1);
    expect(sp.skipped).toBe(7);
  });
});

describe('FlvPacketizer', () => {
  const unit = (data: Buffer, pts: number, codec: AccessUnit['codec'] = 'h264'): AccessUnit => ({
    kind: 'video',
    codec,
    streamId: 0xe0,
    pts,
    dts: pts,
    data,
    keyframe: false,
  });

  it('a truncated SPS is a counted, logged drop; no exception', () => {
    const { lines, log } = logLines();
    const out: AvPacket[] = [];
    const p = new FlvPacketizer({ onPacket: (x) => out.push(x), log });
    const au = Buffer.from(media.h264[0]!);
    const sps = nalOf0(au, 7);
    // the SPS cut to 5 bytes, the rest of the unit as it was
    const broken = Buffer.concat([Buffer.from([0, 0, 0, 1]), sps.subarray(0, 5), stripNal(au, 7)]);
    p.push(unit(broken, 0));
    expect(out).toEqual([]);
    expect(p.stats.errors).toBe(1);
    expect(lines[0]!.msg).toBe('GB media: unit dropped');
  });

  it('SPS/PPS resent unchanged make no new sequence header; changed ones do; inter frames before a keyframe are dropped', () => {
    const out: AvPacket[] = [];
    const p = new FlvPacketizer({ onPacket: (x) => out.push(x) });
    // the second keyframe carries the same SPS and PPS again
    expect(nalOf0(media.h264[25]!, 7).equals(nalOf0(media.h264[0]!, 7))).toBe(true);
    p.push(unit(media.h264[1]!, 0)); // inter frame first
    expect(out).toEqual([]);
    media.h264.slice(0, 30).forEach((au, i) => p.push(unit(au, 3600 * i)));
    expect(out.filter((x) => x.flags === 2).length).toBe(1);
    expect(out.filter((x) => x.flags === 3).length).toBe(2);
    // another picture size: new parameter sets
    const other = Buffer.from(media.h264[0]!);
    const sps = nalOf0(other, 7);
    const changed = Buffer.from(sps);
    changed[3] = sps[3]! === 30 ? 31 : 30; // level_idc
    p.push(unit(Buffer.concat([Buffer.from([0, 0, 0, 1]), changed, stripNal(other, 7)]), 3600 * 30));
    const headers = out.filter((x) => x.flags === 2);
    expect(headers.length).toBe(2);
    expect(headers[1]!.data[5 + 3]).toBe(changed[3]);
    expect(p.stats.dropped).toBe(1);
  });

  it('33-bit time stamps that wrap keep DTS going forward; a clock jump is rebased one frame on', () => {
    const out: AvPacket[] = [];
    const p = new FlvPacketizer({ onPacket: (x) => out.push(x) });
    const start = 2 ** 33 - 3600 * 5;
    media.h264.slice(0, 10).forEach((au, i) => p.push(unit(au, (start + 3600 * i) % 2 ** 33)));
    p.push(unit(media.h264[10]!, 123_456_789)); // jump
    p.push(unit(media.h264[11]!, 123_456_789 + 3600));
    const dts = out.filter((x) => x.flags !== 2).map((x) => x.dts);
    expect(dts).toEqual([0, 40, 80, 120, 160, 200, 240, 280, 320, 360, 400, 440]);
  });

  it('H.265 with a composition time: PacketTypeCodedFrames with the SI24 offset after the FourCC (Enhanced RTMP v1)', ({
    skip,
  }) => {
    if (!media.h265) return skip('ffmpeg has no libx265');
    const out: AvPacket[] = [];
    const p = new FlvPacketizer({ onPacket: (x) => out.push(x) });
    p.push({ ...unit(media.h265[0]!, 90_000 + 7200, 'h265'), dts: 90_000 });
    const frame = out.find((x) => x.flags === 3)!;
    expect(frame.data[0]).toBe(0x91);
    expect(frame.data.subarray(1, 5).toString()).toBe('hvc1');
    expect(frame.data.readIntBE(5, 3)).toBe(80);
    expect(frame.pts - frame.dts).toBe(80);
    // then 4-byte NAL lengths
    expect(frame.data.readUInt32BE(8)).toBeLessThan(frame.data.length);
  });
});

function nalOf0(au: Buffer, type: number): Buffer {
  return splitAnnexB(au).find((n) => (n[0]! & 0x1f) === type)!;
}

/** The unit's NAL units without those of `type`, as Annex B. */
function stripNal(au: Buffer, type: number): Buffer {
  return Buffer.concat(
    splitAnnexB(au)
      .filter((n) => (n[0]! & 0x1f) !== type)
      .flatMap((n) => [Buffer.from([0, 0, 0, 1]), n]),
  );
}
