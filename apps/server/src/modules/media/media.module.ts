import {
  LIVE_START_WAIT_MS,
  pickLanguage,
  ResultCode,
  translate,
  type Language,
  type LivePlay,
  type MediaStreamInfo,
} from '@bwc/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/connection';
import { AppError } from '../../http/errors';
import { requestLanguage, t } from '../../http/i18n';
import { defineRoute } from '../../http/route';
import { assertInScope, inScope, unitScope } from '../../http/scope';
import { tellOperator } from '../../operator';
import { ensureWebsocket } from '../../realtime/connections/websocket';
import { findDevice, findDeviceByImei, findDevicesByIds } from '../devices/devices.repository';
import { deviceNotFound } from '../devices/devices.service';
import type { DeviceRuntime } from '../devices/runtime';
import { ContinuousRecorder } from './continuous-recorder';
import { MediaGateway, type StreamKey, type ViewerSink } from './gateway';
import { MediaKeys, readMediaKey } from './keys';
import { LiveService } from './live.service';
import { usernames } from './media.repository';
import { SosRecorder } from './sos-recorder';

declare module 'fastify' {
  interface FastifyInstance {
    /** the live media gateway (modules/media) */
    media: MediaGateway;
    /** live video on demand (modules/media/live.service.ts) */
    live: LiveService;
    /** recording of SOS live video (map config getvideo_*) */
    sosRecorder: SosRecorder;
    /** recording of every live stream (cloudstorage.record_live) */
    liveRecorder: ContinuousRecorder;
  }
}

/** Path of the FLV outputs: HTTP-FLV with GET, WS-FLV with a websocket upgrade of the same path. */
export const LIVE_PATH = '/live/:stream';
/** A viewer that lets this much pile up unsent is too slow for live video and is closed. */
const VIEWER_BACKLOG_MAX = 8 * 1024 * 1024;

interface Refusal {
  status: number;
  code: number;
  key: string;
  params?: Record<string, string | number>;
}

/**
 * Who may watch which stream: the play token names the user and the device and expires; the
 * user's unit scope must hold the device's unit (checked at each connection, so a revoked scope
 * applies to the next one). A device told to publish and not yet publishing is waited for
 * (LIVE_START_WAIT_MS at most) while the viewer stays connected.
 */
async function admit(
  app: FastifyInstance,
  req: FastifyRequest,
  aborted: AbortSignal,
): Promise<{ deviceId: StreamKey; userId: number } | Refusal> {
  const { stream } = req.params as { stream: string };
  // a keyed stream (`<ns>-<id>.flv`, e.g. gb-<channel id>.flv): its namespace's owner checks the viewer
  const keyed = /^([a-z]{2,8})-([0-9_]{1,80})\.flv$/.exec(stream);
  if (keyed) {
    const check = app.media.keyedAdmit.get(keyed[1]!);
    if (!check) return { status: 404, code: ResultCode.NOT_FOUND, key: 'errors.media.badStream' };
    const checked = await check(keyed[2]!, String((req.query as { token?: unknown }).token ?? ''));
    return 'userId' in checked ? { deviceId: `${keyed[1]}:${keyed[2]}`, userId: checked.userId } : checked;
  }
  const match = /^(\d{1,12})\.flv$/.exec(stream);
  if (!match) return { status: 404, code: ResultCode.NOT_FOUND, key: 'errors.media.badStream' };
  const deviceId = Number(match[1]);
  const token = String((req.query as { token?: unknown }).token ?? '');
  const checked = app.media.keys.checkPlayToken(deviceId, token);
  if ('refused' in checked)
    return checked.refused === 'expired'
      ? { status: 401, code: ResultCode.UNAUTHENTICATED, key: 'errors.media.tokenExpired' }
      : { status: 401, code: ResultCode.UNAUTHENTICATED, key: 'errors.media.token' };
  const user = await app.db
    .selectFrom('users')
    .select(['id', 'unit_id', 'ifadmin', 'status'])
    .where('id', '=', checked.userId)
    .executeTakeFirst();
  if (!user || user.status !== 'enabled')
    return { status: 401, code: ResultCode.UNAUTHENTICATED, key: 'errors.media.token' };
  const device = await app.db
    .selectFrom('devices')
    .select(['id', 'unit_id'])
    .where('id', '=', deviceId)
    .executeTakeFirst();
  if (!device)
    return { status: 404, code: ResultCode.NOT_FOUND, key: 'errors.media.notPublishing', params: { device: deviceId } };
  if (!inScope(await unitScope(app.db, user), device.unit_id))
    return { status: 403, code: ResultCode.FORBIDDEN, key: 'errors.media.outOfScope' };
  if (!app.media.streams.has(deviceId)) {
    if (!app.live.isStarting(deviceId))
      return {
        status: 404,
        code: ResultCode.NOT_FOUND,
        key: 'errors.media.notPublishing',
        params: { device: deviceId },
      };
    if (!(await app.media.waitForPublish(deviceId, LIVE_START_WAIT_MS, aborted)))
      return {
        status: 404,
        code: ResultCode.NOT_FOUND,
        key: 'errors.media.startTimeout',
        params: { device: deviceId },
      };
  }
  return { deviceId, userId: user.id };
}

function languageOf(req: FastifyRequest): Language {
  const query = (req.query ?? {}) as { lang?: string };
  const header = req.headers['x-lang'] ?? req.headers['accept-language'];
  return pickLanguage(query.lang ?? (Array.isArray(header) ? header[0] : header));
}

function refuse(reply: FastifyReply, req: FastifyRequest, r: Refusal) {
  return reply.code(r.status).send({ code: r.code, msg: translate(languageOf(req), r.key, r.params), data: null });
}

let viewerIds = 0;

/** A viewer's sink around its way out (`send`: false once it cannot take more). */
function viewer(
  who: { userId: number; address: string; protocol: 'ws' | 'http' },
  send: (chunk: Buffer) => boolean,
  close: (reason: string) => void,
): ViewerSink {
  const sink: ViewerSink = {
    id: ++viewerIds,
    ...who,
    since: Date.now(),
    bytesOut: 0,
    write: (chunk) => {
      if (!send(chunk)) return false;
      sink.bytesOut += chunk.length;
      return true;
    },
    close,
  };
  return sink;
}

export interface MediaModuleDeps {
  devices: DeviceRuntime;
}

/** The live device in the caller's scope, by imei. */
async function liveDevice(db: Db, user: { id: number; unit_id: number; ifadmin: number }, imei: string) {
  const row = await findDeviceByImei(db, imei);
  if (!row) throw deviceNotFound();
  assertInScope(await unitScope(db, user), row.unit_id);
  return row;
}

/**
 * The media gateway: RTMP ingest on RTMP_PORT once the server listens (0: off), HTTP-FLV and
 * WS-FLV under LIVE_PATH of the main port, and live video on demand (live.service.ts): live_add,
 * getVideo, live_del, live_delimei, live_alldel; the ops centre's media gateway list and kick.
 */
export async function registerMediaModule(app: FastifyInstance, { devices }: MediaModuleDeps): Promise<LiveService> {
  const gateway = new MediaGateway(new MediaKeys(await readMediaKey(app.db), app.db), app.log);
  app.decorate('media', gateway);
  const live = new LiveService({ db: app.db, gateway, devices, log: app.log, idleMs: app.config.liveIdleMs });
  app.decorate('live', live);
  devices.commands.payloads.startlive = (deviceId, hostname) => live.startPayload(deviceId, hostname);
  devices.liveInfo = (deviceId) => live.info(deviceId);
  app.bus.on('device.offline', (e) => live.deviceOffline(e.device_id));
  const recorder = new SosRecorder({ db: app.db, gateway, live, dataDir: app.config.dataDir, log: app.log });
  app.decorate('sosRecorder', recorder);
  app.bus.onOrigin('device.sos', (e) => {
    recorder
      .onSos(e.device_id, new Date(), e.event_id)
      .catch((err: unknown) => app.log.error({ err, device: e.device_id }, 'SOS recording failed'));
  });
  const liveRecorder = new ContinuousRecorder({ db: app.db, gateway, dataDir: app.config.dataDir, log: app.log });
  app.decorate('liveRecorder', liveRecorder);
  app.bus.on('device.remote', (e) => {
    if (e.action === 'remote_kill') live.deviceOffline(e.device_id);
  });
  await ensureWebsocket(app);

  app.route({
    method: 'GET',
    url: LIVE_PATH,
    handler: async (req, reply) => {
      const gone = new AbortController();
      reply.raw.on('close', () => gone.abort());
      const admitted = await admit(app, req, gone.signal);
      if (!('deviceId' in admitted)) return refuse(reply, req, admitted);
      reply.hijack();
      const raw = reply.raw;
      if (raw.destroyed) return;
      raw.writeHead(200, { 'content-type': 'video/x-flv', 'cache-control': 'no-store' });
      const sink = viewer(
        { userId: admitted.userId, address: req.ip, protocol: 'http' },
        (chunk) => {
          if (raw.destroyed || raw.writableEnded) return false;
          if (raw.writableLength > VIEWER_BACKLOG_MAX) {
            raw.destroy();
            return false;
          }
          raw.write(chunk);
          return true;
        },
        () => raw.end(),
      );
      raw.on('close', () => gateway.unwatch(admitted.deviceId, sink));
      if (!gateway.watch(admitted.deviceId, sink)) raw.end();
    },
    wsHandler: (socket, req) => {
      const gone = new AbortController();
      socket.on('close', () => gone.abort());
      void admit(app, req, gone.signal).then(
        (admitted) => {
          if (socket.readyState !== socket.OPEN) return;
          if (!('deviceId' in admitted)) {
            socket.send(
              JSON.stringify({ code: admitted.code, msg: translate(languageOf(req), admitted.key, admitted.params) }),
            );
            socket.close(4000 + Math.min(admitted.status, 999), admitted.key);
            return;
          }
          const sink = viewer(
            { userId: admitted.userId, address: req.ip, protocol: 'ws' },
            (chunk) => {
              if (socket.readyState !== socket.OPEN) return false;
              if (socket.bufferedAmount > VIEWER_BACKLOG_MAX) {
                socket.terminate();
                return false;
              }
              socket.send(chunk);
              return true;
            },
            (reason) => socket.close(1000, reason),
          );
          socket.on('close', () => gateway.unwatch(admitted.deviceId, sink));
          if (!gateway.watch(admitted.deviceId, sink)) socket.close(1000, 'ended');
        },
        (err: unknown) => {
          app.log.error({ err }, 'media gateway: viewer check failed');
          socket.close(1011, 'server');
        },
      );
    },
  });

  defineRoute(app, {
    api: 'liveAdd',
    handler: async ({ db, user, body, req }) => {
      const row = await liveDevice(db, user, body.imei);
      req.audit.target = row.id;
      return live.request(user.id, row);
    },
  });

  defineRoute(app, {
    api: 'getVideo',
    handler: async ({ db, user, body, req }) => {
      const scope = await unitScope(db, user);
      const lang = requestLanguage(req);
      const plays: LivePlay[] = [];
      const failed: { id: number; msg: string }[] = [];
      for (const id of [...new Set(body.ids)]) {
        const row = await findDevice(db, id);
        try {
          if (!row || !inScope(scope, row.unit_id)) throw deviceNotFound();
          plays.push(await live.request(user.id, row));
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          failed.push({ id, msg: t(lang, err.key, err.params) });
        }
      }
      if (plays.length) req.audit.target = plays.map((p) => p.device_id).join(',');
      return { plays, failed };
    },
  });

  defineRoute(app, {
    api: 'liveDel',
    handler: async ({ db, user, body, req }) => {
      const row = await liveDevice(db, user, body.imei);
      req.audit.target = row.id;
      return { stopped: await live.release(user.id, row.id) };
    },
  });

  defineRoute(app, {
    api: 'liveDelImei',
    msg: 'success.media.stopped',
    handler: async ({ db, user, body, req }) => {
      const row = await liveDevice(db, user, body.imei);
      req.audit.target = row.id;
      return { stopped: (await live.stop(row.id, user.id, 'stopped by a console')) ? 1 : 0 };
    },
  });

  defineRoute(app, {
    api: 'liveAllDel',
    handler: async ({ user }) => ({ stopped: await live.releaseAll(user.id) }),
  });

  defineRoute(app, {
    api: 'mediaGateway',
    handler: async ({ db, user }) => {
      const scope = await unitScope(db, user);
      const publishers = gateway.publishers();
      const rows = new Map(
        (
          await findDevicesByIds(
            db,
            publishers.map((p) => p.deviceId),
          )
        ).map((r) => [r.id, r]),
      );
      const userIds = [...new Set(publishers.flatMap((p) => p.viewers.map((v) => v.userId)))];
      const names = await usernames(db, userIds);
      const nowMs = Date.now();
      const streams: MediaStreamInfo[] = [];
      for (const p of publishers) {
        const row = rows.get(p.deviceId);
        if (!row || !inScope(scope, row.unit_id)) continue;
        streams.push({
          device_id: p.deviceId,
          hostname: row.hostname,
          hostbody: row.hostbody,
          unitname: row.unitname ?? '',
          address: p.address,
          since: new Date(p.startedAt).toISOString(),
          uptime_s: Math.floor((nowMs - p.startedAt) / 1000),
          bitrate: p.bitrate,
          bytes_in: p.bytesIn,
          viewers: p.viewers.map((v) => ({
            id: v.id,
            user_id: v.userId,
            username: names.get(v.userId) ?? '',
            address: v.address,
            protocol: v.protocol,
            since: new Date(v.since).toISOString(),
            bytes_out: v.bytesOut,
          })),
        });
      }
      return { rtmp_port: gateway.port, node: app.cluster.nodeId, streams };
    },
  });

  defineRoute(app, {
    api: 'mediaKick',
    msg: 'success.media.kicked',
    handler: async ({ db, user, body, req }) => {
      const row = await findDevice(db, body.device_id);
      if (!row) throw deviceNotFound();
      assertInScope(await unitScope(db, user), row.unit_id);
      req.audit.target = row.id;
      if (body.viewer !== undefined) {
        if (!gateway.kickViewer(row.id, body.viewer))
          throw new AppError(ResultCode.NOT_FOUND, 'errors.media.noViewer', { viewer: body.viewer });
        return null;
      }
      if (!(await live.stop(row.id, user.id, 'kicked from the ops centre')))
        throw new AppError(ResultCode.NOT_FOUND, 'errors.media.notPublishing', { device: row.id });
      return null;
    },
  });

  app.addHook('onListen', async () => {
    const port = app.config.rtmpPort ?? 0;
    if (port <= 0 || gateway.port !== null) return;
    try {
      await gateway.listen(port, app.config.host);
      app.log.info({ port: gateway.port }, 'media gateway: RTMP ingest listening');
    } catch (err) {
      tellOperator(
        app,
        err,
        `media gateway cannot listen for RTMP on port ${port} (${(err as NodeJS.ErrnoException).code ?? 'error'}): set RTMP_PORT to a free port, 0 disables it`,
      );
    }
  });
  app.addHook('onClose', async () => {
    live.close();
    await liveRecorder.close();
    await gateway.close();
  });
  return live;
}
