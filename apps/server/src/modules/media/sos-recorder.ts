import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve, sep } from 'node:path';
import { LIVE_START_WAIT_MS } from '@bwc/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connection';
import { readSettings } from '../../db/settings';
import { findDevice } from '../devices/devices.repository';
import type { MediaGateway, ViewerSink } from './gateway';
import type { LiveService } from './live.service';

const require = createRequire(import.meta.url);

/** What one SOS recording left: the FLV file and its first-frame picture (null when not made). */
export interface SosRecording {
  deviceId: number;
  video: string;
  picture: string | null;
  bytes: number;
}

const stamp = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);

/** A path under `root`, refusing anything that leaves it (the settings refuse '..' already). */
function under(root: string, ...parts: string[]): string {
  const base = resolve(root);
  const path = resolve(base, ...parts);
  if (path !== base && !path.startsWith(base + sep)) throw new Error(`path leaves the data directory: ${path}`);
  return path;
}

/**
 * Recording of an SOS's live video (map config getvideo_*): when getvideo_switch is 1, a device's
 * SOS makes it publish (as a console's request would) and the gateway writes getvideo_time seconds
 * of the stream to `<DATA_DIR>/<getvideo_path>/<hostbody>/<time>.flv`, then ffmpeg takes its first
 * frame into `<DATA_DIR>/<getpic_path>/<hostbody>/<time>.jpg`. The recorder counts as a viewer, so
 * the stream runs while it records; afterwards the idle rule stops it if nobody watches. Listeners
 * of `recorded` are told of each file (evidence ingest stores it as an item linked to its alarm).
 */
export class SosRecorder {
  private readonly active = new Set<number>();
  /** told of every recording written (evidence ingest stores it as an item) */
  readonly recorded: ((rec: SosRecording & { at: Date; sosEventId?: number }) => Promise<unknown>)[] = [];

  constructor(
    private readonly deps: {
      db: Db;
      gateway: MediaGateway;
      live: LiveService;
      dataDir: string;
      log: FastifyBaseLogger;
    },
  ) {}

  /** Record the device's stream after its SOS; resolves with what was written, null if nothing. */
  async onSos(deviceId: number, at: Date = new Date(), sosEventId?: number): Promise<SosRecording | null> {
    const { db, gateway, live, log } = this.deps;
    const map = await readSettings(db, 'digitailmap');
    if (map.getvideo_switch !== 1 || gateway.port === null || this.active.has(deviceId)) return null;
    const device = await findDevice(db, deviceId);
    if (!device || device.lineon !== 1 || device.remote_kill === 1) return null;
    this.active.add(deviceId);
    try {
      await live.start(device.id, null);
      if (!(await gateway.waitForPublish(device.id, LIVE_START_WAIT_MS))) {
        log.warn({ device: device.id }, 'SOS recording: the device did not start publishing');
        return null;
      }
      const name = stamp(at);
      const video = under(this.deps.dataDir, map.getvideo_path, device.hostbody, `${name}.flv`);
      await mkdir(under(this.deps.dataDir, map.getvideo_path, device.hostbody), { recursive: true });
      const bytes = await this.record(device.id, video, map.getvideo_time * 1000);
      if (bytes === 0) {
        await rm(video, { force: true });
        return null;
      }
      const picture = await this.firstFrame(
        video,
        under(this.deps.dataDir, map.getpic_path, device.hostbody, `${name}.jpg`),
      );
      log.info({ device: device.id, video, picture, bytes }, 'SOS recording written');
      const rec = { deviceId: device.id, video, picture, bytes };
      for (const hook of this.recorded)
        await hook({ ...rec, at, sosEventId }).catch((err: unknown) =>
          log.error({ err, device: device.id, video }, 'SOS recording: a listener failed'),
        );
      return rec;
    } finally {
      this.active.delete(deviceId);
    }
  }

  /** Write the stream to `path` for `ms` (or until it ends); answers the bytes written. */
  private record(deviceId: number, path: string, ms: number): Promise<number> {
    const { gateway } = this.deps;
    return new Promise((done) => {
      const file = createWriteStream(path);
      let bytes = 0;
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        clearTimeout(timer);
        gateway.unwatch(deviceId, sink);
        file.end(() => done(bytes));
      };
      const sink: ViewerSink = {
        id: 0,
        userId: 0,
        address: '',
        protocol: 'record',
        since: Date.now(),
        bytesOut: 0,
        write: (chunk) => {
          if (finished) return false;
          file.write(chunk);
          bytes += chunk.length;
          sink.bytesOut = bytes;
          return true;
        },
        close: finish,
      };
      const timer = setTimeout(finish, ms);
      file.on('error', (err) => {
        this.deps.log.error({ err, path }, 'SOS recording: file not written');
        finish();
      });
      if (!gateway.watch(deviceId, sink)) {
        finish();
        return;
      }
    });
  }

  /** The recording's first frame as a JPEG (ffmpeg); null when it cannot be made. */
  private async firstFrame(video: string, picture: string): Promise<string | null> {
    const ffmpeg = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
    await mkdir(resolve(picture, '..'), { recursive: true });
    const ok = await new Promise<boolean>((res) => {
      const child = spawn(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', '-i', video, '-frames:v', '1', picture]);
      child.stderr.resume();
      child.on('error', () => res(false));
      child.on('exit', (code) => res(code === 0));
    });
    if (!ok || !(await stat(picture).catch(() => null))?.size) {
      this.deps.log.warn({ video }, 'SOS recording: no first-frame picture');
      return null;
    }
    return picture;
  }
}
