import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import {
  DEVICE_UPLOAD_PATH,
  EVIDENCE_CLASSES,
  EVIDENCE_EXTS,
  MB,
  MenuId,
  ResultCode,
  UPLOAD_EXPIRY_H,
  UPLOAD_PATH,
  UploadMetadata,
  WORKSTATION_UPLOAD_PATH,
  type Language,
} from '@bwc/protocol';
import { MemoryLocker, Server, type ServerOptions } from '@tus/server';
import { ERRORS, Metadata, type Upload } from '@tus/utils';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { lookupSession, requireLiveSession } from '../../../http/auth';
import { AppError } from '../../../http/errors';
import { requestLanguage, t } from '../../../http/i18n';
import { issueToFieldError } from '../../../http/validation';
import { roleCan } from '../../auth/permission.repository';
import type { DeviceRuntime } from '../../devices/runtime';
import type { EvidenceContext } from '../evidence.module';
import { DerivativeQueue } from './derivatives';
import { LiveRecordings } from './live-recording';
import { finishUpload, type Uploader } from './finish';
import { EVIDENCE_ERROR_HEADER, EVIDENCE_ITEM_HEADER, refusal, TusRefusal } from './refusal';
import { classOfExt, extOf } from './sniff';
import { BodyOverLength } from './direct-write';
import { EvidenceUploadStore, type NewUpload } from './upload-store';

/** tus methods (GET is not part of tus: a finished upload is read in the library). */
const TUS_METHODS = ['POST', 'HEAD', 'PATCH', 'DELETE', 'OPTIONS'];
/** How often unfinished uploads past UPLOAD_EXPIRY_H are looked for. */
const SWEEP_INTERVAL_MS = 10 * 60_000;

/** What the route learnt about a request, read again by tus's hooks. */
interface RequestContext {
  who: Uploader;
  lang: Language;
  /** the new upload's row (POST) */
  row?: NewUpload;
  createdId?: string;
}
const CONTEXT = Symbol('evidence upload');
type WithContext = IncomingMessage & { [CONTEXT]?: RequestContext };

/** The route's context from a tus (srvx) request. */
function contextOf(req: unknown): RequestContext {
  const node = (req as { runtime?: { node?: { req?: WithContext } } }).runtime?.node?.req;
  const ctx = node?.[CONTEXT];
  if (!ctx) throw new Error('evidence upload without its route context');
  return ctx;
}

const notFound = () => new AppError(ResultCode.NOT_FOUND, 'errors.ingest.uploadNotFound');

declare module 'fastify' {
  interface FastifyInstance {
    /** evidence ingest: the upload store and the derivative queue (sweeps, diagnostics, tests) */
    evidenceIngest: { store: EvidenceUploadStore; derivatives: DerivativeQueue };
  }
}

/**
 * Evidence ingest (issue 15): tus 1.0.0 uploads (core, creation, termination, expiration; served
 * by @tus/server on a store of our own, upload-store.ts) for console users at UPLOAD_PATH and for
 * cameras at DEVICE_UPLOAD_PATH. The route authenticates and checks every request before tus
 * sees it; creation is refused early (metadata, extension, size, duplicates); the last PATCH
 * turns the upload into an item (finish.ts). Docking workstations upload at
 * WORKSTATION_UPLOAD_PATH on behalf of the camera named by `hostbody` (modules/workstations).
 */
export async function registerIngest(
  app: FastifyInstance,
  ctx: EvidenceContext,
  { devices }: { devices: DeviceRuntime },
) {
  const store = new EvidenceUploadStore(
    app.db,
    join(app.config.dataDir, 'evidence', 'uploads'),
    UPLOAD_EXPIRY_H * 3_600_000,
    app.log,
  );
  const derivatives = new DerivativeQueue(app.db, ctx.store, store.dir, app.log);
  app.decorate('evidenceIngest', { store, derivatives });
  // what the live gateway records (an SOS's video, linked to its alarm; live streams) becomes an item
  const live = new LiveRecordings({ app, ctx, derivatives, scratch: store.dir });
  app.sosRecorder.recorded.push((rec) =>
    live.ingest({ deviceId: rec.deviceId, video: rec.video, at: rec.at, sosEventId: rec.sosEventId }),
  );
  app.liveRecorder.recorded.push((seg) => live.ingest({ deviceId: seg.deviceId, video: seg.video, at: seg.at }));
  const finishing = new Set<string>();
  /**
   * PATCHes being written, by upload id. A newer request for the same upload (the client lost
   * the older connection and asked again) stops the older one first, as tus's locker does.
   */
  const writing = new Map<string, { stop: () => void; done: Promise<void> }>();
  const takeOver = async (id: string) => {
    for (let running = writing.get(id); running; running = writing.get(id)) {
      running.stop();
      await running.done;
    }
  };

  /**
   * Turn a complete upload into an item, once. An unexpected failure fails the upload (its HEAD
   * then answers 404 and tus-js-client creates a new one) rather than leaving a complete file
   * that a client would take for stored.
   */
  const finish = async (rc: RequestContext, id: string): Promise<number> => {
    if (finishing.has(id)) throw refusal(rc.lang, new AppError(ResultCode.CONFLICT, 'errors.ingest.uploadBusy'));
    finishing.add(id);
    try {
      return await finishUpload({ app, ctx, store, derivatives, lang: rc.lang }, rc.who, id);
    } catch (err) {
      if (!(err instanceof TusRefusal)) {
        await store.discard(id).catch(() => undefined);
        await store.fail(id, 'not stored').catch(() => undefined);
      }
      throw err;
    } finally {
      finishing.delete(id);
    }
  };

  const tusServer = (path: string) => {
    const options: ServerOptions & { datastore: EvidenceUploadStore } = {
      path,
      datastore: store,
      locker: new MemoryLocker(),
      relativeLocation: true,
      exposedHeaders: [EVIDENCE_ITEM_HEADER, EVIDENCE_ERROR_HEADER],
      namingFunction: (req) => {
        const rc = contextOf(req);
        const id = randomBytes(16).toString('hex');
        store.pending.set(id, rc.row!);
        rc.createdId = id;
        return id;
      },
      onUploadFinish: async (req, upload: Upload) => {
        const rc = contextOf(req);
        const itemId = await finish(rc, upload.id);
        return { headers: { [EVIDENCE_ITEM_HEADER]: String(itemId) } };
      },
      onResponseError: (req, err) => {
        if (err instanceof TusRefusal) return { status_code: err.status_code, body: err.body };
        if (!(err instanceof Error)) return undefined; // tus's own answers
        const requestId = randomBytes(8).toString('hex');
        app.log.error({ err, requestId }, 'evidence upload failed');
        const lang = (req as { runtime?: { node?: { req?: WithContext } } }).runtime?.node?.req?.[CONTEXT]?.lang;
        return { status_code: 500, body: `${t(lang ?? 'zh-CN', 'errors.server', { requestId })}\n` };
      },
    };
    return new Server(options);
  };

  /** The console user: a live session with 'add' on law-enforcement or outside media. */
  const userUploader = async (req: FastifyRequest): Promise<Uploader> => {
    const auth = await requireLiveSession(app, req, await lookupSession(app, req));
    const { user } = auth;
    const law = await roleCan(app.db, user.role_id, MenuId.LAW_MEDIA, 'add');
    const outside = await roleCan(app.db, user.role_id, MenuId.OUTSIDE_MEDIA, 'add');
    if (!law && !outside)
      throw new AppError(ResultCode.FORBIDDEN, 'errors.forbidden', {
        menu: MenuId.LAW_MEDIA,
        action: 'errors.actions.add',
      });
    return {
      kind: 'user',
      ownerId: user.id,
      unitId: user.unit_id,
      userId: user.id,
      uploadedBy: user.id,
      deviceId: null,
      hostbody: '',
      source: 'console',
      may: { law, outside },
      actor: { user_id: user.id, actor: user.username, unit_id: user.unit_id, ip: req.ip },
    };
  };

  /** The camera: its bearer token or Basic credentials, as on the rest of the device API. */
  const deviceUploader = async (req: FastifyRequest): Promise<Uploader> => {
    const device = await devices.authenticate(req);
    if (device.remote_kill === 1) throw new AppError(ResultCode.FORBIDDEN, 'errors.device.killed');
    const row = await app.db.selectFrom('devices').select('owner_id').where('id', '=', device.id).executeTakeFirst();
    return {
      kind: 'device',
      ownerId: device.id,
      unitId: device.unit_id,
      userId: row?.owner_id ?? null,
      uploadedBy: null,
      deviceId: device.id,
      hostbody: device.hostbody,
      source: 'device',
      may: { law: true, outside: false },
      actor: { user_id: null, actor: `device ${device.hostbody}`, unit_id: device.unit_id, ip: req.ip },
    };
  };

  /**
   * A docking workstation (its bearer token) for the camera `hostbody` of the metadata: docked in
   * it now for a new upload, of the station's units for the rest. The item is the camera's.
   */
  const workstationUploader = async (req: FastifyRequest, id: string | undefined): Promise<Uploader> => {
    const station = await app.workstations.authenticate(req);
    let hostbody: string | undefined;
    if (req.method === 'POST') {
      try {
        hostbody = Metadata.parse(String(req.headers['upload-metadata'] ?? ''))?.hostbody ?? undefined;
      } catch {
        throw new AppError(ResultCode.INVALID, 'validation.ingest.metadata');
      }
    } else {
      const row = id ? await store.row(id) : undefined;
      if (!row || row.owner_kind !== 'workstation' || row.owner_id !== station.id) throw notFound();
      hostbody = (JSON.parse(row.metadata) as { hostbody?: string }).hostbody;
    }
    const camera = await app.workstations.uploadCamera(station, hostbody?.trim(), req.method === 'POST');
    if (camera.remote_kill === 1) throw new AppError(ResultCode.FORBIDDEN, 'errors.device.killed');
    return {
      kind: 'workstation',
      ownerId: station.id,
      unitId: camera.unit_id,
      userId: camera.owner_id,
      uploadedBy: null,
      deviceId: camera.id,
      hostbody: camera.hostbody,
      source: 'workstation',
      workstationId: station.id,
      may: { law: true, outside: false },
      actor: {
        user_id: null,
        actor: `workstation ${station.code} (${camera.hostbody})`,
        unit_id: camera.unit_id,
        ip: req.ip,
      },
    };
  };

  /**
   * Creation checks (before tus creates anything): metadata, extension, size, permission for the
   * view, and the origin: a stored file is refused (409 + Evidence-Item), an open upload of the
   * same file is answered with its own Location (the client resumes it, see schemas/evidence.ts).
   */
  const prepareCreation = async (
    req: FastifyRequest,
    who: Uploader,
  ): Promise<{ row: NewUpload } | { existing: string }> => {
    const lengthHeader = req.headers['upload-length'];
    if (typeof lengthHeader !== 'string' || !/^\d+$/.test(lengthHeader))
      throw new AppError(ResultCode.INVALID, 'validation.ingest.length');
    const length = Number(lengthHeader);
    let raw: Record<string, string | null>;
    try {
      raw = Metadata.parse(String(req.headers['upload-metadata'] ?? '')) ?? {};
    } catch {
      throw new AppError(ResultCode.INVALID, 'validation.ingest.metadata');
    }
    const parsed = UploadMetadata.safeParse(
      Object.fromEntries(Object.entries(raw).filter((e): e is [string, string] => e[1] !== null)),
    );
    if (!parsed.success) throw issueToFieldError(parsed.error.issues[0]!, 'metadata');
    const meta = parsed.data;
    const ext = extOf(meta.filename);
    const cls = classOfExt(ext);
    if (!cls)
      throw new AppError(
        ResultCode.INVALID,
        'validation.ingest.badExtension',
        { ext: ext || '-', exts: EVIDENCE_EXTS.join(', ') },
        415,
      );
    const { maxMb } = EVIDENCE_CLASSES[cls];
    if (length > maxMb * MB)
      throw new AppError(ResultCode.INVALID, 'validation.ingest.tooLarge', { ext, mb: maxMb }, 413);
    if (length === 0) throw new AppError(ResultCode.INVALID, 'validation.ingest.empty');
    const outside = who.kind === 'user' && meta.outside === '1';
    if (outside ? !who.may.outside : !who.may.law)
      throw new AppError(ResultCode.FORBIDDEN, 'errors.forbidden', {
        menu: outside ? MenuId.OUTSIDE_MEDIA : MenuId.LAW_MEDIA,
        action: 'errors.actions.add',
      });
    const stored = { ...meta, outside: outside ? '1' : '0' };
    // a camera's file has one origin whether the camera or a workstation sends it
    const origin = meta.fileid ? `${who.kind === 'user' ? `u${who.ownerId}` : who.deviceId}:${meta.fileid}` : null;
    if (origin) {
      const item = await app.db
        .selectFrom('evidence_items')
        .select('id')
        .where('origin_key', '=', origin)
        .executeTakeFirst();
      if (item)
        throw Object.assign(new AppError(ResultCode.CONFLICT, 'errors.ingest.alreadyStored', { id: item.id }), {
          itemId: item.id,
        });
      const open = await app.db
        .selectFrom('evidence_uploads')
        .select(['id', 'length'])
        .where('origin_key', '=', origin)
        .where('state', '=', 'open')
        .where('owner_kind', '=', who.kind)
        .where('owner_id', '=', who.ownerId)
        .orderBy('created', 'desc')
        .executeTakeFirst();
      if (open && Number(open.length) === length && (await store.getUpload(open.id).catch(() => null)))
        return { existing: open.id };
    }
    return {
      row: { owner_kind: who.kind, owner_id: who.ownerId, origin_key: origin, metadata: JSON.stringify(stored) },
    };
  };

  const sendRefusal = (reply: FastifyReply, r: TusRefusal) =>
    reply
      .code(r.status_code)
      .headers({ 'tus-resumable': '1.0.0', 'content-type': 'text/plain; charset=utf-8', ...r.headers })
      .send(r.body);

  const refuse = (reply: FastifyReply, lang: Language, err: unknown) => {
    if (!(err instanceof AppError)) throw err;
    const itemId = (err as AppError & { itemId?: number }).itemId;
    return sendRefusal(reply, refusal(lang, err, itemId ? { [EVIDENCE_ITEM_HEADER]: String(itemId) } : {}));
  };

  /**
   * tus PATCH (core protocol, expiration) served here from the Node request rather than by
   * @tus/server, which turns every body into a web stream and back (one hop fewer per chunk; the
   * upload figures are in bench/README.md): headers checked, the upload taken over from an older
   * request, the body written through the store (hash thread, length limit), the last byte
   * finishing the item.
   */
  const patch = async (req: FastifyRequest, reply: FastifyReply, rc: RequestContext, id: string) => {
    const invalid = (key: string, params: Record<string, string | number> = {}, status = 400) =>
      sendRefusal(reply, refusal(rc.lang, new AppError(ResultCode.INVALID, key, params, status)));
    const h = req.headers;
    if (h['tus-resumable'] !== '1.0.0')
      return sendRefusal(
        reply,
        refusal(rc.lang, new AppError(ResultCode.INVALID, 'validation.ingest.tusVersion', {}, 412), {
          'tus-version': '1.0.0',
        }),
      );
    if (h['content-type'] !== 'application/offset+octet-stream')
      return invalid('validation.ingest.contentType', {}, 415);
    const offsetHeader = h['upload-offset'];
    if (typeof offsetHeader !== 'string' || !/^\d{1,15}$/.test(offsetHeader))
      return invalid('validation.ingest.offset');
    if (h['upload-length'] !== undefined) return invalid('validation.ingest.length');
    const offset = Number(offsetHeader);
    await takeOver(id);
    let stopped = false;
    let release!: () => void;
    writing.set(id, {
      stop: () => {
        stopped = true;
        req.raw.destroy();
      },
      done: new Promise<void>((resolve) => (release = resolve)),
    });
    let upload: Upload;
    let size: number;
    try {
      upload = await store.getUpload(id);
      size = upload.size!;
      if (Date.now() > new Date(upload.creation_date!).getTime() + store.getExpiration())
        return sendRefusal(
          reply,
          refusal(rc.lang, new AppError(ResultCode.NOT_FOUND, 'errors.ingest.uploadNotFound', {}, 410)),
        );
      if (upload.offset !== offset)
        return invalid('validation.ingest.offsetConflict', { sent: offset, offset: upload.offset }, 409);
      const length = h['content-length'];
      if (length !== undefined && offset + Number(length) > size)
        return invalid('validation.ingest.overLength', { left: size - offset }, 413);
      upload.offset = await store.write(req.raw, id, offset, size - offset);
    } catch (err) {
      if (err instanceof BodyOverLength) return invalid('validation.ingest.overLength', { left: err.left }, 413);
      if (err === ERRORS.FILE_NOT_FOUND) return sendRefusal(reply, refusal(rc.lang, notFound()));
      throw err;
    } finally {
      writing.delete(id);
      release();
    }
    if (stopped) return; // a newer request took the upload over; this one has no client left
    const headers: Record<string, string> = { 'tus-resumable': '1.0.0', 'upload-offset': String(upload.offset) };
    if (upload.offset === size) {
      try {
        headers[EVIDENCE_ITEM_HEADER] = String(await finish(rc, id));
      } catch (err) {
        if (err instanceof TusRefusal) return sendRefusal(reply, err);
        throw err;
      }
    } else
      headers['upload-expires'] = new Date(
        new Date(upload.creation_date!).getTime() + store.getExpiration(),
      ).toUTCString();
    return reply.code(204).headers(headers).send();
  };

  const route = (path: string, kind: Uploader['kind']) => {
    const tus = tusServer(path);
    return async (req: FastifyRequest, reply: FastifyReply) => {
      const lang = requestLanguage(req);
      const id = (req.params as { id?: string }).id;
      let rc: RequestContext | undefined;
      try {
        if (req.method !== 'OPTIONS') {
          const who =
            kind === 'device'
              ? await deviceUploader(req)
              : kind === 'workstation'
                ? await workstationUploader(req, id)
                : await userUploader(req);
          rc = { who, lang };
          if (req.method === 'POST') {
            if (id) throw notFound();
            const prepared = await prepareCreation(req, who);
            if ('existing' in prepared) {
              const upload = await store.getUpload(prepared.existing);
              return reply
                .code(201)
                .headers({
                  'tus-resumable': '1.0.0',
                  location: `${path}/${prepared.existing}`,
                  'upload-offset': String(upload.offset),
                })
                .send();
            }
            rc.row = prepared.row;
          } else {
            let row = id ? await store.row(id) : undefined;
            if (!row || row.owner_kind !== kind || row.owner_id !== who.ownerId) throw notFound();
            // a HEAD or DELETE answers after a running PATCH of the upload has stopped
            if (req.method !== 'PATCH' && writing.has(row.id)) {
              await takeOver(row.id);
              row = (await store.row(row.id))!;
            }
            if (req.method === 'PATCH' && row.state === 'done')
              throw Object.assign(
                new AppError(ResultCode.CONFLICT, 'errors.ingest.alreadyStored', { id: row.item_id ?? 0 }),
                { itemId: row.item_id },
              );
            // every byte arrived but the server stopped before storing it (a crash): store it now,
            // since the client takes offset == length for done
            if (req.method === 'HEAD' && row.state === 'open' && !finishing.has(row.id)) {
              const upload = await store.getUpload(row.id).catch(() => null);
              if (upload && upload.offset === upload.size) {
                const itemId = await finish(rc, row.id).catch((err: unknown) => {
                  if (err instanceof TusRefusal) return err;
                  throw err;
                });
                if (itemId instanceof TusRefusal) return sendRefusal(reply, itemId);
                reply.raw.setHeader(EVIDENCE_ITEM_HEADER, String(itemId));
              }
            }
            if (req.method === 'PATCH') return await patch(req, reply, rc, row.id);
          }
        }
      } catch (err) {
        return refuse(reply, lang, err);
      }
      (req.raw as WithContext)[CONTEXT] = rc;
      reply.hijack();
      try {
        await tus.handle(req.raw, reply.raw);
      } finally {
        if (rc?.createdId) store.pending.delete(rc.createdId);
      }
    };
  };

  await app.register(async (scope) => {
    // tus bodies are streamed by @tus/server from the raw request: no parser reads them
    scope.addContentTypeParser('application/offset+octet-stream', (_req, _payload, done) => done(null));
    for (const [path, kind] of [
      [UPLOAD_PATH, 'user'],
      [DEVICE_UPLOAD_PATH, 'device'],
      [WORKSTATION_UPLOAD_PATH, 'workstation'],
    ] as const) {
      const handler = route(path, kind);
      scope.route({ method: TUS_METHODS, url: path, handler });
      scope.route({ method: TUS_METHODS, url: `${path}/:id`, handler });
    }
  });

  // unfinished uploads expire; unfinished derivatives are made again after a restart. In a
  // cluster both run on the node holding the scheduler lease only.
  const sweep = () => {
    if (!app.cluster.scheduler.held) return;
    store
      .deleteExpired()
      .then((n) => n && app.log.info({ expired: n }, 'evidence uploads expired'))
      .catch((err: unknown) => app.log.error({ err }, 'evidence upload sweep failed'));
  };
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    timer = setInterval(sweep, SWEEP_INTERVAL_MS);
    timer.unref();
    if (app.cluster.scheduler.held) derivatives.resume();
  });
  const offLease = app.cluster.scheduler.onChange((held) => {
    if (held) derivatives.resume();
  });
  app.addHook('onClose', async () => {
    offLease();
    if (timer) clearInterval(timer);
    await derivatives.close();
    await store.close();
  });
}
