import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { chmod, mkdir, open, rename, rm, stat, copyFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where evidence bytes live (issue 15 section 1): originals, thumbnails and derivatives, each by
 * its SHA-256, never modified once written. The local store keeps them under
 * DATA_DIR/evidence/objects/<2>/<2>/<sha256>, read-only; an object store (S3) implements the same
 * interface later.
 */
export interface ContentStore {
  /** Take a finished file (its hash already known) into the store; the file is moved or copied. */
  adopt(file: string, sha256: string): Promise<void>;
  has(sha256: string): Promise<boolean>;
  size(sha256: string): Promise<number | null>;
  /** The bytes from `start` to `end` inclusive (the whole object without them). */
  read(sha256: string, range?: { start: number; end: number }): Readable;
  /** SHA-256 of the stored bytes, read again now (verification on download and in the check command). */
  rehash(sha256: string): Promise<string>;
  remove(sha256: string): Promise<void>;
  /** A local path ffmpeg/ffprobe can read, when the store has one. */
  localPath(sha256: string): string | null;
}

const SHA = /^[0-9a-f]{64}$/;

/**
 * Flush a file's bytes (fdatasync) or a folder's entries (fsync, so a rename survives a power cut)
 * to the disk.
 */
export async function syncPath(path: string, kind: 'file' | 'dir'): Promise<void> {
  const handle = await open(path, 'r');
  try {
    if (kind === 'file') await handle.datasync();
    else await handle.sync();
  } finally {
    await handle.close();
  }
}

export class LocalContentStore implements ContentStore {
  readonly root: string;
  constructor(dataDir: string) {
    this.root = join(dataDir, 'evidence', 'objects');
  }

  private path(sha256: string): string {
    if (!SHA.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
    return join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  localPath(sha256: string): string {
    return this.path(sha256);
  }

  async adopt(file: string, sha256: string): Promise<void> {
    const target = this.path(sha256);
    if (await this.has(sha256)) {
      // same content stored before (content addressing): keep the stored copy
      await rm(file, { force: true });
      return;
    }
    await mkdir(dirname(target), { recursive: true });
    const temp = `${target}.part`;
    try {
      await rename(file, temp);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await copyFile(file, temp);
      await rm(file, { force: true });
    }
    // on disk before it is acknowledged: a camera deletes its copy once its upload is answered
    await syncPath(temp, 'file');
    await chmod(temp, 0o444);
    await rename(temp, target);
    await syncPath(dirname(target), 'dir');
  }

  async has(sha256: string): Promise<boolean> {
    return (await this.size(sha256)) !== null;
  }

  async size(sha256: string): Promise<number | null> {
    try {
      return (await stat(this.path(sha256))).size;
    } catch {
      return null;
    }
  }

  read(sha256: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.path(sha256), range);
  }

  async rehash(sha256: string): Promise<string> {
    const hash = createHash('sha256');
    await pipeline(createReadStream(this.path(sha256)), hash);
    return hash.digest('hex');
  }

  async remove(sha256: string): Promise<void> {
    await rm(this.path(sha256), { force: true });
  }
}
