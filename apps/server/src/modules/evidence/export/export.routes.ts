import { ResultCode } from '@bwc/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../../http/errors';
import { requestLanguage, t } from '../../../http/i18n';
import { defineRoute } from '../../../http/route';
import { unitScope } from '../../../http/scope';
import { contentDisposition } from '../../system/file-store';
import type { CustodyActor } from '../custody';
import type { EvidenceContext } from '../evidence.module';
import type { ItemRow } from '../library/library.repository';
import type { LibraryService } from '../library/library.service';
import { custodyReport } from './report';
import { checkZipToken, signedZipUrl, TamperedError, ZIP_PATH, zipOf } from './zip';

const notFound = () => new AppError(ResultCode.NOT_FOUND, 'errors.notFound', { what: 'errors.what.media' });

function refuse(req: FastifyRequest, reply: FastifyReply, status: number, key: string, params = {}) {
  const code = status === 404 ? ResultCode.NOT_FOUND : status === 409 ? ResultCode.CONFLICT : ResultCode.FORBIDDEN;
  return reply.code(status).send({ code, msg: t(requestLanguage(req), key, params) });
}

/** The items of `ids` in the caller's scope in the order asked, or the first id that is not. */
async function visibleAll(service: LibraryService, scope: Awaited<ReturnType<typeof unitScope>>, ids: number[]) {
  const rows: ItemRow[] = [];
  for (const id of new Set(ids)) {
    const row = await service.visible(scope, id);
    if (!row) return { missing: id };
    rows.push(row);
  }
  return { rows };
}

/**
 * Downloads of many items (a zip streamed from a signed address) and custody reports (PDF, .xlsx),
 * issue 15 sections 4 and 5.
 */
export async function registerEvidenceExport(app: FastifyInstance, _ctx: EvidenceContext): Promise<void> {
  // the originals are read through the library's store (ctx.store)
  const service = app.evidenceLibrary;

  defineRoute(app, {
    api: 'mediaDownloadAll',
    msg: 'success.ok',
    handler: async ({ db, user, body, req }) => {
      req.audit.target = body.ids.join(',').slice(0, 255);
      const found = await visibleAll(service, await unitScope(db, user), body.ids);
      if ('missing' in found)
        throw new AppError(ResultCode.NOT_FOUND, 'errors.archive.mediaNotFound', { ids: String(found.missing) });
      const ids = found.rows.map((r) => r.id);
      const signed = signedZipUrl(await service.key(), ids, user.id, service.clock());
      const stamp = new Date(service.clock()).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
      return { url: signed.url, file_name: `evidence-${stamp}.zip`, count: ids.length, expires: signed.expires };
    },
  });

  app.get<{ Querystring: { ids?: string; token?: string } }>(ZIP_PATH, async (req, reply) => {
    const nowMs = service.clock();
    const checked = checkZipToken(await service.key(), req.query.ids, req.query.token, nowMs);
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
    // every id is checked before a byte is sent: an item that left the user's units refuses the whole zip
    const found = await visibleAll(service, await unitScope(service.db, user), checked.ids);
    if ('missing' in found) return refuse(req, reply, 404, 'errors.notFound', { what: 'errors.what.media' });
    const who: CustodyActor = {
      user_id: user.id,
      actor: user.hostname || user.username,
      unit_id: user.unit_id,
      ip: req.ip,
    };
    const sizes: number[] = [];
    for (const row of found.rows) {
      const size = await service.store.size(row.sha256);
      if (size === null) {
        // bytes gone: refused before streaming, as a single download is
        await service.tampered(row, who, 'missing');
        req.log.error({ media: row.id, expected: row.sha256 }, 'evidence original missing');
        return refuse(req, reply, 409, 'errors.library.tampered', { id: row.id });
      }
      sizes.push(size);
    }
    const zip = zipOf(service, found.rows, sizes, who, (err) =>
      err instanceof TamperedError
        ? req.log.error(
            { media: err.mediaId, user: user.id },
            'evidence zip stopped: an original failed its hash check',
          )
        : req.log.warn({ err, user: user.id }, 'evidence zip stream stopped'),
    );
    // a client that goes away stops the reading of the originals
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) zip.abort(new Error('client closed the zip download'));
    });
    const stamp = new Date(nowMs).toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
    const length = await zip.size;
    if (length >= 0) reply.header('content-length', length);
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', contentDisposition(`evidence-${stamp}.zip`))
      .header('cache-control', 'private, no-store')
      .send(zip.stream);
  });

  defineRoute(app, {
    api: 'mediaCustodyExport',
    handler: async ({ db, user, query, reply, req, lang }) => {
      req.audit.target = String(query.id);
      // a purged item's chain survives it and stays reportable
      const row = await service.visible(await unitScope(db, user), query.id, true);
      if (!row) throw notFound();
      const file = await custodyReport(service, row, query.format, lang, user.hostname || user.username);
      req.result = { code: 200, msg: file.fileName };
      return reply
        .header('content-type', file.mime)
        .header('content-disposition', contentDisposition(file.fileName))
        .header('cache-control', 'no-store')
        .send(file.content);
    },
  });
}
