import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MB } from '@bwc/protocol';
import type { FastifyRequest } from 'fastify';
import { Errors } from '../../http/errors';

/**
 * Uploaded files live under DATA_DIR/<area>/ with a generated name; the client's file name is
 * kept only as data (shown, sent back in content-disposition), never used as a path.
 */
export type StorageArea = 'downloads' | 'backgrounds';

/** Bytes kept from the start of an upload for content sniffing. */
const HEAD_BYTES = 16;
const FILE_FIELD = 'file';
/** generated names: a UUID plus an extension taken from an allow-list */
const STORED_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(\.[a-z0-9]{1,8})?$/;
const NAME_MAX = 255;

export interface ReceivedFile {
  /** temporary path inside the area's .tmp folder until committed */
  tmpPath: string;
  /** the client's file name, reduced to a safe base name */
  fileName: string;
  /** lower-case extension without dot, '' when none */
  ext: string;
  size: number;
  sha256: string;
  head: Buffer;
}

export interface MultipartUpload {
  fields: Record<string, string>;
  file: ReceivedFile | null;
}

export function areaDir(dataDir: string, area: StorageArea): string {
  return join(dataDir, area);
}

/** Absolute path of a stored file, or null when the name is not one we generated. */
export function storedPath(dataDir: string, area: StorageArea, storedName: string): string | null {
  return STORED_NAME.test(storedName) ? join(areaDir(dataDir, area), storedName) : null;
}

/** Base name of a client file name (either path separator), without control characters, at most 255 characters. */
export function safeClientName(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/\p{Cc}/gu, '').trim();
  if (base.length <= NAME_MAX) return base;
  const ext = extensionOf(base);
  return ext ? `${base.slice(0, NAME_MAX - ext.length - 1)}.${ext}` : base.slice(0, NAME_MAX);
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/**
 * Empty the area's temporary folder: at start no upload is in flight, so anything there was
 * left by a process that stopped mid-upload.
 */
export async function clearTemporary(dataDir: string, area: StorageArea): Promise<void> {
  await rm(join(areaDir(dataDir, area), '.tmp'), { recursive: true, force: true });
}

export async function removeQuietly(path: string | null | undefined): Promise<void> {
  if (path) await rm(path, { force: true });
}

/**
 * Read a multipart request: text fields and at most one file part named `file`, streamed to a
 * temporary file while its size and sha256 are computed. The extension is checked against
 * `allowed` before anything is written; the size cap is `maxMb`. On any failure nothing is left
 * behind. The caller commits the file (`commitFile`) or discards it (`removeQuietly(tmpPath)`).
 */
export async function readMultipart(
  req: FastifyRequest,
  options: { dataDir: string; area: StorageArea; maxMb: number; allowed: readonly string[] },
): Promise<MultipartUpload> {
  if (!req.isMultipart()) throw Errors.badBody();
  const tmpDir = join(areaDir(options.dataDir, options.area), '.tmp');
  await mkdir(tmpDir, { recursive: true });
  const fields: Record<string, string> = {};
  let file: ReceivedFile | null = null;
  try {
    for await (const part of req.parts({ limits: { fileSize: options.maxMb * MB } })) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== FILE_FIELD) {
        part.file.resume();
        throw Errors.field(part.fieldname, 'validation.unknownField');
      }
      const fileName = safeClientName(part.filename ?? '');
      const ext = extensionOf(fileName);
      if (!fileName) {
        part.file.resume();
        throw Errors.field(FILE_FIELD, 'validation.file.required');
      }
      if (!options.allowed.includes(ext)) {
        part.file.resume();
        throw Errors.field(FILE_FIELD, 'validation.file.type');
      }
      file = await receive(part.file, tmpDir, fileName, ext, options.maxMb);
    }
  } catch (err) {
    await removeQuietly(file?.tmpPath);
    throw err;
  }
  return { fields, file };
}

async function receive(
  source: NodeJS.ReadableStream & { truncated?: boolean },
  tmpDir: string,
  fileName: string,
  ext: string,
  maxMb: number,
): Promise<ReceivedFile> {
  const tmpPath = join(tmpDir, randomUUID());
  const hash = createHash('sha256');
  let size = 0;
  let head = Buffer.alloc(0);
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      size += chunk.length;
      if (head.length < HEAD_BYTES) head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
      done(null, chunk);
    },
  });
  try {
    await pipeline(source, tap, createWriteStream(tmpPath, { flags: 'wx' }));
  } catch (err) {
    await removeQuietly(tmpPath);
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw Errors.field(FILE_FIELD, 'validation.file.size', { mb: maxMb });
    throw err;
  }
  if (source.truncated) {
    await removeQuietly(tmpPath);
    throw Errors.field(FILE_FIELD, 'validation.file.size', { mb: maxMb });
  }
  if (size === 0) {
    await removeQuietly(tmpPath);
    throw Errors.field(FILE_FIELD, 'validation.file.required');
  }
  return { tmpPath, fileName, ext, size, sha256: hash.digest('hex'), head };
}

/** Move a received file to its final generated name in the area; returns that name. */
export async function commitFile(dataDir: string, area: StorageArea, file: ReceivedFile): Promise<string> {
  const storedName = `${randomUUID()}${file.ext ? `.${file.ext}` : ''}`;
  await rename(file.tmpPath, join(areaDir(dataDir, area), storedName));
  return storedName;
}

/** `attachment` with an ASCII fallback name and the exact UTF-8 name (RFC 6266 / 5987). */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
