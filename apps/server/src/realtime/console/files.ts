import { createReadStream } from 'node:fs';
import { mkdir, open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CmdStatus,
  fileExtension,
  Fid,
  GFILE_CHUNK_MAX_BYTES,
  GFILE_DOWNLOAD_PATH,
  GFILE_UPLOAD_PATH,
  IM_FILE_KINDS,
  ImType,
  MB,
  pickLanguage,
  type ImFileType,
  type Language,
} from '@bwc/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { hashToken } from '../../http/auth';
import { t } from '../../http/i18n';
import { mimeOfExtension } from '../../modules/system/background';
import { ConsoleError, ConsoleErrors } from './errors';
import { completeFile, findFile, insertFile, mayDownload, setReceived } from './im.repository';
import { findLoginByTokenHash } from './logins.repository';
import type { ConsoleDeps } from './service';
import type { Db } from '../../db/connection';

/**
 * Group files of instant messages: chunk upload with resume at the login's `upload_url_gfile`
 * (`POST <path>?token&uid&fid&offset&size&filename&im_type`, body = the bytes; `GET` of the same
 * address with `fid` answers the bytes received so far) and download (`GET
 * /gfile/file/<fid>?token&uid`: its uploader, and senders and recipients of messages carrying it).
 * Answers are JSON `{fid, received, size, cmd_status, error_reason}`; type and size are checked at
 * the first chunk against the message kind (image, voice, file).
 */

const FILES_DIR = 'console_files';

const Auth = z.object({ token: z.string().min(1).max(128), uid: z.coerce.number().int().positive() });
const UploadQuery = Auth.extend({
  fid: Fid,
  offset: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).optional(),
  filename: z.string().trim().min(1).max(255).optional(),
  im_type: z.coerce
    .number()
    .pipe(z.union([z.literal(ImType.IMAGE), z.literal(ImType.VOICE), z.literal(ImType.FILE)]))
    .default(ImType.FILE),
});

const httpStatusOf = (status: number) =>
  status === CmdStatus.BAD_CREDENTIALS || status === CmdStatus.NOT_LOGGED_ON
    ? 401
    : status === CmdStatus.FORBIDDEN
      ? 403
      : status === CmdStatus.NOT_FOUND
        ? 404
        : status === CmdStatus.CONFLICT
          ? 409
          : status === CmdStatus.TOO_LARGE
            ? 413
            : status === CmdStatus.SERVER_ERROR
              ? 500
              : 400;

/** One upload at a time per fid (chunks of one file are written in order). */
const locks = new Map<string, Promise<unknown>>();
function serial<T>(fid: string, task: () => Promise<T>): Promise<T> {
  const run = (locks.get(fid) ?? Promise.resolve()).then(task, task);
  const tail = run.catch(() => undefined);
  locks.set(fid, tail);
  void tail.then(() => {
    if (locks.get(fid) === tail) locks.delete(fid);
  });
  return run;
}

/** Content types of the file kinds messages carry (images come from the shared list). */
const MEDIA_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  wma: 'audio/x-ms-wma',
  aac: 'audio/aac',
  webm: 'audio/webm',
  ogg: 'audio/ogg',
  m4a: 'audio/mp4',
  amr: 'audio/amr',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  avi: 'video/x-msvideo',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  zip: 'application/zip',
};
const contentType = (ext: string) => MEDIA_TYPES[ext] ?? mimeOfExtension(ext);

/** What the file routes need of the service: the database, the data directory and the log. */
export type FileDeps = Pick<ConsoleDeps, 'db' | 'config' | 'log'>;

export function fileDir(deps: Pick<ConsoleDeps, 'config'>): string {
  return join(deps.config.dataDir, FILES_DIR);
}

export const downloadUrl = (fid: string): string => `${GFILE_DOWNLOAD_PATH}/${fid}`;

/** The login behind `token` and `uid` (active), or a 401-type error. */
async function uploader(db: Db, query: unknown): Promise<number> {
  const auth = Auth.safeParse(query);
  if (!auth.success) throw ConsoleErrors.notLoggedOn();
  const login = await findLoginByTokenHash(db, hashToken(auth.data.token));
  if (!login || login.status !== 'active' || login.uid !== auth.data.uid) throw ConsoleErrors.notLoggedOn();
  return login.uid;
}

function fieldError(err: z.ZodError): ConsoleError {
  const issue = err.issues[0]!;
  return ConsoleErrors.field(
    issue.path.join('.') || 'query',
    issue.code === 'invalid_type' && issue.input === undefined ? 'validation.required' : 'validation.invalid',
  );
}

async function upload(deps: FileDeps, req: FastifyRequest) {
  const uid = await uploader(deps.db, req.query);
  const parsed = UploadQuery.safeParse(req.query, { reportInput: true });
  if (!parsed.success) throw fieldError(parsed.error);
  const q = parsed.data;
  const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  if (body.length > GFILE_CHUNK_MAX_BYTES)
    throw ConsoleErrors.invalid('console.fileChunk', { max: GFILE_CHUNK_MAX_BYTES });
  return serial(q.fid, async () => {
    let file = await findFile(deps.db, q.fid);
    if (file && file.owner_uid !== uid) throw ConsoleErrors.refused('console.fileOwner', { fid: q.fid });
    if (!file) {
      if (q.size === undefined) throw ConsoleErrors.field('size', 'validation.required');
      if (!q.filename) throw ConsoleErrors.field('filename', 'validation.required');
      const kind = IM_FILE_KINDS[q.im_type as ImFileType];
      const ext = fileExtension(q.filename);
      if (!(kind.extensions as readonly string[]).includes(ext))
        throw ConsoleErrors.invalid('console.fileType', { ext: ext || '?' });
      if (q.size > kind.maxMb * MB) throw ConsoleErrors.invalid('console.fileSize', { mb: kind.maxMb });
      await insertFile(deps.db, { fid: q.fid, owner_uid: uid, filename: q.filename, im_type: q.im_type, size: q.size });
      file = (await findFile(deps.db, q.fid))!;
    }
    if (file.completed) throw ConsoleErrors.conflict('console.fileOffset', { expected: file.received });
    if (q.offset !== file.received) throw ConsoleErrors.conflict('console.fileOffset', { expected: file.received });
    if (file.received + body.length > file.size)
      throw ConsoleErrors.invalid('console.fileSize', { mb: Math.ceil(file.size / MB) });
    if (body.length) {
      await mkdir(fileDir(deps), { recursive: true });
      const handle = await open(join(fileDir(deps), q.fid), file.received === 0 ? 'w' : 'r+');
      try {
        await handle.write(body, 0, body.length, file.received);
      } finally {
        await handle.close();
      }
      await setReceived(deps.db, q.fid, file.received + body.length);
    }
    return { fid: q.fid, received: file.received + body.length, size: file.size };
  });
}

async function progress(deps: FileDeps, req: FastifyRequest) {
  const uid = await uploader(deps.db, req.query);
  const fid = Fid.safeParse((req.query as { fid?: unknown }).fid);
  if (!fid.success) throw ConsoleErrors.field('fid', 'validation.required');
  const file = await findFile(deps.db, fid.data);
  if (!file || file.owner_uid !== uid) return { fid: fid.data, received: 0, size: 0 };
  return { fid: file.fid, received: file.received, size: file.size };
}

function language(req: FastifyRequest): Language {
  const q = (req.query ?? {}) as { lang?: string };
  const header = req.headers['x-lang'] ?? req.headers['accept-language'];
  return pickLanguage(q.lang ?? (Array.isArray(header) ? header[0] : header));
}

async function answer(deps: FileDeps, req: FastifyRequest, reply: FastifyReply, work: () => Promise<object>) {
  try {
    const data = await work();
    return reply.code(200).send({ ...data, cmd_status: CmdStatus.OK, error_reason: '' });
  } catch (err) {
    if (!(err instanceof ConsoleError)) deps.log.error({ err }, 'console service: file upload failed');
    const e = err instanceof ConsoleError ? err : ConsoleErrors.server(req.id);
    const fid = (req.query as { fid?: string }).fid ?? '';
    return reply
      .code(httpStatusOf(e.status))
      .send({ fid, received: 0, size: 0, cmd_status: e.status, error_reason: t(language(req), e.key, e.params) });
  }
}

/** The upload and download routes on one server (the main one, or the service's own port). */
export async function registerFileRoutes(server: FastifyInstance, deps: FileDeps): Promise<void> {
  await server.register(async (scope) => {
    // a chunk is raw bytes whatever type the browser gives its Blob
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: GFILE_CHUNK_MAX_BYTES }, (_req, body, done) =>
      done(null, body),
    );
    scope.post(GFILE_UPLOAD_PATH, { config: { audit: false } }, (req, reply) =>
      answer(deps, req, reply, () => upload(deps, req)),
    );
    scope.get(GFILE_UPLOAD_PATH, (req, reply) => answer(deps, req, reply, () => progress(deps, req)));
    scope.get<{ Params: { fid: string } }>(`${GFILE_DOWNLOAD_PATH}/:fid`, async (req, reply) => {
      let uid: number;
      try {
        uid = await uploader(deps.db, req.query);
      } catch (err) {
        return answer(deps, req, reply, () => Promise.reject(err));
      }
      const file = Fid.safeParse(req.params.fid).success ? await findFile(deps.db, req.params.fid) : undefined;
      const allowed = file && file.completed && (file.owner_uid === uid || (await mayDownload(deps.db, file.fid, uid)));
      if (!file || !allowed)
        return answer(deps, req, reply, () =>
          Promise.reject(ConsoleErrors.notFound('console.fileNotFound', { fid: req.params.fid })),
        );
      const path = join(fileDir(deps), file.fid);
      const size = (await stat(path)).size;
      return reply
        .header('content-type', contentType(fileExtension(file.filename)))
        .header('content-length', size)
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.filename)}`)
        .send(createReadStream(path));
    });
  });
}

/** req_send_file_done: the caller's upload is complete; answers its description. */
export async function finishUpload(db: Db, uid: number, fid: string) {
  const file = await findFile(db, fid);
  if (!file || file.owner_uid !== uid) throw ConsoleErrors.notFound('console.fileNotFound', { fid });
  if (file.received !== file.size)
    throw ConsoleErrors.conflict('console.fileIncomplete', { received: file.received, size: file.size });
  await completeFile(db, fid);
  const url = downloadUrl(fid);
  return {
    fid,
    filename: file.filename,
    size: file.size,
    im_type: file.im_type as ImFileType,
    ourl: url,
    surl: file.im_type === ImType.IMAGE ? url : '',
  };
}
