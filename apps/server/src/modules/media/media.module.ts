import { pickLanguage, ResultCode, translate, type Language } from '@bwc/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { inScope, unitScope } from '../../http/scope';
import { tellOperator } from '../../operator';
import { ensureWebsocket } from '../../realtime/connections/websocket';
import { MediaGateway } from './gateway';
import { MediaKeys, readMediaKey } from './keys';
import type { StreamSink } from './live-stream';

declare module 'fastify' {
  interface FastifyInstance {
    /** the live media gateway (src/media) */
    media: MediaGateway;
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
 * applies to the next one).
 */
async function admit(app: FastifyInstance, req: FastifyRequest): Promise<{ deviceId: number } | Refusal> {
  const { stream } = req.params as { stream: string };
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
  if (!app.media.streams.has(deviceId))
    return { status: 404, code: ResultCode.NOT_FOUND, key: 'errors.media.notPublishing', params: { device: deviceId } };
  return { deviceId };
}

function languageOf(req: FastifyRequest): Language {
  const query = (req.query ?? {}) as { lang?: string };
  const header = req.headers['x-lang'] ?? req.headers['accept-language'];
  return pickLanguage(query.lang ?? (Array.isArray(header) ? header[0] : header));
}

function refuse(reply: FastifyReply, req: FastifyRequest, r: Refusal) {
  return reply.code(r.status).send({ code: r.code, msg: translate(languageOf(req), r.key, r.params), data: null });
}

/**
 * The media gateway: RTMP ingest on RTMP_PORT once the server listens (0: off), HTTP-FLV and
 * WS-FLV under LIVE_PATH of the main port.
 */
export async function registerMediaModule(app: FastifyInstance): Promise<MediaGateway> {
  const gateway = new MediaGateway(new MediaKeys(await readMediaKey(app.db), app.db), app.log);
  app.decorate('media', gateway);
  await ensureWebsocket(app);

  app.route({
    method: 'GET',
    url: LIVE_PATH,
    handler: async (req, reply) => {
      const admitted = await admit(app, req);
      if (!('deviceId' in admitted)) return refuse(reply, req, admitted);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, { 'content-type': 'video/x-flv', 'cache-control': 'no-store' });
      const sink: StreamSink = {
        write: (chunk) => {
          if (raw.destroyed || raw.writableEnded) return false;
          if (raw.writableLength > VIEWER_BACKLOG_MAX) {
            raw.destroy();
            return false;
          }
          raw.write(chunk);
          return true;
        },
        close: () => raw.end(),
      };
      raw.on('close', () => gateway.unwatch(admitted.deviceId, sink));
      if (!gateway.watch(admitted.deviceId, sink)) raw.end();
    },
    wsHandler: (socket, req) => {
      void admit(app, req).then(
        (admitted) => {
          if (!('deviceId' in admitted)) {
            socket.send(
              JSON.stringify({ code: admitted.code, msg: translate(languageOf(req), admitted.key, admitted.params) }),
            );
            socket.close(4000 + Math.min(admitted.status, 999), admitted.key);
            return;
          }
          const sink: StreamSink = {
            write: (chunk) => {
              if (socket.readyState !== socket.OPEN) return false;
              if (socket.bufferedAmount > VIEWER_BACKLOG_MAX) {
                socket.terminate();
                return false;
              }
              socket.send(chunk);
              return true;
            },
            close: (reason) => socket.close(1000, reason),
          };
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
  app.addHook('onClose', async () => gateway.close());
  return gateway;
}
