import { createHash } from 'node:crypto';
import { ResultCode } from '@bwc/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestLanguage, t } from '../../../http/i18n';
import { unitScope } from '../../../http/scope';
import { parseRange } from '../../download/range';
import { contentDisposition } from '../../system/file-store';
import { firstMark } from '../../../cluster/cluster';
import { appendCustody, type CustodyActor } from '../custody';
import type { LibraryService } from './library.service';
import { checkToken, EVIDENCE_FILE_PATH, FILE_KINDS, type FileKind } from './signed';

/** the shared-state key of a file token's first use (hashed: tokens are long) */
export const tokenMark = (text: string) =>
  `evidence:seen:${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;

function refuse(req: FastifyRequest, reply: FastifyReply, status: number, key: string, params = {}) {
  const code = status === 404 ? ResultCode.NOT_FOUND : status === 409 ? ResultCode.CONFLICT : ResultCode.FORBIDDEN;
  return reply.code(status).send({ code, msg: t(requestLanguage(req), key, params) });
}

const notFound = (req: FastifyRequest, reply: FastifyReply) =>
  refuse(req, reply, 404, 'errors.notFound', { what: 'errors.what.media' });

/**
 * GET /media/evidence/<kind>/<id>?token=: original (inline), play (the browser-playable
 * derivative when there is one, else the original), thumb, download (attachment; the original is
 * hashed again first and refused on a mismatch). Byte ranges are served for seeking and resuming.
 * The token's user must still see the item's unit; a missing, foreign or purged item is 404.
 */
export async function registerFileRoutes(app: FastifyInstance, service: LibraryService) {
  app.get<{ Params: { kind: string; id: string }; Querystring: { token?: string } }>(
    `${EVIDENCE_FILE_PATH}/:kind/:id`,
    async (req, reply) => {
      const kind = req.params.kind as FileKind;
      if (!FILE_KINDS.includes(kind) || !/^\d{1,12}$/.test(req.params.id)) return notFound(req, reply);
      const id = Number(req.params.id);
      const nowMs = service.clock();
      const checked = checkToken(await service.key(), kind, id, req.query.token, nowMs);
      if ('refused' in checked)
        return refuse(
          req,
          reply,
          403,
          checked.refused === 'expired' ? 'errors.library.urlExpired' : 'errors.library.urlToken',
        );
      const user = await service.db
        .selectFrom('users')
        .select(['id', 'username', 'hostname', 'unit_id', 'ifadmin', 'status'])
        .where('id', '=', checked.userId)
        .executeTakeFirst();
      if (!user || user.status !== 'enabled') return refuse(req, reply, 403, 'errors.library.urlToken');
      const row = await service.visible(await unitScope(service.db, user), id);
      if (!row) return notFound(req, reply);

      let sha = row.sha256;
      let mime = row.mime;
      if (kind === 'play' && row.derivative_sha256) {
        sha = row.derivative_sha256;
        mime = row.media_type === 2 ? 'audio/mp4' : 'video/mp4';
      } else if (kind === 'thumb') {
        if (!row.thumb_sha256) return notFound(req, reply);
        sha = row.thumb_sha256;
        mime = 'image/jpeg';
      }
      const who: CustodyActor = {
        user_id: user.id,
        actor: user.hostname || user.username,
        unit_id: user.unit_id,
        ip: req.ip,
      };
      const size = await service.store.size(sha);
      if (kind === 'download') {
        const actual = size === null ? 'missing' : await service.store.rehash(sha);
        if (actual !== row.sha256) {
          await service.tampered(row, who, actual);
          req.log.error({ media: row.id, expected: row.sha256, actual }, 'evidence original failed its hash check');
          return refuse(req, reply, 409, 'errors.library.tampered', { id: row.id });
        }
      }
      if (size === null) return notFound(req, reply);

      const range = parseRange(req.headers.range, size);
      const token = String(req.query.token);
      if ((kind === 'play' || kind === 'original' || kind === 'download') && range !== 'unsatisfiable') {
        // the first request of a token is recorded, not each range a player asks for while seeking:
        // marked in the cluster's shared state, so once whichever node serves it
        const expires = Number(token.split('.')[1]);
        if (await firstMark(app.cluster.shared, tokenMark(`${kind}|${id}|${token}`), expires - nowMs))
          await service.db
            .transaction()
            .execute((trx) =>
              appendCustody(
                trx,
                row.id,
                kind === 'download' ? 'downloaded' : 'streamed',
                who,
                { kind, sha256: sha, ...(range ? { range: `${range.start}-${range.end}` } : {}) },
                new Date(nowMs),
              ),
            );
      }

      reply.header('content-type', mime).header('accept-ranges', 'bytes').header('cache-control', 'private, no-store');
      if (kind === 'download') reply.header('content-disposition', contentDisposition(row.file_name));
      if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${size}`).send();
      if (range)
        return reply
          .code(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
          .header('content-length', range.end - range.start + 1)
          .send(service.store.read(sha, range));
      return reply.header('content-length', size).send(service.store.read(sha));
    },
  );
}
