import { SdpError } from './errors';

/** Limits on what `parseSdp` reads; GB28181 offers are a few hundred bytes. */
export const SDP_LIMITS = {
  maxBytes: 8192,
  maxLines: 128,
  maxLineLength: 1024,
  maxMedia: 4,
  maxFormats: 32,
} as const;

/** s= of GB28181-2016 9.2 (Play live, Playback, Download) and Talk (voice broadcast, 9.12). */
export type GbSessionName = 'Play' | 'Playback' | 'Download' | 'Talk';
export type SdpTransport = 'RTP/AVP' | 'TCP/RTP/AVP';
export type SdpDirection = 'recvonly' | 'sendonly' | 'sendrecv' | 'inactive';
/** a=setup of RFC 4145: who opens the TCP connection. */
export type SdpSetup = 'active' | 'passive' | 'actpass';

/** One `a=rtpmap:<pt> <encoding>/<clock>` (GB28181: 96 PS, 97 MPEG4, 98 H264 at 90000). */
export interface RtpMap {
  payloadType: number;
  encoding: string;
  clockRate: number;
}

/** The f= line of GB28181-2016 Appendix F: codes of the standard, absent when left empty. */
export interface MediaFormatDescription {
  video?: {
    /** 1 MPEG-4, 2 H.264, 3 SVAC, 4 3GP */
    codec?: number;
    /** 1 QCIF, 2 CIF, 3 4CIF, 4 D1, 5 720P, 6 1080P/I */
    resolution?: number;
    frameRate?: number;
    /** 1 CBR, 2 VBR */
    rateControl?: number;
    bitrateKbps?: number;
  };
  audio?: {
    /** 1 G.711, 2 G.723.1, 3 G.729, 4 G.722.1 */
    codec?: number;
    /** 1 5.3 kbps, 2 6.3, 3 8, 4 16, 5 24, 6 32, 7 48, 8 64 */
    bitrate?: number;
    /** 1 8 kHz, 2 14, 3 16, 4 32 */
    sampleRate?: number;
  };
}

export interface SdpMedia {
  kind: 'video' | 'audio';
  port: number;
  transport: SdpTransport;
  /** payload types of the m= line, in order of preference */
  formats: number[];
  rtpmaps: RtpMap[];
  direction?: SdpDirection;
  setup?: SdpSetup;
  /** a=connection:new (RFC 4145) */
  connectionNew?: boolean;
  /** a=downloadspeed of Download sessions: the speed factor */
  downloadSpeed?: number;
  /** a=filesize (a device's answer to Download), bytes */
  fileSize?: number;
  /** other a= lines, name and value ('' for a flag) */
  attributes: [string, string][];
}

/** A GB28181 session description. `ssrc` is the y= line (10 decimal digits). */
export interface GbSdp {
  origin: { username: string; sessionId: string; sessionVersion: string; address: string };
  sessionName: string;
  /** u= of Playback and Download: `<channelId>:0` */
  uri?: string;
  /** c=IN IP4 address (session level, or the first media's) */
  address: string;
  /** t= in seconds since 1970 (GB28181 practice); 0 0 for live */
  start: number;
  stop: number;
  media: SdpMedia[];
  ssrc?: string;
  format?: MediaFormatDescription;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const SSRC_RE = /^\d{10}$/;

function int(text: string, line: string, what: string, max: number): number {
  if (!/^\d{1,15}$/.test(text)) throw new SdpError('malformed', `${what} '${clip(text)}' is not a number`, line);
  const n = Number(text);
  if (n > max) throw new SdpError('invalid', `${what} ${n} over ${max}`, line);
  return n;
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}...` : s;
}

/** Reads an f= value: `v/codec/resolution/framerate/ratecontrol/bitrate` `a/codec/bitrate/samplerate`. */
export function parseMediaFormat(value: string): MediaFormatDescription {
  const v = value.trim();
  if (v === '') return {};
  const m = /^v\/([^/]*)\/([^/]*)\/([^/]*)\/([^/]*)\/([^/a]*)\/?a\/([^/]*)\/([^/]*)\/([^/]*)$/.exec(v);
  if (!m) throw new SdpError('malformed', `'${clip(v)}' is not v/…/…/…/…/…a/…/…/…`, 'f');
  const n = (i: number): number | undefined => {
    const s = m[i]!;
    return s === '' ? undefined : int(s, 'f', 'field', 10_000_000);
  };
  const video = { codec: n(1), resolution: n(2), frameRate: n(3), rateControl: n(4), bitrateKbps: n(5) };
  const audio = { codec: n(6), bitrate: n(7), sampleRate: n(8) };
  const out: MediaFormatDescription = {};
  if (Object.values(video).some((x) => x !== undefined)) out.video = prune(video);
  if (Object.values(audio).some((x) => x !== undefined)) out.audio = prune(audio);
  return out;
}

function prune<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined)) as T;
}

export function printMediaFormat(f: MediaFormatDescription | undefined): string {
  if (!f || (!f.video && !f.audio)) return '';
  const s = (x: number | undefined) => (x === undefined ? '' : String(x));
  const v = f.video ?? {};
  const a = f.audio ?? {};
  return (
    `v/${s(v.codec)}/${s(v.resolution)}/${s(v.frameRate)}/${s(v.rateControl)}/${s(v.bitrateKbps)}` +
    `a/${s(a.codec)}/${s(a.bitrate)}/${s(a.sampleRate)}`
  );
}

/**
 * Parses a GB28181 SDP offer or answer (RFC 4566 with GB28181-2016's y= and f= lines). Unknown
 * lines and attributes are kept or skipped; what GB28181 needs must be there and in shape.
 * Throws only SdpError.
 */
export function parseSdp(body: string | Buffer): GbSdp {
  const size = typeof body === 'string' ? Buffer.byteLength(body, 'latin1') : body.length;
  if (size > SDP_LIMITS.maxBytes) throw new SdpError('too-large', `${size} bytes over ${SDP_LIMITS.maxBytes}`);
  const text = typeof body === 'string' ? body : body.toString('latin1');
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  if (lines.length > SDP_LIMITS.maxLines) throw new SdpError('too-large', `${lines.length} lines`);

  let version: string | undefined;
  let origin: GbSdp['origin'] | undefined;
  let sessionName: string | undefined;
  let uri: string | undefined;
  let sessionAddress: string | undefined;
  let time: [number, number] | undefined;
  let ssrc: string | undefined;
  let format: MediaFormatDescription | undefined;
  const media: (SdpMedia & { address?: string })[] = [];

  for (const raw of lines) {
    if (raw.length > SDP_LIMITS.maxLineLength) throw new SdpError('too-large', `line of ${raw.length} characters`);
    const m = /^([a-z])[ \t]*=(.*)$/.exec(raw);
    if (!m) throw new SdpError('malformed', `'${clip(raw)}' is not <type>=<value>`);
    const type = m[1]!;
    const value = m[2]!.trim();
    const cur = media[media.length - 1];
    switch (type) {
      case 'v':
        if (value !== '0') throw new SdpError('invalid', `version '${clip(value)}'`, 'v');
        version = value;
        break;
      case 'o': {
        const f = value.split(/\s+/);
        if (f.length !== 6 || f[3] !== 'IN') throw new SdpError('malformed', `'${clip(value)}'`, 'o');
        origin = { username: f[0]!, sessionId: f[1]!, sessionVersion: f[2]!, address: f[5]! };
        break;
      }
      case 's':
        sessionName = value;
        break;
      case 'u':
        uri = value;
        break;
      case 'c': {
        const f = value.split(/\s+/);
        if (f.length !== 3 || f[0] !== 'IN' || f[1] !== 'IP4')
          throw new SdpError('malformed', `'${clip(value)}' is not IN IP4 <address>`, 'c');
        const addr = f[2]!.split('/')[0]!; // a multicast TTL suffix is dropped
        if (!IPV4.test(addr)) throw new SdpError('invalid', `address '${clip(addr)}'`, 'c');
        if (cur) cur.address = addr;
        else sessionAddress = addr;
        break;
      }
      case 't': {
        const f = value.split(/\s+/);
        if (f.length !== 2) throw new SdpError('malformed', `'${clip(value)}' is not <start> <stop>`, 't');
        time ??= [int(f[0]!, 't', 'start', 2 ** 53), int(f[1]!, 't', 'stop', 2 ** 53)];
        break;
      }
      case 'm': {
        if (media.length >= SDP_LIMITS.maxMedia) throw new SdpError('too-large', `over ${SDP_LIMITS.maxMedia}`, 'm');
        const f = value.split(/\s+/);
        if (f.length < 4) throw new SdpError('malformed', `'${clip(value)}'`, 'm');
        const kind = f[0]!;
        if (kind !== 'video' && kind !== 'audio') throw new SdpError('invalid', `media '${clip(kind)}'`, 'm');
        const port = int(f[1]!.split('/')[0]!, 'm', 'port', 65535);
        const transport = f[2]!.toUpperCase();
        if (transport !== 'RTP/AVP' && transport !== 'TCP/RTP/AVP')
          throw new SdpError('invalid', `transport '${clip(f[2]!)}'`, 'm');
        const pts = f.slice(3);
        if (pts.length > SDP_LIMITS.maxFormats) throw new SdpError('too-large', `${pts.length} formats`, 'm');
        media.push({
          kind,
          port,
          transport,
          formats: pts.map((p) => int(p, 'm', 'payload type', 127)),
          rtpmaps: [],
          attributes: [],
        });
        break;
      }
      case 'a': {
        const colon = value.indexOf(':');
        const name = (colon < 0 ? value : value.slice(0, colon)).trim();
        const val = colon < 0 ? '' : value.slice(colon + 1).trim();
        if (!cur) break; // session-level attributes mean nothing to GB28181
        attribute(cur, name, val);
        break;
      }
      case 'y':
        if (!SSRC_RE.test(value)) throw new SdpError('invalid', `SSRC '${clip(value)}' is not 10 digits`, 'y');
        ssrc = value;
        break;
      case 'f':
        format = parseMediaFormat(value);
        break;
      default:
        break; // i, e, p, b, r, z, k and others: not used by GB28181
    }
  }
  if (version === undefined) throw new SdpError('missing', 'no version', 'v');
  if (!origin) throw new SdpError('missing', 'no origin', 'o');
  if (sessionName === undefined) throw new SdpError('missing', 'no session name', 's');
  if (!time) throw new SdpError('missing', 'no time', 't');
  if (media.length === 0) throw new SdpError('missing', 'no media', 'm');
  const address = sessionAddress ?? media[0]!.address;
  if (!address) throw new SdpError('missing', 'no connection address', 'c');
  const out: GbSdp = {
    origin,
    sessionName,
    address,
    start: time[0],
    stop: time[1],
    media: media.map(({ address: _a, ...rest }) => rest),
  };
  if (uri !== undefined) out.uri = uri;
  if (ssrc !== undefined) out.ssrc = ssrc;
  if (format !== undefined) out.format = format;
  return out;
}

function attribute(m: SdpMedia, name: string, val: string): void {
  switch (name) {
    case 'recvonly':
    case 'sendonly':
    case 'sendrecv':
    case 'inactive':
      m.direction = name;
      return;
    case 'rtpmap': {
      const r = /^(\d{1,3})\s+([A-Za-z0-9._-]{1,32})\/(\d{1,6})(?:\/\d+)?$/.exec(val);
      if (!r) throw new SdpError('malformed', `rtpmap '${clip(val)}'`, 'a');
      if (m.rtpmaps.length >= SDP_LIMITS.maxFormats) throw new SdpError('too-large', 'too many rtpmaps', 'a');
      m.rtpmaps.push({
        payloadType: int(r[1]!, 'a', 'payload type', 127),
        encoding: r[2]!,
        clockRate: Number(r[3]),
      });
      return;
    }
    case 'setup':
      if (val !== 'active' && val !== 'passive' && val !== 'actpass')
        throw new SdpError('invalid', `setup '${clip(val)}'`, 'a');
      m.setup = val;
      return;
    case 'connection':
      m.connectionNew = val === 'new';
      return;
    case 'downloadspeed':
      m.downloadSpeed = int(val, 'a', 'downloadspeed', 1024);
      return;
    case 'filesize':
      m.fileSize = int(val, 'a', 'filesize', 2 ** 53);
      return;
    default:
      if (m.attributes.length >= SDP_LIMITS.maxLines) throw new SdpError('too-large', 'too many attributes', 'a');
      m.attributes.push([name, val]);
  }
}

/** The GB28181 video formats (9.2.2): PS, MPEG-4 and H.264 at 90 kHz. */
export const GB_VIDEO_RTPMAPS: readonly RtpMap[] = [
  { payloadType: 96, encoding: 'PS', clockRate: 90000 },
  { payloadType: 98, encoding: 'H264', clockRate: 90000 },
  { payloadType: 97, encoding: 'MPEG4', clockRate: 90000 },
];

function safe(s: string, line: string, re = /^[\x21-\x7e]+$/): string {
  if (!re.test(s)) throw new SdpError('invalid', `'${clip(s)}' has spaces or control characters`, line);
  return s;
}

/** Prints `sdp` in the order of RFC 4566 5 and GB28181-2016 Appendix F (y= and f= last), CRLF lines. */
export function buildSdp(sdp: GbSdp): string {
  const o = sdp.origin;
  if (!IPV4.test(sdp.address)) throw new SdpError('invalid', `address '${clip(sdp.address)}'`, 'c');
  if (!IPV4.test(o.address)) throw new SdpError('invalid', `address '${clip(o.address)}'`, 'o');
  if (sdp.ssrc !== undefined && !SSRC_RE.test(sdp.ssrc)) throw new SdpError('invalid', `SSRC '${sdp.ssrc}'`, 'y');
  if (!Number.isSafeInteger(sdp.start) || !Number.isSafeInteger(sdp.stop) || sdp.start < 0 || sdp.stop < 0)
    throw new SdpError('invalid', `${sdp.start} ${sdp.stop}`, 't');
  const out = [
    'v=0',
    `o=${safe(o.username, 'o')} ${safe(o.sessionId, 'o')} ${safe(o.sessionVersion, 'o')} IN IP4 ${o.address}`,
    `s=${safe(sdp.sessionName, 's', /^[\x20-\x7e]+$/)}`,
  ];
  if (sdp.uri !== undefined) out.push(`u=${safe(sdp.uri, 'u')}`);
  out.push(`c=IN IP4 ${sdp.address}`, `t=${sdp.start} ${sdp.stop}`);
  for (const m of sdp.media) {
    if (!Number.isInteger(m.port) || m.port < 0 || m.port > 65535) throw new SdpError('invalid', `port ${m.port}`, 'm');
    const pts = m.formats.length ? m.formats : m.rtpmaps.map((r) => r.payloadType);
    if (!pts.length || pts.some((p) => !Number.isInteger(p) || p < 0 || p > 127))
      throw new SdpError('invalid', `payload types ${pts.join(' ')}`, 'm');
    out.push(`m=${m.kind} ${m.port} ${m.transport} ${pts.join(' ')}`);
    if (m.direction) out.push(`a=${m.direction}`);
    for (const r of m.rtpmaps) out.push(`a=rtpmap:${r.payloadType} ${safe(r.encoding, 'a')}/${r.clockRate}`);
    if (m.setup) out.push(`a=setup:${m.setup}`);
    if (m.connectionNew) out.push('a=connection:new');
    if (m.downloadSpeed !== undefined) out.push(`a=downloadspeed:${m.downloadSpeed}`);
    if (m.fileSize !== undefined) out.push(`a=filesize:${m.fileSize}`);
    for (const [k, v] of m.attributes) out.push(v === '' ? `a=${safe(k, 'a')}` : `a=${safe(k, 'a')}:${safe(v, 'a')}`);
  }
  if (sdp.ssrc !== undefined) out.push(`y=${sdp.ssrc}`);
  if (sdp.format !== undefined) out.push(`f=${printMediaFormat(sdp.format)}`);
  return out.join('\r\n') + '\r\n';
}

export interface OfferOptions {
  /** 20-digit id of the platform (o= user) */
  platformId: string;
  /** where the platform receives the media */
  address: string;
  port: number;
  ssrc: string;
  session?: Exclude<GbSessionName, 'Talk'>;
  /** `<channelId>` for Playback and Download (u=<channelId>:0) */
  channelId?: string;
  /** seconds since 1970, for Playback and Download */
  start?: number;
  stop?: number;
  /** 'udp' (RTP/AVP), or TCP where the platform listens ('passive') or connects ('active') */
  transport?: 'udp' | 'tcp-passive' | 'tcp-active';
  downloadSpeed?: number;
  format?: MediaFormatDescription;
}

/** The platform's INVITE body (GB28181-2016 9.2.2, F.1-F.3). */
export function buildOffer(o: OfferOptions): string {
  const session = o.session ?? 'Play';
  const live = session === 'Play';
  if (!live && (o.channelId === undefined || o.start === undefined || o.stop === undefined))
    throw new SdpError('missing', `${session} needs channelId, start and stop`, 'u');
  const tcp = o.transport === 'tcp-passive' || o.transport === 'tcp-active';
  const media: SdpMedia = {
    kind: 'video',
    port: o.port,
    transport: tcp ? 'TCP/RTP/AVP' : 'RTP/AVP',
    formats: GB_VIDEO_RTPMAPS.map((r) => r.payloadType),
    rtpmaps: [...GB_VIDEO_RTPMAPS],
    direction: 'recvonly',
    attributes: [],
  };
  if (tcp) {
    media.setup = o.transport === 'tcp-passive' ? 'passive' : 'active';
    media.connectionNew = true;
  }
  if (session === 'Download') media.downloadSpeed = o.downloadSpeed ?? 1;
  const sdp: GbSdp = {
    origin: { username: o.platformId, sessionId: '0', sessionVersion: '0', address: o.address },
    sessionName: session,
    address: o.address,
    start: live ? 0 : o.start!,
    stop: live ? 0 : o.stop!,
    media: [media],
    ssrc: o.ssrc,
  };
  if (!live) sdp.uri = `${o.channelId}:0`;
  if (o.format) sdp.format = o.format;
  return buildSdp(sdp);
}

export interface AnswerOptions {
  /** 20-digit id of the device or channel (o= user) */
  deviceId: string;
  /** where the device sends from (and listens, for TCP passive) */
  address: string;
  /** the device's media port (its source port, or its TCP listening port) */
  port: number;
  /** the SSRC the device will use; the offer's y= by default */
  ssrc?: string;
  fileSize?: number;
  format?: MediaFormatDescription;
}

/** How the media of a session flows, read from an offer. */
export interface MediaPlan {
  session: string;
  /** where to send */
  address: string;
  port: number;
  /** 'udp'; 'tcp-active' = the sender connects; 'tcp-passive' = the sender listens */
  transport: 'udp' | 'tcp-active' | 'tcp-passive';
  payloadType: number;
  encoding: string;
  ssrc?: string;
  start: number;
  stop: number;
  channelId?: string;
  downloadSpeed?: number;
}

/**
 * What the sending side (the device) must do for an offer: the first video medium with PS (or the
 * first format it maps). For TCP the roles flip: an offer with setup:passive means the platform
 * listens, so the device is active.
 */
export function planFromOffer(offer: GbSdp): MediaPlan {
  const m = offer.media.find((x) => x.kind === 'video');
  if (!m) throw new SdpError('missing', 'no video medium', 'm');
  const ps = m.rtpmaps.find((r) => r.encoding.toUpperCase() === 'PS' && m.formats.includes(r.payloadType));
  const map = ps ?? m.rtpmaps.find((r) => m.formats.includes(r.payloadType));
  if (!map) throw new SdpError('missing', 'no rtpmap for the offered formats', 'a');
  let transport: MediaPlan['transport'] = 'udp';
  if (m.transport === 'TCP/RTP/AVP') transport = m.setup === 'active' ? 'tcp-passive' : 'tcp-active';
  const plan: MediaPlan = {
    session: offer.sessionName,
    address: offer.address,
    port: m.port,
    transport,
    payloadType: map.payloadType,
    encoding: map.encoding,
    start: offer.start,
    stop: offer.stop,
  };
  if (offer.ssrc !== undefined) plan.ssrc = offer.ssrc;
  if (offer.uri !== undefined) plan.channelId = offer.uri.split(':')[0]!;
  if (m.downloadSpeed !== undefined) plan.downloadSpeed = m.downloadSpeed;
  return plan;
}

/** The device's 200 OK body for `offer`: one format, sendonly, the opposite TCP role, y= echoed. */
export function buildAnswer(offer: GbSdp, a: AnswerOptions): string {
  const plan = planFromOffer(offer);
  const m = offer.media.find((x) => x.kind === 'video')!;
  const media: SdpMedia = {
    kind: 'video',
    port: a.port,
    transport: m.transport,
    formats: [plan.payloadType],
    rtpmaps: [{ payloadType: plan.payloadType, encoding: plan.encoding, clockRate: 90000 }],
    direction: 'sendonly',
    attributes: [],
  };
  if (plan.transport !== 'udp') {
    media.setup = plan.transport === 'tcp-active' ? 'active' : 'passive';
    media.connectionNew = true;
  }
  if (a.fileSize !== undefined) media.fileSize = a.fileSize;
  const ssrc = a.ssrc ?? offer.ssrc;
  const sdp: GbSdp = {
    origin: { username: a.deviceId, sessionId: '0', sessionVersion: '0', address: a.address },
    sessionName: offer.sessionName,
    address: a.address,
    start: offer.start,
    stop: offer.stop,
    media: [media],
  };
  if (offer.uri !== undefined) sdp.uri = offer.uri;
  if (ssrc !== undefined) sdp.ssrc = ssrc;
  if (a.format) sdp.format = a.format;
  return buildSdp(sdp);
}
