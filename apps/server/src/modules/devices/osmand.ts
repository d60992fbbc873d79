import { pickLanguage } from '@bwc/protocol';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import { t } from '../../http/i18n';
import type { DeviceRuntime } from './runtime';

/** knots -> km/h (OsmAnd speed is in knots, as in Traccar) */
const KNOTS_TO_KMH = 1.852;
/** m/s -> km/h (Traccar Client JSON speed) */
const MS_TO_KMH = 3.6;

export interface OsmandFix {
  id: string;
  item: Record<string, unknown>;
}

function num(v: unknown): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : Number.NaN;
}

/** OsmAnd timestamp: epoch seconds or ms, ISO, or `yyyy-MM-dd HH:mm:ss` (UTC). */
export function osmandTime(v: unknown): string | number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const n = Number(v);
  if (Number.isFinite(n)) return n < 1e12 ? Math.round(n * 1000) : Math.round(n);
  const s = String(v).trim();
  const iso = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(s) ? `${s.replace(' ', 'T')}Z` : s;
  return iso;
}

/**
 * One fix from an OsmAnd request: query or form parameters
 * (`id, lat, lon, timestamp, speed (knots), bearing|heading, accuracy, batt`), or the JSON body of
 * Traccar Client 8+ (`{device_id, location: {timestamp, coords: {latitude, longitude, speed (m/s),
 * heading, accuracy}, battery: {level 0..1}}}`). Returns null without a device id.
 */
export function parseOsmand(query: Record<string, unknown>, body: unknown): OsmandFix | null {
  if (body && typeof body === 'object' && 'location' in body) {
    const b = body as { device_id?: unknown; location?: Record<string, unknown> };
    const loc = (b.location ?? {}) as {
      timestamp?: unknown;
      coords?: Record<string, unknown>;
      battery?: { level?: unknown };
    };
    const coords = loc.coords ?? {};
    const id = String(b.device_id ?? query.id ?? query.deviceid ?? '').trim();
    if (!id) return null;
    const speed = num(coords.speed);
    const level = num(loc.battery?.level);
    return {
      id,
      item: clean({
        time: osmandTime(loc.timestamp) ?? Date.now(),
        lat: num(coords.latitude),
        lng: num(coords.longitude),
        speed: speed === undefined || speed < 0 ? undefined : speed * MS_TO_KMH,
        course:
          num(coords.heading) !== undefined && (num(coords.heading) as number) < 0 ? undefined : num(coords.heading),
        accuracy: num(coords.accuracy),
        battery: level === undefined ? undefined : level <= 1 ? level * 100 : level,
      }),
    };
  }
  const params = { ...(body && typeof body === 'object' ? (body as Record<string, unknown>) : {}), ...query };
  const id = String(params.id ?? params.deviceid ?? '').trim();
  if (!id) return null;
  const speed = num(params.speed);
  return {
    id,
    item: clean({
      time: osmandTime(params.timestamp) ?? Date.now(),
      lat: num(params.lat),
      lng: num(params.lon ?? params.lng),
      speed: speed === undefined ? undefined : speed * KNOTS_TO_KMH,
      course: num(params.bearing ?? params.heading),
      accuracy: num(params.accuracy),
      battery: num(params.batt ?? params.battery),
    }),
  };
}

function clean(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/**
 * The OsmAnd HTTP endpoint of Traccar Client on its own port (config OSMAND_PORT, default 5055):
 * `GET|POST /?id=<imei or hostbody>&lat=&lon=&timestamp=&speed=&bearing=&batt=`. Answers 200
 * with an empty body when stored, 400 with the reason for bad input, 404 for an unknown id, 423
 * for a remotely killed device. The protocol has no secret: the id must be a registered device.
 */
export async function buildOsmandServer({
  runtime,
  log,
}: {
  runtime: DeviceRuntime;
  log: FastifyBaseLogger;
}): Promise<FastifyInstance> {
  const server = Fastify({ logger: false });
  server.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  server.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body || null));
  const handle = async (req: FastifyRequest) => {
    const lang = pickLanguage(
      (req.headers['x-lang'] as string | undefined) ?? (req.headers['accept-language'] as string | undefined),
    );
    const fix = parseOsmand((req.query ?? {}) as Record<string, unknown>, req.body);
    if (!fix)
      return { status: 400, text: t(lang, 'validation.field', { field: 'id', message: 'validation.required' }) };
    const device = await runtime.findByIdent(fix.id);
    if (!device) return { status: 404, text: t(lang, 'errors.notFound', { what: 'errors.what.device' }) };
    if (device.remote_kill === 1) return { status: 423, text: t(lang, 'errors.device.killed') };
    const { rows, rejected } = runtime.validateBatch(device, [fix.item], lang);
    if (rejected.length) return { status: 400, text: rejected[0]!.msg.replace('positions.0.', '') };
    await runtime.ingest(device, rows);
    return { status: 200, text: '' };
  };
  server.route({
    method: ['GET', 'POST'],
    url: '/*',
    handler: async (req, reply) => {
      try {
        const out = await handle(req);
        return reply.code(out.status).type('text/plain; charset=utf-8').send(out.text);
      } catch (err) {
        log.error({ err }, 'osmand ingest failed');
        return reply.code(500).type('text/plain; charset=utf-8').send('server error');
      }
    },
  });
  await server.ready();
  return server;
}
