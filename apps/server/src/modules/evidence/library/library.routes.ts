import { MenuId, ResultCode, type EvidenceView } from '@bwc/protocol';
import type { FastifyInstance } from 'fastify';
import { AppError, Errors } from '../../../http/errors';
import { defineRoute } from '../../../http/route';
import { assertInScope, inScope, unitScope, unitSubtree } from '../../../http/scope';
import { roleCan } from '../../auth/permission.repository';
import { appendCustody, custodyEntry, verifyChain } from '../custody';
import type { Db } from '../../../db/connection';
import * as repo from './library.repository';
import { actorOf, LibraryService, REFUSAL, type BulkAnswer, type Changes } from './library.service';

/** The menu of each library view (the Api's anyMenu rule lets any of them in; the view asks its own). */
const VIEW_MENU: Record<EvidenceView, number> = {
  law: MenuId.LAW_MEDIA,
  sensitivity: MenuId.SENSITIVE_MEDIA,
  outside: MenuId.OUTSIDE_MEDIA,
  deleted: MenuId.DELETED_MEDIA,
  alarm: MenuId.ALARM_RECORDINGS,
};

/** Most GPS fixes one recording answers. */
const GPS_POINTS_MAX = 20_000;

const notFound = () => new AppError(ResultCode.NOT_FOUND, 'errors.notFound', { what: 'errors.what.media' });

/** A single-item call answers the refusal of its one item as an error. */
function single(answer: BulkAnswer): void {
  const refused = answer.refused[0];
  if (!refused) return;
  if (refused.reason === REFUSAL.notFound) throw notFound();
  throw Errors.invalid(refused.reason);
}

/** The library routes (issue 15 sections 2, 4, 5): search, view, marks, revisions, deletion, custody. */
export async function registerLibraryRoutes(app: FastifyInstance, service: LibraryService): Promise<void> {
  defineRoute(app, {
    api: 'mediaList',
    handler: async ({ db, user, body }) => {
      const menu = VIEW_MENU[body.view];
      if (!(await roleCan(db, user.role_id, menu, 'view'))) throw Errors.forbidden(menu, 'view');
      const scope = await unitScope(db, user);
      let unitIds: number[] | undefined;
      if (body.unit_id !== undefined) {
        assertInScope(scope, body.unit_id);
        unitIds = body.include_sub ? await unitSubtree(db, body.unit_id) : [body.unit_id];
      }
      const { total, capped, rows } = await repo.searchItems(db, scope, { ...body, unitIds });
      const key = await service.key();
      return {
        total,
        capped,
        page: body.page,
        limit: body.limit,
        list: rows.map((r) => service.present(r, key, user.id)),
      };
    },
  });

  defineRoute(app, {
    api: 'mediaView',
    handler: async ({ db, user, body, req }) => {
      const row = await service.visible(await unitScope(db, user), body.id);
      if (!row) throw notFound();
      await db
        .transaction()
        .execute((trx) => appendCustody(trx, row.id, 'viewed', actorOf(user, req.ip), {}, new Date(service.clock())));
      const key = await service.key();
      const play = service.sign(key, 'play', row.id, user.id);
      const playMime = row.derivative_sha256 ? (row.media_type === 2 ? 'audio/mp4' : 'video/mp4') : row.mime;
      return {
        item: service.present(row, key, user.id),
        play_url: play.url,
        play_mime: playMime,
        expires: play.expires,
        revisions: (await repo.revisionsOf(db, row.id)).map(LibraryService.revision),
      };
    },
  });

  const presentOne = async (id: number, uid: number) => {
    const row = await repo.findItem(service.db, id);
    if (!row) throw notFound();
    return service.present(row, await service.key(), uid);
  };

  defineRoute(app, {
    api: 'mediaFlag',
    msg: 'success.saved',
    handler: async ({ db, user, body, req }) => {
      single(await service.flag(await unitScope(db, user), actorOf(user, req.ip), [body.id], body.flg, body.flg_note));
      return presentOne(body.id, user.id);
    },
  });

  /** the items of `ids` in the caller's scope, not purged (others are left out of these reads) */
  const scoped = async (db: Db, user: Parameters<typeof unitScope>[1], ids: number[]) => {
    const scope = await unitScope(db, user);
    return (await repo.findItems(db, ids)).filter((r) => r.purged_at === null && inScope(scope, r.unit_id));
  };

  defineRoute(app, {
    api: 'mediaFlagAllGet',
    handler: async ({ db, user, body }) =>
      (await scoped(db, user, body.ids)).map((r) => ({ id: r.id, flg: r.flg, flg_note: r.flg_note })),
  });

  defineRoute(app, {
    api: 'mediaEditAllGet',
    handler: async ({ db, user, body }) => {
      const rows = await scoped(db, user, body.ids);
      const common = (field: 'category' | 'incident_no') =>
        rows.length > 0 && rows.every((r) => r[field] === rows[0]![field]) ? rows[0]![field] : null;
      return { count: rows.length, category: common('category'), incident_no: common('incident_no') };
    },
  });

  defineRoute(app, {
    api: 'mediaFlagAll',
    msg: 'success.saved',
    handler: async ({ db, user, body, req }) => {
      req.audit.target = body.ids.join(',').slice(0, 255);
      return service.flag(await unitScope(db, user), actorOf(user, req.ip), body.ids, body.flg);
    },
  });

  defineRoute(app, {
    api: 'mediaRevise',
    msg: 'success.saved',
    handler: async ({ db, user, body, req }) => {
      const { id, reason, ...fields } = body;
      single(await service.revise(await unitScope(db, user), actorOf(user, req.ip), [id], fields as Changes, reason));
      return presentOne(id, user.id);
    },
  });

  defineRoute(app, {
    api: 'mediaRevisions',
    handler: async ({ db, user, body }) => {
      const row = await service.visible(await unitScope(db, user), body.id);
      if (!row) throw notFound();
      return (await repo.revisionsOf(db, row.id)).map(LibraryService.revision);
    },
  });

  defineRoute(app, {
    api: 'mediaEditAll',
    msg: 'success.saved',
    handler: async ({ db, user, body, req }) => {
      req.audit.target = body.ids.join(',').slice(0, 255);
      const { ids, reason, ...fields } = body;
      if (fields.category === undefined && fields.incident_no === undefined)
        throw Errors.field('category', 'validation.required');
      return service.revise(await unitScope(db, user), actorOf(user, req.ip), ids, fields as Changes, reason);
    },
  });

  defineRoute(app, {
    api: 'mediaDelete',
    msg: 'success.deleted',
    handler: async ({ db, user, body, req }) => {
      req.audit.target = body.ids.join(',').slice(0, 255);
      return service.softDelete(await unitScope(db, user), actorOf(user, req.ip), body.ids, body.reason);
    },
  });

  defineRoute(app, {
    api: 'mediaRevert',
    msg: 'success.saved',
    handler: async ({ db, user, body, req }) => {
      req.audit.target = body.ids.join(',').slice(0, 255);
      return service.revert(await unitScope(db, user), actorOf(user, req.ip), body.ids);
    },
  });

  defineRoute(app, {
    api: 'mediaHardDelete',
    msg: 'success.deleted',
    handler: async ({ db, user, body, req }) => {
      req.audit.target = body.ids.join(',').slice(0, 255);
      return service.hardDelete(await unitScope(db, user), actorOf(user, req.ip), body.ids);
    },
  });

  defineRoute(app, {
    api: 'mediaEditRecord',
    handler: async ({ db, user, body }) => {
      const { total, rows } = await repo.editRecord(db, await unitScope(db, user), body);
      return {
        total,
        page: body.page,
        limit: body.limit,
        list: rows.map((r) => ({
          id: r.id,
          media_id: r.media_id,
          media_title: r.media_title,
          kind: r.kind,
          user_name: r.user_name ?? '',
          unit_name: r.unit_name ?? '',
          at: r.at,
          reason: r.reason,
          detail: (JSON.parse(r.changes) as { field: string; before: string; after: string }[])
            .map((c) => `${c.field}: ${c.before} -> ${c.after}`)
            .join('; '),
        })),
      };
    },
  });

  defineRoute(app, {
    api: 'mediaGps',
    handler: async ({ db, user, body }) => {
      const row = await service.visible(await unitScope(db, user), body.id);
      if (!row) throw notFound();
      const start = row.recorded_at;
      const end = new Date(Date.parse(start) + Math.max(0, Number(row.duration ?? 0)) * 1000).toISOString();
      const points =
        row.device_id === null ? [] : await repo.positionsOf(db, row.device_id, start, end, GPS_POINTS_MAX);
      return {
        start,
        end,
        points: points.map((p) => ({
          t: p.time,
          lat: Number(p.lat),
          lng: Number(p.lng),
          speed: p.speed === null ? null : Number(p.speed),
        })),
      };
    },
  });

  defineRoute(app, {
    api: 'mediaDownload',
    msg: 'success.ok',
    handler: async ({ db, user, body }) => {
      const row = await service.visible(await unitScope(db, user), body.id);
      if (!row) throw notFound();
      const signed = service.sign(await service.key(), 'download', row.id, user.id);
      return { url: signed.url, file_name: row.file_name, sha256: row.sha256, expires: signed.expires };
    },
  });

  defineRoute(app, {
    api: 'mediaCustody',
    handler: async ({ db, user, body }) => {
      // the chain of a purged item survives it and stays readable
      const row = await service.visible(await unitScope(db, user), body.id, true);
      if (!row) throw notFound();
      const check = await verifyChain(db, row.id);
      const names = await repo.unitNames(db, [
        ...new Set(check.entries.map((e) => e.unit_id).filter((u): u is number => u !== null)),
      ]);
      return {
        media_id: row.id,
        sha256: row.sha256,
        chain_ok: check.ok,
        broken_at: check.brokenAt,
        entries: check.entries.map((e) => custodyEntry(e, e.unit_id === null ? '' : (names.get(e.unit_id) ?? ''))),
      };
    },
  });
}
