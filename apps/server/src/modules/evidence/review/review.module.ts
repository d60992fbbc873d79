import { ResultCode, type CheckFilters } from '@bwc/protocol';
import type { FastifyInstance } from 'fastify';
import { now } from '../../../db/connection';
import { AppError, Errors } from '../../../http/errors';
import { defineRoute } from '../../../http/route';
import { inScope, unitScope, unitSubtree, type UnitScope } from '../../../http/scope';
import { appendCustody } from '../custody';
import type { EvidenceContext } from '../evidence.module';
import { findItems } from '../library/library.repository';
import { actorOf, REFUSAL } from '../library/library.service';
import * as checks from './checks';
import { drawSample } from './sample';
import * as rubrics from './rubrics';
import * as scores from './scores';

/**
 * Review of evidence (issue 15 sections 2 and 5): scores against a rubric (media_score_get,
 * media_score_update, videoscore), their rubrics (rubric_get/add/edit/active) and random checks (checkrandom/*, checkrecord/get). Contract and
 * rules: packages/protocol/src/schemas/review.ts. Uses the library (registered before it).
 */

const notFound = () => new AppError(ResultCode.NOT_FOUND, 'errors.notFound', { what: 'errors.what.media' });

async function unitsOf(app: FastifyInstance, scope: UnitScope, unitId: number | undefined, includeSub: number) {
  if (unitId === undefined) return undefined;
  if (!inScope(scope, unitId)) throw Errors.notFound('unit');
  return includeSub ? unitSubtree(app.db, unitId) : [unitId];
}

export async function registerReview(app: FastifyInstance, _ctx: EvidenceContext): Promise<void> {
  const library = app.evidenceLibrary;

  defineRoute(app, {
    api: 'mediaScoreGet',
    handler: async ({ db, user, body }) => {
      const row = await library.visible(await unitScope(db, user), body.id);
      if (!row) throw notFound();
      return scores.scoreAnswer(db, row.id, user.id);
    },
  });

  defineRoute(app, {
    api: 'mediaScoreUpdate',
    msg: 'success.saved',
    handler: async ({ db, user, body, req, lang }) => {
      req.audit.target = String(body.id);
      const row = await library.visible(await unitScope(db, user), body.id);
      if (!row) throw notFound();
      if (row.deleted_at !== null) throw Errors.invalid(REFUSAL.deleted);
      const rubric = await scores.activeRubric(db);
      const checked = scores.checkScores(rubric, body.items, lang);
      const at = new Date(library.clock());
      await db.transaction().execute(async (trx) => {
        await scores.holdRubric(trx, rubric);
        const { average, replaced } = await scores.saveScore(trx, {
          media_id: row.id,
          user_id: user.id,
          user_name: user.hostname || user.username,
          rubric_id: rubric.id,
          items: JSON.stringify(checked.items),
          comment: body.comment,
          total: checked.total,
          max_total: rubric.max_total,
          at: at.toISOString(),
        });
        await appendCustody(
          trx,
          row.id,
          'scored',
          actorOf(user, req.ip),
          { rubric: rubric.id, total: checked.total, max_total: rubric.max_total, average, replaced },
          at,
        );
      });
      return scores.scoreAnswer(db, row.id, user.id);
    },
  });

  defineRoute(app, {
    api: 'videoScore',
    handler: async ({ db, user, body }) => {
      const scope = await unitScope(db, user);
      const unitIds = await unitsOf(app, scope, body.unit_id, body.include_sub);
      const { total, ids } = await scores.scoreListIds(db, scope, user.id, { ...body, unitIds });
      const rows = await findItems(db, ids);
      const byId = new Map(rows.map((r) => [r.id, r]));
      const stats = await scores.scoreStats(db, ids, user.id);
      const key = await library.key();
      return {
        total,
        page: body.page,
        limit: body.limit,
        list: ids
          .filter((id) => byId.has(id))
          .map((id) => ({ ...library.present(byId.get(id)!, key, user.id), ...stats.get(id)! })),
      };
    },
  });

  defineRoute(app, {
    api: 'rubricList',
    handler: async ({ db }) => rubrics.listRubrics(db),
  });

  defineRoute(app, {
    api: 'rubricAdd',
    msg: 'success.saved',
    handler: async ({ db, body, req }) => {
      const id = await rubrics.addRubric(db, body);
      req.audit.target = String(id);
      return rubrics.rubricVersion(db, id);
    },
  });

  defineRoute(app, {
    api: 'rubricEdit',
    msg: 'success.saved',
    handler: async ({ db, body, req }) => {
      const { id, ...input } = body;
      const next = await rubrics.editRubric(db, id, input);
      // the old id, and the new version's when the edit made one
      req.audit.target = next.versioned ? `${id}->${next.id}` : String(id);
      return rubrics.rubricVersion(db, next.id);
    },
  });

  defineRoute(app, {
    api: 'rubricActive',
    msg: 'success.saved',
    handler: async ({ db, body, req }) => {
      req.audit.target = String(body.id);
      await rubrics.activateRubric(db, body.id);
      return rubrics.rubricVersion(db, body.id);
    },
  });

  const detail = async (scope: UnitScope, uid: number, batchId: number) => {
    const batch = await checks.loadBatch(app.db, scope, batchId);
    const items = await checks.batchItems(app.db, batch.id);
    const media = new Map(
      (
        await findItems(
          app.db,
          items.map((i) => i.media_id),
        )
      ).map((r) => [r.id, r]),
    );
    const key = await library.key();
    return {
      batch: (await checks.presentBatches(app.db, [batch]))[0]!,
      items: items.map((i) => {
        const m = media.get(i.media_id);
        return checks.presentItem(i, m && m.purged_at === null ? library.present(m, key, uid) : null);
      }),
    };
  };

  defineRoute(app, {
    api: 'checkDraw',
    msg: 'success.saved',
    handler: async ({ db, user, body, req }) => {
      const scope = await unitScope(db, user);
      const unitIds = await unitsOf(app, scope, body.unit_id, body.include_sub);
      const maxId = await checks.maxMediaId(db);
      const candidates = await checks.candidateIds(db, scope, unitIds, body, maxId);
      if (!candidates.length) throw Errors.invalid('errors.review.noCandidates');
      const seed = checks.newSeed();
      const sample = drawSample(candidates, seed, body.count);
      const filters: CheckFilters = {
        unit_id: body.unit_id ?? null,
        include_sub: body.include_sub,
        recorded_start: body.recorded_start ?? null,
        recorded_end: body.recorded_end ?? null,
        media_type: body.media_type ?? null,
      };
      const id = await db.transaction().execute(async (trx) => {
        const inserted = await trx
          .insertInto('evidence_check_batches')
          .values({
            unit_id: body.unit_id ?? user.unit_id,
            created_by: user.id,
            created_by_name: user.hostname || user.username,
            created_at: now(),
            note: body.note,
            seed,
            max_media_id: maxId,
            filters: JSON.stringify(filters),
            requested: body.count,
            drawn: sample.length,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('evidence_check_items')
          .values(
            sample.map((media_id, i) => ({
              batch_id: inserted.id,
              media_id,
              pos: i + 1,
              result: 'pending',
              note: '',
              checked_by: null,
              checked_by_name: '',
              checked_at: null,
            })),
          )
          .execute();
        return inserted.id;
      });
      req.audit.target = String(id);
      return detail(scope, user.id, id);
    },
  });

  defineRoute(app, {
    api: 'checkBatch',
    handler: async ({ db, user, body }) => detail(await unitScope(db, user), user.id, body.id),
  });

  defineRoute(app, {
    api: 'checkResult',
    msg: 'success.saved',
    handler: async ({ db, user, body, req }) => {
      req.audit.target = `${body.batch_id}:${body.media_id}`;
      const scope = await unitScope(db, user);
      const batch = await checks.loadBatch(db, scope, body.batch_id);
      const item = await db
        .selectFrom('evidence_check_items')
        .selectAll()
        .where('batch_id', '=', batch.id)
        .where('media_id', '=', body.media_id)
        .executeTakeFirst();
      if (!item) throw Errors.invalid('errors.review.notInBatch');
      const media = await library.visible(scope, body.media_id);
      if (!media) throw notFound();
      const at = new Date(library.clock());
      const values = {
        result: body.result,
        note: body.note,
        checked_by: user.id,
        checked_by_name: user.hostname || user.username,
        checked_at: at.toISOString(),
      };
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('evidence_check_items')
          .set(values)
          .where('batch_id', '=', batch.id)
          .where('media_id', '=', media.id)
          .execute();
        await appendCustody(
          trx,
          media.id,
          'verified',
          actorOf(user, req.ip),
          { check_batch: batch.id, result: body.result, note: body.note },
          at,
        );
      });
      return checks.presentItem({ ...item, ...values }, library.present(media, await library.key(), user.id));
    },
  });

  defineRoute(app, {
    api: 'checkRecords',
    handler: async ({ db, user, body }) => {
      const scope = await unitScope(db, user);
      const unitIds = await unitsOf(app, scope, body.unit_id, body.include_sub);
      const { total, rows } = await checks.listBatches(db, scope, { ...body, unitIds });
      return { total, page: body.page, limit: body.limit, list: await checks.presentBatches(db, rows) };
    },
  });
}
