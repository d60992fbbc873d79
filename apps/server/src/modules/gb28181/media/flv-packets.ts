import type { AccessUnit } from '@bwc/gb28181/ps';
import { splitAnnexB } from '@bwc/gb28181/ps';
import type { AvPacket } from '../../media/live-stream';
import { audioSpecificConfig, parseAdts, type AdtsFrame } from './adts';
import { G711Transcoder } from './g711-aac';
import { avcDecoderConfigurationRecord, hevcDecoderConfigurationRecord, MediaError } from './h26x';

/** FLV (video_file_format_spec v10.1 E.4.2, E.4.3; Enhanced RTMP v1 for H.265) as AvPacket bodies. */
export const FLV_AUDIO = 8;
export const FLV_VIDEO = 9;
export const FLV_CODEC_AVC = 7;
export const FLV_CODEC_AAC = 10;
/** node-media-server's codec_id of an enhanced-FLV stream: the FourCC read as a 32-bit number. */
export const FOURCC_HVC1 = Buffer.from('hvc1');
export const FLV_CODEC_HVC1 = FOURCC_HVC1.readUInt32BE(0);

export interface MediaLog {
  warn(obj: object, msg: string): void;
  info?(obj: object, msg: string): void;
}

export interface FlvPacketizerOptions {
  onPacket(packet: AvPacket): void;
  /** G.711 audio: 'aac' through ffmpeg (default) or 'drop'. */
  g711?: 'aac' | 'drop';
  log?: MediaLog;
  /** A time stamp that jumps more than this is taken as a clock reset and rebased. Default 10,000 ms. */
  maxJumpMs?: number;
}

const MAX_PARAMETER_SET = 4096;
const TS_WRAP = 2 ** 33;

/** Per track: 90 kHz time stamps (33 bits) unwrapped to ms from the session's first one. */
class Clock {
  private last: number | null = null;
  private lastMs = 0;
  rebased = 0;

  constructor(
    private readonly base: { raw: number | null },
    private readonly maxJumpMs: number,
  ) {}

  ms(raw: number): number {
    this.base.raw ??= raw;
    const ref = this.last ?? this.base.raw;
    let d = (raw - ref) % TS_WRAP;
    if (d < 0) d += TS_WRAP;
    if (d >= TS_WRAP / 2) d -= TS_WRAP;
    let ms = (this.last === null ? 0 : this.lastMs) + d / 90;
    if (this.last !== null && (d / 90 > this.maxJumpMs || d < -90 * 1000)) {
      // the device's clock jumped: carry on one frame later
      this.rebased++;
      ms = this.lastMs + 40;
    }
    this.last = raw;
    this.lastMs = ms;
    return ms;
  }
}

/**
 * Access units of the PS demuxer to FLV tag bodies for the live gateway (AvPacket of
 * node-media-server): H.264 as AVC (codec 7), H.265 as Enhanced-FLV 'hvc1', AAC as is, G.711
 * transcoded to AAC. A video sequence header is sent before the first keyframe and again only when
 * the parameter sets change; inter frames before the first keyframe are dropped. Time stamps in
 * ms from the first unit (audio and video on one clock), never going back within a track.
 */
export class FlvPacketizer {
  readonly stats = {
    videoFrames: 0,
    audioFrames: 0,
    sequenceHeaders: 0,
    /** units dropped: waiting for a keyframe, bad parameter sets, unknown codec, G.711 dropped */
    dropped: 0,
    errors: 0,
  };
  private readonly base = { raw: null as number | null };
  private readonly videoClock: Clock;
  private readonly audioClock: Clock;
  private lastVideoDts = 0;
  private lastAudioDts = 0;
  /** G.711 input (the transcoder's output has its own time stamps) */
  private lastG711Dts = 0;
  private videoConfig: Buffer | null = null;
  private videoCodec: 'h264' | 'h265' | null = null;
  /** at the start and after a codec change: frames wait for a keyframe */
  private needKeyframe = true;
  private sps: Buffer[] = [];
  private pps: Buffer[] = [];
  private vps: Buffer[] = [];
  private audioConfig: Buffer | null = null;
  private transcoder: G711Transcoder | null = null;
  private readonly warned = new Set<string>();
  private readonly started = performance.now();
  private closed = false;

  constructor(private readonly opts: FlvPacketizerOptions) {
    const jump = opts.maxJumpMs ?? 10_000;
    this.videoClock = new Clock(this.base, jump);
    this.audioClock = new Clock(this.base, jump);
  }

  push(unit: AccessUnit): void {
    if (this.closed) return;
    try {
      if (unit.kind === 'video') this.video(unit);
      else this.audio(unit);
    } catch (e) {
      if (!(e instanceof MediaError)) throw e;
      this.stats.errors++;
      this.stats.dropped++;
      this.warnOnce(e.code, { err: e.message }, 'GB media: unit dropped');
    }
  }

  /** Stops the G.711 transcoder (its last frames are lost). */
  close(): void {
    this.closed = true;
    this.transcoder?.close();
    this.transcoder = null;
  }

  /** Ends the G.711 input and waits for the transcoder's last frames (end of a file, tests). */
  async drain(): Promise<void> {
    this.transcoder?.end();
    await this.transcoderExited;
  }

  /** resolved when the transcoder's ffmpeg has exited (null: none started) */
  private transcoderExited: Promise<void> | null = null;
  private transcoderFailed = false;

  private times(unit: AccessUnit, clock: Clock, last: number): { dts: number; pts: number } {
    const rawDts = unit.dts ?? unit.pts;
    if (rawDts === null) {
      // no time stamps in the PES: the arrival clock
      const t = Math.max(last, Math.round(performance.now() - this.started));
      return { dts: t, pts: t };
    }
    const dts = Math.max(last, Math.round(clock.ms(rawDts)));
    const pts = unit.pts === null ? dts : Math.max(dts, dts + Math.round((unit.pts - rawDts) / 90));
    return { dts, pts };
  }

  private video(unit: AccessUnit): void {
    if (unit.codec !== 'h264' && unit.codec !== 'h265') {
      this.stats.dropped++;
      this.warnOnce(`video-${unit.codec}`, { codec: unit.codec }, 'GB media: video codec not carried, dropped');
      return;
    }
    const h265 = unit.codec === 'h265';
    if (this.videoCodec && this.videoCodec !== unit.codec) {
      // the device changed codec: start again from its parameter sets
      this.sps = [];
      this.pps = [];
      this.vps = [];
      this.videoConfig = null;
      this.needKeyframe = true;
    }
    this.videoCodec = unit.codec;
    const nals = splitAnnexB(unit.data);
    const sps: Buffer[] = [];
    const pps: Buffer[] = [];
    const vps: Buffer[] = [];
    const body: Buffer[] = [];
    let keyframe = false;
    let bodyBytes = 0;
    for (const nal of nals) {
      const t = h265 ? (nal[0]! >> 1) & 0x3f : nal[0]! & 0x1f;
      const set = h265
        ? t === 32
          ? vps
          : t === 33
            ? sps
            : t === 34
              ? pps
              : null
        : t === 7
          ? sps
          : t === 8
            ? pps
            : null;
      if (set) {
        if (nal.length <= MAX_PARAMETER_SET && !set.some((s) => s.equals(nal))) set.push(nal);
        continue;
      }
      // access unit delimiters are not carried in FLV
      if ((h265 && t === 35) || (!h265 && t === 9)) continue;
      if (h265 ? t >= 16 && t <= 21 : t === 5) keyframe = true;
      body.push(nal);
      bodyBytes += 4 + nal.length;
    }
    if (sps.length && pps.length && (h265 ? vps.length : true)) this.parameterSets(unit, vps, sps, pps);
    if (!body.length) return;
    if (!this.videoConfig || (!keyframe && this.needKeyframe)) {
      this.stats.dropped++;
      return;
    }
    this.needKeyframe = false;
    const { dts, pts } = this.times(unit, this.videoClock, this.lastVideoDts);
    this.lastVideoDts = dts;
    const head = h265 ? (pts === dts ? 5 : 8) : 5;
    const data = Buffer.allocUnsafe(head + bodyBytes);
    if (h265) {
      // ex header, frame type, PacketTypeCodedFrames (1, with a composition time) or CodedFramesX (3, none)
      data[0] = 0x80 | ((keyframe ? 1 : 2) << 4) | (pts === dts ? 3 : 1);
      FOURCC_HVC1.copy(data, 1);
      if (pts !== dts) data.writeIntBE(pts - dts, 5, 3);
    } else {
      data[0] = ((keyframe ? 1 : 2) << 4) | FLV_CODEC_AVC;
      data[1] = 1; // AVC NALU
      data.writeIntBE(pts - dts, 2, 3);
    }
    let off = head;
    for (const nal of body) {
      data.writeUInt32BE(nal.length, off);
      nal.copy(data, off + 4);
      off += 4 + nal.length;
    }
    this.stats.videoFrames++;
    this.emit(FLV_VIDEO, h265 ? FLV_CODEC_HVC1 : FLV_CODEC_AVC, keyframe ? 3 : 4, dts, pts, data);
  }

  /** New parameter sets: a sequence header when they differ from the ones sent. */
  private parameterSets(unit: AccessUnit, vps: Buffer[], sps: Buffer[], pps: Buffer[]): void {
    const same = (a: Buffer[], b: Buffer[]) => a.length === b.length && a.every((x, i) => x.equals(b[i]!));
    if (this.videoConfig && same(sps, this.sps) && same(pps, this.pps) && same(vps, this.vps)) return;
    const h265 = unit.codec === 'h265';
    // copies: the unit's buffer is not kept
    const own = (l: Buffer[]) => l.map((b) => Buffer.from(b));
    const record = h265 ? hevcDecoderConfigurationRecord(vps, sps, pps) : avcDecoderConfigurationRecord(sps, pps);
    [this.vps, this.sps, this.pps] = [own(vps), own(sps), own(pps)];
    const head = h265 ? Buffer.from([0x80 | (1 << 4), ...FOURCC_HVC1]) : Buffer.from([0x17, 0, 0, 0, 0]);
    this.videoConfig = Buffer.concat([head, record]);
    const { dts } = this.times(unit, this.videoClock, this.lastVideoDts);
    this.stats.sequenceHeaders++;
    this.emit(FLV_VIDEO, h265 ? FLV_CODEC_HVC1 : FLV_CODEC_AVC, 2, dts, dts, this.videoConfig);
  }

  private audio(unit: AccessUnit): void {
    if (unit.codec === 'aac') return this.aac(unit);
    if (unit.codec !== 'g711a' && unit.codec !== 'g711u') {
      this.stats.dropped++;
      this.warnOnce(`audio-${unit.codec}`, { codec: unit.codec }, 'GB media: audio codec not carried, dropped');
      return;
    }
    if (this.opts.g711 === 'drop') {
      this.stats.dropped++;
      this.warnOnce('g711-drop', {}, 'GB media: G.711 audio dropped (browsers cannot play it from FLV)');
      return;
    }
    if (this.transcoderFailed) {
      this.stats.dropped++;
      return;
    }
    const { dts } = this.times(unit, this.audioClock, this.lastG711Dts);
    this.lastG711Dts = dts;
    if (!this.transcoder) {
      const law = unit.codec === 'g711a' ? 'alaw' : 'mulaw';
      let exited = () => {};
      this.transcoderExited = new Promise((resolve) => (exited = resolve));
      this.transcoder = new G711Transcoder({
        law,
        onFrame: (f, ms) => this.aacFrame(f, ms),
        onExit: (reason) => {
          // not started again: audio is dropped from here on (a failing ffmpeg is not respawned in a loop)
          this.transcoderFailed = true;
          if (!this.closed && reason !== 'ffmpeg exited 0')
            this.opts.log?.warn({ reason }, 'GB media: G.711 transcoder stopped, audio dropped');
          exited();
        },
      });
    }
    this.transcoder.write(unit.data, dts);
  }

  private aac(unit: AccessUnit): void {
    const { dts } = this.times(unit, this.audioClock, this.lastAudioDts);
    let off = 0;
    let ms = dts;
    // a PES may hold several ADTS frames
    while (off < unit.data.length) {
      const f = parseAdts(unit.data, off);
      this.aacFrame(f, Math.round(ms));
      off += f.length;
      ms += (1024 * 1000) / f.sampleRate;
    }
  }

  private aacFrame(f: AdtsFrame, ms: number): void {
    if (this.closed) return;
    const dts = Math.max(ms, this.lastAudioDts);
    this.lastAudioDts = dts;
    const config = audioSpecificConfig(f);
    if (!this.audioConfig || !this.audioConfig.equals(config)) {
      this.audioConfig = config;
      this.emit(FLV_AUDIO, FLV_CODEC_AAC, 0, dts, dts, Buffer.from([0xaf, 0, ...config]));
    }
    const data = Buffer.allocUnsafe(2 + f.raw.length);
    data[0] = 0xaf; // AAC, 44 kHz, 16 bit, stereo: the fixed values FLV asks for with AAC
    data[1] = 1;
    f.raw.copy(data, 2);
    this.stats.audioFrames++;
    this.emit(FLV_AUDIO, FLV_CODEC_AAC, 1, dts, dts, data);
  }

  private emit(type: number, codec: number, flags: number, dts: number, pts: number, data: Buffer): void {
    this.opts.onPacket({ codec_type: type, codec_id: codec, flags, dts, pts, size: data.length, data });
  }

  private warnOnce(key: string, obj: object, msg: string): void {
    if (this.warned.has(key)) return;
    this.warned.add(key);
    this.opts.log?.warn(obj, msg);
  }
}
