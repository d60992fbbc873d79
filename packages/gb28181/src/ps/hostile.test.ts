import { describe, expect, it, vi } from 'vitest';
import {
  parsePackHeader,
  parsePes,
  parsePsm,
  parseRtp,
  parseSystemHeader,
  PsDemuxer,
  PsError,
  PsMuxer,
  RtpPacketizer,
  RtpReassembler,
  RtpTcpFramer,
  splitAnnexB,
  splitH264AccessUnits,
} from './index';
import { rng } from './testing';

/** Runs f; anything thrown must be a PsError. */
function onlyPsError(f: () => unknown): PsError | null {
  try {
    f();
    return null;
  } catch (e) {
    expect(e).toBeInstanceOf(PsError);
    return e as PsError;
  }
}

function randomBytes(rand: () => number, n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = Math.floor(rand() * 256);
  return b;
}

/** A keyframe pack and an audio pack of the muxer, with a fake H.264 IDR. */
const idr = Buffer.concat([
  Buffer.from([0, 0, 0, 1, 0x67, 0x42, 0, 0x1e]),
  Buffer.from([0, 0, 0, 1, 0x65]),
  Buffer.alloc(1000, 0x5a),
]);

function validStream(): Buffer {
  const mux = new PsMuxer({ video: 'h264', audio: 'g711a', maxPesPayload: 300 });
  return Buffer.concat([mux.video(idr, 3600), mux.audio(Buffer.alloc(160, 0xd5), 3600)]);
}

describe('hostile PS input', () => {
  it('each cut of a valid stream gives typed errors, and no unit once an error broke it', () => {
    const stream = validStream();
    const whole = new PsDemuxer().push(stream);
    expect(whole.errors).toEqual([]);
    for (let n = 0; n < stream.length; n++) {
      const d = new PsDemuxer();
      const r = d.push(stream.subarray(0, n));
      const units = [...r.units, ...d.flush()];
      for (const e of r.errors) expect(['ps-truncated', 'ps-resync']).toContain(e.code);
      // an error drops the frame being joined; a cut between two PES packets cannot be told from
      // a frame's end, so a unit is then whole PES payloads from the frame's start
      if (r.errors.length) expect(units).toEqual([]);
      for (const u of units) expect([u.kind, idr.subarray(0, u.data.length).equals(u.data)]).toEqual(['video', true]);
    }
  });

  it('names the problem', () => {
    const mux = new PsMuxer({ video: 'h264' });
    const code = (f: () => unknown): string | undefined => onlyPsError(f)?.code;
    const mpeg1 = mux.packHeader(0);
    mpeg1[4] = 0x21;
    expect(code(() => parsePackHeader(mpeg1))).toBe('ps-mpeg1');
    expect(code(() => parsePackHeader(mux.packHeader(0).subarray(0, 13)))).toBe('ps-truncated');
    const pes = mux.pes(0xe0, Buffer.alloc(10), 0, null);
    pes.writeUInt16BE(5000, 4); // length past the buffer
    expect(code(() => parsePes(pes))).toBe('ps-truncated');
    const hdl = mux.pes(0xe0, Buffer.alloc(10), 0, null);
    hdl[8] = 200; // PES_header_data_length past the packet
    expect(code(() => parsePes(hdl))).toBe('ps-length');
    const psm = mux.psm();
    psm.writeUInt16BE(0x400, 14); // elementary_stream_info_length past the map
    expect(code(() => parsePsm(psm))).toBe('ps-length');
    const sys = mux.systemHeader();
    sys.writeUInt16BE(2, 4);
    expect(code(() => parseSystemHeader(sys))).toBe('ps-length');
    const r = new PsDemuxer().push(Buffer.concat([Buffer.from('garbage'), validStream()]));
    expect(r.errors.map((e) => e.code)).toEqual(['ps-resync']);
    expect(r.units.length).toBe(1); // the audio; the video is held until flush
  });

  it('an access unit over the limit is dropped with ps-too-large, the next one comes', () => {
    const mux = new PsMuxer({ video: 'h264', maxPesPayload: 1000 });
    const d = new PsDemuxer({ maxAccessUnitBytes: 2500 });
    const big = Buffer.concat([Buffer.from([0, 0, 1, 0x65]), Buffer.alloc(5000)]);
    const small = Buffer.from([0, 0, 1, 0x41, 1, 2, 3]);
    const r = d.push(Buffer.concat([mux.video(big, 0), mux.video(small, 3600)]));
    const units = [...r.units, ...d.flush()];
    expect(r.errors.map((e) => e.code)).toEqual(['ps-too-large']);
    expect(units.map((u) => [u.pts, u.data.length])).toEqual([[3600, small.length]]);
  });

  it('fixed-seed fuzz: random and mutated buffers give only typed errors and end', () => {
    const rand = rng(2816);
    const valid = validStream();
    const prefixes = [0xba, 0xbb, 0xbc, 0xe0, 0xc0, 0xbe].map((c) => Buffer.from([0, 0, 1, c]));
    let errors = 0;
    for (let i = 0; i < 4000; i++) {
      const n = Math.floor(rand() * 600);
      let buf: Buffer;
      if (i % 3 === 0) buf = randomBytes(rand, n);
      else if (i % 3 === 1) buf = Buffer.concat([prefixes[i % prefixes.length]!, randomBytes(rand, n)]);
      else {
        // the valid stream with a few bytes changed and cut somewhere
        buf = Buffer.from(valid.subarray(0, Math.floor(rand() * valid.length) + 1));
        for (let k = 0; k < 4; k++) buf[Math.floor(rand() * buf.length)] = Math.floor(rand() * 256);
      }
      for (const f of [parsePackHeader, parseSystemHeader, parsePsm, parsePes, parseRtp])
        if (onlyPsError(() => f(buf))) errors++;
      const d = new PsDemuxer({ maxAccessUnitBytes: 4096 });
      const r = d.push(buf);
      d.flush();
      errors += r.errors.length;
      for (const e of r.errors) expect(e).toBeInstanceOf(PsError);
      const framer = new RtpTcpFramer(300);
      if (onlyPsError(() => framer.push(buf))) errors++;
      splitAnnexB(buf);
      splitH264AccessUnits(buf);
    }
    expect(errors).toBeGreaterThan(4000);
  });

  it('fixed-seed fuzz of the reassembler: random sequence numbers, timestamps and markers stay bounded', () => {
    const rand = rng(28181);
    const rtp = new RtpPacketizer({ ssrc: 1, sequence: 0, maxPayload: 200 });
    const valid = rtp.packetize(validStream(), 0).map(parseRtp);
    const reasm = new RtpReassembler({ reorderWindow: 8, maxFrameBytes: 3000 });
    let frames = 0;
    for (let i = 0; i < 20000; i++) {
      const base = valid[Math.floor(rand() * valid.length)]!;
      const p = {
        ...base,
        sequence: rand() < 0.5 ? (i + Math.floor(rand() * 20)) & 0xffff : Math.floor(rand() * 0x10000),
        timestamp: Math.floor(rand() * 4),
        marker: rand() < 0.2,
      };
      for (const ev of reasm.push(p)) {
        if (ev.type === 'frame') {
          frames++;
          expect(ev.frame.data.length).toBeLessThanOrEqual(3000);
        } else expect(ev.gap.count).toBeGreaterThan(0);
      }
    }
    reasm.flush();
    expect(frames).toBeGreaterThan(0);
    expect(reasm.stats.packets).toBe(20000);
  });

  it('the reassembler ends with numbers spread over the whole sequence space', () => {
    const rtp = new RtpPacketizer({ ssrc: 9, sequence: 0, maxPayload: 2000 });
    const one = parseRtp(rtp.packetize(validStream(), 0)[0]!);
    const reasm = new RtpReassembler({ reorderWindow: 2 });
    const events = [0, 20000, 45000, 1, 2, 30000, 3].flatMap((sequence) => reasm.push({ ...one, sequence }));
    events.push(...reasm.flush());
    expect(events.filter((e) => e.type === 'gap').length).toBeGreaterThan(0);
    expect(reasm.stats.late).toBeGreaterThan(0);
  });

  it('the framer copies a packet sent a byte at a time once, not once per byte', () => {
    const framer = new RtpTcpFramer();
    const big = Buffer.alloc(65535, 7);
    big[0] = 0x80;
    const stream = Buffer.concat([Buffer.from([0xff, 0xff]), big]);
    const concat = vi.spyOn(Buffer, 'concat');
    const got: Buffer[] = [];
    for (let i = 0; i < stream.length; i++) got.push(...framer.push(stream.subarray(i, i + 1)));
    // joined once when complete; once per byte would move about 2 GB
    expect(concat).toHaveBeenCalledTimes(1);
    concat.mockRestore();
    expect(got.length).toBe(1);
    expect(got[0]!.equals(big)).toBe(true);
  });
});
