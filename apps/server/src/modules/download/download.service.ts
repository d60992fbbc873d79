import { stat } from 'node:fs/promises';
import type { ServerDeps } from '../../deps';
import {
  DownloadAddFields,
  DownloadUpdateFields,
  UPLOAD_LIMIT_MB,
  UPLOAD_TYPES,
  type DownloadEntry,
  type DownloadListQuery,
  type Page,
} from '@bwc/protocol';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { now, type Db } from '../../db/connection';
import type { DownloadRow } from '../../db/types';
import type { AuthUser } from '../../http/auth';
import { Errors } from '../../http/errors';
import { issueToFieldError } from '../../http/validation';
import {
  commitFile,
  readMultipart,
  removeQuietly,
  storedPath,
  type MultipartUpload,
  type ReceivedFile,
} from '../system/file-store';
import { presentDownload, presentDownloadPage } from './download.presenter';
import {
  allDownloads,
  deleteDownloads,
  findDownload,
  findDownloads,
  insertDownload,
  listDownloads,
  updateDownload,
} from './download.repository';

/** Any extension of the upload catalogue (clients, players, documents, media). */
const ALLOWED_EXTENSIONS: readonly string[] = Object.values(UPLOAD_TYPES).flat();
const AREA = 'downloads';

export async function list(db: Db, query: DownloadListQuery): Promise<Page<DownloadEntry>> {
  return presentDownloadPage(await listDownloads(db, query), query.page, query.limit);
}

export async function center(db: Db): Promise<DownloadEntry[]> {
  return (await allDownloads(db)).map(presentDownload);
}

function readUpload(deps: ServerDeps, req: FastifyRequest): Promise<MultipartUpload> {
  return readMultipart(req, {
    dataDir: deps.config.dataDir,
    area: AREA,
    maxMb: UPLOAD_LIMIT_MB.download,
    allowed: ALLOWED_EXTENSIONS,
  });
}

/** Validate multipart text fields with a protocol schema; a failure discards the received file. */
async function parseFields<S extends z.ZodType>(schema: S, upload: MultipartUpload): Promise<z.output<S>> {
  const parsed = schema.safeParse(upload.fields, { reportInput: true });
  if (parsed.success) return parsed.data;
  await removeQuietly(upload.file?.tmpPath);
  throw issueToFieldError(parsed.error.issues[0] as Parameters<typeof issueToFieldError>[0], 'body');
}

const fileColumns = (file: ReceivedFile, storedName: string) => ({
  file_name: file.fileName,
  stored_name: storedName,
  file_size: file.size,
  sha256: file.sha256,
});

/** Commit the received file, then run `write`; if writing fails the committed file is removed. */
async function withCommittedFile<T>(
  deps: ServerDeps,
  file: ReceivedFile,
  write: (storedName: string) => Promise<T>,
): Promise<T> {
  const storedName = await commitFile(deps.config.dataDir, AREA, file);
  try {
    return await write(storedName);
  } catch (err) {
    await removeQuietly(storedPath(deps.config.dataDir, AREA, storedName));
    throw err;
  }
}

/** add: fields plus one file; a failure leaves no row and no file. */
export async function add(deps: ServerDeps, req: FastifyRequest, user: AuthUser): Promise<DownloadEntry> {
  const upload = await readUpload(deps, req);
  const fields = await parseFields(DownloadAddFields, upload);
  const { file } = upload;
  if (!file) throw Errors.field('file', 'validation.file.required');
  const ts = now();
  const row = await withCommittedFile(deps, file, (storedName) =>
    insertDownload(deps.db, {
      ...fields,
      ...fileColumns(file, storedName),
      creator_id: user.id,
      created: ts,
      updated: ts,
    }),
  );
  req.audit.target = row.id;
  return presentDownload(row);
}

/** update_post: fields, optionally a new file; the old file is removed only after the row points to the new one. */
export async function update(deps: ServerDeps, req: FastifyRequest): Promise<DownloadEntry> {
  const upload = await readUpload(deps, req);
  const { id, ...fields } = await parseFields(DownloadUpdateFields, upload);
  req.audit.target = id;
  const { file } = upload;
  const old = await findDownload(deps.db, id);
  if (!old) {
    await removeQuietly(file?.tmpPath);
    throw Errors.notFound('download');
  }
  const ts = now();
  if (!file) {
    const row = await updateDownload(deps.db, id, { ...fields, updated: ts });
    if (!row) throw Errors.notFound('download');
    return presentDownload(row);
  }
  const row = await withCommittedFile(deps, file, async (storedName) => {
    const updated = await updateDownload(deps.db, id, { ...fields, ...fileColumns(file, storedName), updated: ts });
    if (!updated) throw Errors.notFound('download');
    return updated;
  });
  await removeQuietly(storedPath(deps.config.dataDir, AREA, old.stored_name));
  return presentDownload(row);
}

/** del: all or nothing; files are removed after the rows are gone. */
export async function remove(deps: ServerDeps, ids: number[]): Promise<void> {
  const unique = [...new Set(ids)];
  const rows = await deps.db.transaction().execute(async (trx) => {
    const found = await findDownloads(trx, unique);
    if (found.length !== unique.length) throw Errors.notFound('download');
    await deleteDownloads(trx, unique);
    return found;
  });
  for (const row of rows) await removeQuietly(storedPath(deps.config.dataDir, AREA, row.stored_name));
}

export async function setIsIndex(db: Db, id: number, isIndex: number): Promise<DownloadEntry> {
  const row = await updateDownload(db, id, { is_index: isIndex, updated: now() });
  if (!row) throw Errors.notFound('download');
  return presentDownload(row);
}

/** The entry and its file on disk for streaming. */
export async function openFile(
  deps: ServerDeps,
  id: number,
): Promise<{ row: DownloadRow; path: string; size: number }> {
  const row = await findDownload(deps.db, id);
  if (!row) throw Errors.notFound('download');
  const path = storedPath(deps.config.dataDir, AREA, row.stored_name);
  const info = path ? await stat(path).catch(() => null) : null;
  if (!path || !info?.isFile()) throw Errors.notFound('file');
  return { row, path, size: info.size };
}
