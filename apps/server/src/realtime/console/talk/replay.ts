import { createHmac, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pickLanguage } from '@bwc/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../../db/connection';
import { t } from '../../../http/i18n';
import { parseRange } from '../../../modules/download/range';
import { readMediaKey } from '../../../modules/media/keys';
import { findRecord } from './talk.repository';

/** Path of a recorded burst; `?token=` is signed for one user and expires. */
export const TALK_RECORD_PATH = '/talk/records';
/** A replay address works this long. */
export const REPLAY_TTL_MS = 10 * 60_000;

const REFID = /^[0-9a-z]{8,40}$/;

const mac = (key: Buffer, refid: string, uid: number, expires: number) =>
  createHmac('sha256', key).update(`talk|${refid}|${uid}|${expires}`).digest('base64url');

/** A signed address of a burst for one user (the caller checked that it may hear it). */
export async function replayUrl(db: Db, refid: string, uid: number, nowMs = Date.now()) {
  const expires = nowMs + REPLAY_TTL_MS;
  const token = `${uid}.${expires}.${mac(await readMediaKey(db), refid, uid, expires)}`;
  return { url: `${TALK_RECORD_PATH}/${refid}.ogg?token=${token}`, expires };
}

type Refusal = 'talk.replayToken' | 'talk.replayExpired' | 'talk.replayNotFound';

async function check(db: Db, refid: string, token: unknown): Promise<Refusal | null> {
  if (!REFID.test(refid)) return 'talk.replayNotFound';
  const [uidText, expiresText, sig, ...rest] = typeof token === 'string' ? token.split('.') : [];
  if (!uidText || !expiresText || !sig || rest.length || !/^\d{1,12}$/.test(uidText) || !/^\d{1,15}$/.test(expiresText))
    return 'talk.replayToken';
  const want = Buffer.from(mac(await readMediaKey(db), refid, Number(uidText), Number(expiresText)));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return 'talk.replayToken';
  if (Number(expiresText) < Date.now()) return 'talk.replayExpired';
  return null;
}

function language(req: FastifyRequest) {
  const q = (req.query ?? {}) as { lang?: string };
  const header = req.headers['x-lang'] ?? req.headers['accept-language'];
  return pickLanguage(q.lang ?? (Array.isArray(header) ? header[0] : header));
}

/**
 * GET /talk/records/<refid>.ogg?token=: the burst as Ogg Opus (browsers play it in <audio>). Byte
 * ranges are served: a browser reads an Ogg file's length from its last page, and without them
 * the player showed no duration and could not seek.
 */
export async function registerReplayRoute(server: FastifyInstance, deps: { db: Db; config: { dataDir: string } }) {
  server.get<{ Params: { file: string }; Querystring: { token?: string } }>(
    `${TALK_RECORD_PATH}/:file`,
    async (req, reply) => {
      const refid = req.params.file.replace(/\.ogg$/, '');
      const refused = await check(deps.db, refid, req.query.token);
      const row = refused ? undefined : await findRecord(deps.db, refid);
      const problem = refused ?? (row ? null : 'talk.replayNotFound');
      if (problem || !row) {
        const status = problem === 'talk.replayNotFound' ? 404 : 403;
        return reply.code(status).send({ code: status, msg: t(language(req), `console.${problem}`) });
      }
      const path = join(deps.config.dataDir, row.path);
      const size = (await stat(path).catch(() => null))?.size;
      if (size === undefined)
        return reply.code(404).send({ code: 404, msg: t(language(req), 'console.talk.replayNotFound') });
      reply
        .header('content-type', 'audio/ogg')
        .header('accept-ranges', 'bytes')
        .header('cache-control', 'private, max-age=600');
      const range = parseRange(req.headers.range, size);
      if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${size}`).send();
      if (range)
        return reply
          .code(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
          .header('content-length', range.end - range.start + 1)
          .send(createReadStream(path, { start: range.start, end: range.end }));
      return reply.header('content-length', size).send(createReadStream(path));
    },
  );
}
