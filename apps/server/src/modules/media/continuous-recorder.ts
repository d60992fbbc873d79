import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { Settings } from '@bwc/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connection';
import { readSettings } from '../../db/settings';
import { findDevice } from '../devices/devices.repository';
import type { MediaGateway } from './gateway';
import { LiveStream, type StreamTap } from './live-stream';

/** One finished segment of a recorded live stream: an FLV file starting at a keyframe. */
export interface LiveSegment {
  deviceId: number;
  video: string;
  /** when its first frame was received */
  at: Date;
  bytes: number;
}

/** How often the setting is read again (a change on any node reaches the node holding the stream). */
const SETTINGS_POLL_MS = 5_000;
/** How often segment files older than cloudstorage.keep_days are removed. */
const SWEEP_MS = 3_600_000;
/** A segment file's name (see `stamp`): the sweep removes nothing else. */
const SEGMENT_FILE = /^\d{8}-\d{6}-\d{3}\.flv$/;

/** One stream being recorded; `file` is the open segment (null before its first keyframe). */
interface Recording {
  deviceId: number;
  hostbody: string;
  tap: StreamTap;
  file: WriteStream | null;
  path: string;
  at: Date;
  /** stream time (ms) of the segment's first frame: tags are written relative to it */
  base: number;
  /** the newest stream time seen */
  last: number;
  bytes: number;
  headers: { meta: Buffer | null; audio: Buffer | null; video: Buffer | null };
  /** the setting was turned off: the open segment is the last */
  stopping: boolean;
}

const stamp = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace('T', '-').replace('.', '-').slice(0, 19);

/** The tag's timestamp (24 bits and the extended upper byte). */
const tagTime = (tag: Buffer) => ((tag[7]! << 24) | tag.readUIntBE(4, 3)) >>> 0;

/** A copy of the tag with its timestamp set to `ms`. */
function retimed(tag: Buffer, ms: number): Buffer {
  const out = Buffer.from(tag);
  out.writeUIntBE(ms & 0xffffff, 4, 3);
  out[7] = (ms >>> 24) & 0xff;
  return out;
}

/**
 * Recording of every live stream (setting cloudstorage.record_live, issue 15 section 1d): while
 * it is on, each stream this node's gateway receives is tapped (not a viewer: the idle rule still
 * stops streams nobody watches) and written as FLV segments of record_minutes to
 * `<DATA_DIR>/<record_path>/<hostbody>/<time>.flv`. A segment ends at the first keyframe after
 * its length (the next one starts with that keyframe, so nothing is lost between them) or when the
 * stream ends (a shorter last segment). Listeners of `recorded` are told of each finished segment
 * (evidence ingest stores it as an item). Turning the setting off lets the open segments finish
 * and starts no new ones; turning it on starts recording the streams already published. Segment
 * files older than keep_days are removed hourly.
 */
export class ContinuousRecorder {
  private readonly recordings = new Map<number, Recording>();
  private readonly pending = new Set<Promise<unknown>>();
  private settings: Settings<'cloudstorage'> | null = null;
  private readonly timer: NodeJS.Timeout;
  private readonly sweeper: NodeJS.Timeout;
  private closed = false;
  /** told of every segment written (evidence ingest stores it as an item) */
  readonly recorded: ((segment: LiveSegment) => Promise<unknown>)[] = [];
  /** segment length in ms instead of record_minutes (tests) */
  segmentMs: number | null;

  constructor(
    private readonly deps: {
      db: Db;
      gateway: MediaGateway;
      dataDir: string;
      log: FastifyBaseLogger;
      segmentMs?: number;
      pollMs?: number;
    },
  ) {
    this.segmentMs = deps.segmentMs ?? null;
    deps.gateway.onPublish.push((deviceId) => this.track(this.published(deviceId)));
    this.timer = setInterval(() => this.track(this.refresh()), deps.pollMs ?? SETTINGS_POLL_MS);
    this.timer.unref();
    this.sweeper = setInterval(() => this.track(this.sweep()), SWEEP_MS);
    this.sweeper.unref();
  }

  /** Devices whose stream is being recorded now. */
  recording(): number[] {
    return [...this.recordings.keys()];
  }

  /** Read the setting again: start recording published streams when on, finish when off. */
  async refresh(): Promise<void> {
    const settings = await readSettings(this.deps.db, 'cloudstorage');
    if (this.closed) return;
    this.settings = settings;
    if (settings.record_live === 1) {
      for (const deviceId of this.deps.gateway.streams.keys()) await this.start(deviceId);
      for (const rec of this.recordings.values()) rec.stopping = false;
    } else for (const rec of this.recordings.values()) rec.stopping = true;
  }

  private async published(deviceId: number): Promise<void> {
    this.settings = await readSettings(this.deps.db, 'cloudstorage');
    if (this.settings.record_live === 1) await this.start(deviceId);
  }

  private async start(deviceId: number): Promise<void> {
    if (this.closed || this.recordings.has(deviceId) || !this.deps.gateway.streams.has(deviceId)) return;
    const device = await findDevice(this.deps.db, deviceId);
    if (!device || this.closed || this.recordings.has(deviceId)) return;
    const rec: Recording = {
      deviceId,
      hostbody: device.hostbody,
      tap: { tag: (tag, flags) => this.tag(rec, tag, flags), close: () => this.stop(rec) },
      file: null,
      path: '',
      at: new Date(),
      base: 0,
      last: 0,
      bytes: 0,
      headers: { meta: null, audio: null, video: null },
      stopping: false,
    };
    this.recordings.set(deviceId, rec);
    if (!this.deps.gateway.tap(deviceId, rec.tap)) {
      this.recordings.delete(deviceId);
      return;
    }
    // the GOP cache was written at once: the first frame was received that much earlier
    if (rec.file) rec.at = new Date(rec.at.getTime() - (rec.last - rec.base));
    this.deps.log.info({ device: deviceId }, 'live recording started');
  }

  private segmentLength(): number {
    return this.segmentMs ?? (this.settings?.record_minutes ?? 30) * 60_000;
  }

  /** A tag of the stream: headers are kept for each segment; frames go into the open segment. */
  private tag(rec: Recording, tag: Buffer, flags: number): void {
    switch (flags) {
      case 5:
        rec.headers.meta = tag;
        return;
      case 0:
        rec.headers.audio = tag;
        return;
      case 2:
        rec.headers.video = tag;
        return;
    }
    const time = tagTime(tag);
    rec.last = time;
    // a segment starts at a keyframe (at any frame when the stream has no video)
    const cut = flags === 3 || (rec.headers.video === null && flags === 1);
    if (rec.file && cut && time - rec.base >= this.segmentLength()) {
      this.finish(rec);
      if (rec.stopping || this.closed) return this.stop(rec);
    }
    if (!rec.file) {
      if (rec.stopping || this.closed) return this.stop(rec);
      if (!cut) return;
      this.open(rec, time);
    }
    const out = retimed(tag, Math.max(0, time - rec.base));
    rec.file!.write(out);
    rec.bytes += out.length;
  }

  private open(rec: Recording, time: number): void {
    const root = resolve(this.deps.dataDir);
    const dir = resolve(root, this.settings?.record_path ?? 'recordings', rec.hostbody);
    if (!dir.startsWith(root + sep)) throw new Error(`path leaves the data directory: ${dir}`);
    mkdirSync(dir, { recursive: true });
    rec.at = new Date();
    rec.path = resolve(dir, `${stamp(rec.at)}.flv`);
    rec.base = time;
    rec.bytes = 0;
    const file = createWriteStream(rec.path);
    file.on('error', (err) => this.deps.log.error({ err, path: rec.path }, 'live recording: file not written'));
    file.write(LiveStream.header());
    for (const h of [rec.headers.meta, rec.headers.audio, rec.headers.video]) if (h) file.write(retimed(h, 0));
    rec.file = file;
  }

  /** Close the open segment and hand it to the listeners (an empty one is removed). */
  private finish(rec: Recording): void {
    const file = rec.file;
    if (!file) return;
    rec.file = null;
    const segment: LiveSegment = { deviceId: rec.deviceId, video: rec.path, at: rec.at, bytes: rec.bytes };
    this.track(
      new Promise<void>((done) => file.end(done)).then(async () => {
        if (segment.bytes === 0) return rm(segment.video, { force: true });
        this.deps.log.info(segment, 'live recording: segment written');
        for (const hook of this.recorded)
          await hook(segment).catch((err: unknown) =>
            this.deps.log.error({ err, ...segment }, 'live recording: a listener failed'),
          );
      }),
    );
  }

  /** The stream ended (or recording stops): the open segment is the last. */
  private stop(rec: Recording): void {
    if (this.recordings.get(rec.deviceId) !== rec) return;
    this.recordings.delete(rec.deviceId);
    this.deps.gateway.untap(rec.deviceId, rec.tap);
    this.finish(rec);
    this.deps.log.info({ device: rec.deviceId }, 'live recording stopped');
  }

  /**
   * Remove this node's segment files older than cloudstorage.keep_days (their evidence items are
   * kept by the retention rules). Answers how many were removed.
   */
  async sweep(now = Date.now()): Promise<number> {
    const { keep_days, record_path } = await readSettings(this.deps.db, 'cloudstorage');
    const root = resolve(this.deps.dataDir, record_path);
    const before = now - keep_days * 86_400_000;
    const open = new Set([...this.recordings.values()].map((r) => r.path));
    let removed = 0;
    for (const dir of await readdir(root, { withFileTypes: true }).catch(() => [])) {
      if (!dir.isDirectory()) continue;
      for (const name of await readdir(join(root, dir.name)).catch(() => [])) {
        const file = join(root, dir.name, name);
        if (!SEGMENT_FILE.test(name) || open.has(file)) continue;
        const info = await stat(file).catch(() => null);
        if (info?.isFile() && info.mtimeMs < before) {
          await rm(file, { force: true });
          removed += 1;
        }
      }
    }
    return removed;
  }

  private track(p: Promise<unknown>): void {
    const tracked = p
      .catch((err: unknown) => this.deps.log.error({ err }, 'live recording failed'))
      .finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  /** Stop recording: the open segments are finished and stored before this resolves. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    clearInterval(this.sweeper);
    for (const rec of [...this.recordings.values()]) this.stop(rec);
    while (this.pending.size) await Promise.all([...this.pending]);
  }
}
