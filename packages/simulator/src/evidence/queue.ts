import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ClipKind, RecordedClip } from './recorder';

/**
 * A camera's clips waiting for upload, kept on disk in its folder: each clip beside a small JSON
 * file (`<clip>.json`) with its upload metadata and, once the server has created the upload, the
 * tus upload address to resume at. A clip leaves the queue only when the server confirmed it
 * (stored, or "already stored"), so a restarted simulator sends again what was not confirmed.
 */

export interface QueuedClip {
  kind: ClipKind;
  /** the clip's file name in the folder, also the uploaded name */
  filename: string;
  filetype: string;
  fileid: string;
  recorded_at: string;
  size: number;
  /** the tus upload's address once created: a later attempt resumes there */
  upload_url?: string;
  /** failed attempts so far, and the last failure */
  attempts: number;
  last_error?: string;
}

/** Most clips a camera keeps waiting; older ones are dropped beyond it (a server away for hours). */
export const QUEUE_MAX = 20;
const META = '.json';

export class ClipQueue {
  /** clips dropped because the queue was full */
  dropped = 0;

  /**
   * The queue of the folder `dir` (made when missing). Leftovers of a simulator that stopped in
   * the middle are removed: half-written clips (.part and scratch files) and clips without their
   * JSON (stopped between the two writes); a JSON without its clip is dropped too.
   */
  constructor(
    readonly dir: string,
    private readonly max = QUEUE_MAX,
  ) {
    mkdirSync(dir, { recursive: true });
    const names = new Set(readdirSync(dir));
    for (const name of names) {
      const queued = name.endsWith(META);
      const clip = queued ? name.slice(0, -META.length) : name;
      const complete = queued ? names.has(clip) : names.has(`${name}${META}`);
      if (!complete) rmSync(join(dir, name), { force: true });
    }
  }

  /** The clip's file. */
  path(entry: Pick<QueuedClip, 'filename'>): string {
    return join(this.dir, entry.filename);
  }

  /** Queue a clip recorded into this folder; the oldest go when more than `max` wait. */
  add(clip: RecordedClip): QueuedClip {
    if (join(clip.path, '..') !== join(this.dir)) throw new Error(`${clip.path} is not in ${this.dir}`);
    const entry: QueuedClip = {
      kind: clip.kind,
      filename: basename(clip.path),
      filetype: clip.filetype,
      fileid: clip.fileid,
      recorded_at: clip.recorded_at,
      size: clip.size,
      attempts: 0,
    };
    this.write(entry);
    const waiting = this.pending();
    for (const old of waiting.slice(0, Math.max(0, waiting.length - this.max))) {
      this.remove(old);
      this.dropped += 1;
    }
    return entry;
  }

  /** The clips waiting, oldest first. */
  pending(): QueuedClip[] {
    const out: QueuedClip[] = [];
    for (const name of readdirSync(this.dir)) {
      if (!name.endsWith(META)) continue;
      const clip = name.slice(0, -META.length);
      try {
        const entry = JSON.parse(readFileSync(join(this.dir, name), 'utf8')) as QueuedClip;
        if (entry.filename === clip && existsSync(join(this.dir, clip))) out.push(entry);
        else rmSync(join(this.dir, name), { force: true });
      } catch {
        // unreadable: the clip cannot be described to the server any more
        rmSync(join(this.dir, name), { force: true });
        rmSync(join(this.dir, clip), { force: true });
      }
    }
    return out.sort((a, b) => a.recorded_at.localeCompare(b.recorded_at) || a.fileid.localeCompare(b.fileid));
  }

  /** Save a change of the entry (its upload address, a failure). */
  update(entry: QueuedClip, change: Partial<Pick<QueuedClip, 'upload_url' | 'attempts' | 'last_error'>>): void {
    Object.assign(entry, change);
    if (existsSync(this.path(entry))) this.write(entry);
  }

  /** The server confirmed the clip (or refused it for good): it leaves the queue and the disk. */
  remove(entry: QueuedClip): void {
    rmSync(join(this.dir, `${entry.filename}${META}`), { force: true });
    rmSync(this.path(entry), { force: true });
  }

  /** Replaced whole, so a stop in the middle never leaves half a JSON. */
  private write(entry: QueuedClip): void {
    const file = join(this.dir, `${entry.filename}${META}`);
    writeFileSync(`${file}.tmp`, JSON.stringify(entry));
    renameSync(`${file}.tmp`, file);
  }
}
