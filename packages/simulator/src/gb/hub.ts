/**
 * One process's share of the GB simulator: a SIP UDP socket for all its devices, one UDP socket
 * for all their RTP, the ffmpeg binary and font. Devices are cheap: timers and a few maps each.
 */
import dgram from 'node:dgram';
import { findFfmpeg, findFont } from '../camera';
import { GbDevice, type GbDeviceOptions } from './device';
import { connectTcp, UdpHub, type SipHandler, type SipLink } from './sip-link';

export interface GbSimHubOptions {
  /** local address of the devices (default 127.0.0.1) */
  host?: string;
  /** SIP UDP port of all devices (default 0: any free port) */
  sipPort?: number;
  /** default findFfmpeg() */
  ffmpeg?: string | null;
  /** default findFont() */
  font?: string | null;
}

export class GbSimHub {
  readonly host: string;
  readonly ffmpeg: string | null;
  readonly font: string | null;
  readonly devices = new Map<string, GbDevice>();
  private readonly udp: UdpHub;
  private media: dgram.Socket | null = null;
  private started = false;

  constructor(private readonly options: GbSimHubOptions = {}) {
    this.host = options.host ?? '127.0.0.1';
    this.ffmpeg = options.ffmpeg === undefined ? findFfmpeg() : options.ffmpeg;
    this.font = options.font === undefined ? findFont() : options.font;
    this.udp = new UdpHub(this.host);
  }

  /** The shared SIP UDP port. */
  get sipPort(): number {
    return this.udp.port;
  }

  /** SIP datagrams no device took. */
  get dropped(): number {
    return this.udp.dropped;
  }

  async start(): Promise<void> {
    if (this.started) return;
    await this.udp.start(this.options.sipPort ?? 0);
    this.started = true;
  }

  /** A device on this hub (not started). */
  device(options: GbDeviceOptions): GbDevice {
    if (this.devices.has(options.deviceId)) throw new Error(`device ${options.deviceId} exists`);
    const d = new GbDevice(this, options);
    this.devices.set(d.id, d);
    return d;
  }

  /**
   * Starts devices spread over time (`perSecond`, default 500): a burst of thousands of REGISTERs
   * overflows socket buffers and ends in retransmissions. Resolves with how many registered.
   */
  async startAll(devices: GbDevice[] = [...this.devices.values()], perSecond = 500): Promise<number> {
    const gap = 1000 / Math.max(1, perSecond);
    const results = await Promise.all(
      devices.map(
        (d, i) =>
          new Promise<boolean>((resolve) => {
            setTimeout(() => resolve(d.start().catch(() => false)), Math.round(i * gap));
          }),
      ),
    );
    return results.filter(Boolean).length;
  }

  /** Counters over all devices. */
  stats(): { devices: number; registered: number; streams: number; retransmissions: number; dropped: number } {
    let registered = 0;
    let streams = 0;
    let retransmissions = 0;
    for (const d of this.devices.values()) {
      if (d.registered) registered++;
      streams += d.streams;
      retransmissions += d.retransmissions;
    }
    return { devices: this.devices.size, registered, streams, retransmissions, dropped: this.udp.dropped };
  }

  /** Stops every device (unregistering them, `perSecond` at a time) and closes the sockets. */
  async stop(perSecond = 500): Promise<void> {
    const gap = 1000 / Math.max(1, perSecond);
    await Promise.all(
      [...this.devices.values()].map(
        (d, i) => new Promise<void>((resolve) => setTimeout(() => resolve(d.stop()), Math.round(i * gap))),
      ),
    );
    this.devices.clear();
    await this.udp.stop();
    const m = this.media;
    this.media = null;
    if (m) await new Promise<void>((r) => m.close(() => r()));
    this.started = false;
  }

  udpLink(users: string[], handler: SipHandler, server: { host: string; port: number }): SipLink {
    if (!this.started) throw new Error('hub not started');
    return this.udp.link(users, handler, server);
  }

  tcpLink(server: { host: string; port: number }, handler: SipHandler, onClose: () => void): Promise<SipLink> {
    return connectTcp(server, this.host, handler, onClose);
  }

  /** The RTP socket shared by all UDP streams. */
  async mediaSocket(): Promise<dgram.Socket> {
    if (this.media) return this.media;
    const s = dgram.createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.bind(0, this.host, () => {
        s.off('error', reject);
        resolve();
      });
    });
    s.on('error', () => {});
    s.setSendBufferSize(4 * 1024 * 1024);
    if (this.media) {
      s.close();
      return this.media;
    }
    this.media = s;
    return s;
  }
}
