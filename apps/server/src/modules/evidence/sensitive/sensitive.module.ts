import { ResultCode } from '@bwc/protocol';
import type { FastifyInstance } from 'fastify';
import { sql, type SqlBool } from 'kysely';
import { now } from '../../../db/connection';
import { AppError, Errors } from '../../../http/errors';
import { defineRoute } from '../../../http/route';
import { SensitiveRecompute } from './sensitive';

/**
 * /configcenter/Admin/SensitiveWordAdmin (menu 10462): the word list. Each change is recorded as
 * pending and starts a background recompute of every item's sensitive flag; the node holding the
 * scheduler lease (at start or on taking it over) recomputes while one is pending (a restart cut it short).
 */
export async function registerSensitive(app: FastifyInstance): Promise<void> {
  const recompute = new SensitiveRecompute(app.db, (err) => app.log.error({ err }, 'sensitive recompute failed'));
  app.decorate('sensitiveRecompute', recompute);
  const start = () => void recompute.request();
  const changed = async () => {
    await recompute.markPending();
    start();
  };
  const resume = async () => {
    if (await recompute.pending()) start();
  };
  app.addHook('onReady', async () => {
    if (app.cluster.scheduler.held) await resume();
  });
  // a node taking the lease over resumes a recompute the previous holder left pending
  const offLease = app.cluster.scheduler.onChange((held) => {
    if (held) resume().catch((err) => app.log.error({ err }, 'sensitive recompute failed'));
  });
  app.addHook('onClose', async () => {
    offLease();
    await recompute.idle();
  });

  const duplicate = (word: string) => Errors.field('word', 'errors.sensitiveWord.duplicate', { word });
  const taken = async (key: string, exceptId = 0) =>
    !!(await app.db
      .selectFrom('evidence_sensitive_words')
      .select('id')
      .where('word_key', '=', key)
      .where('id', '!=', exceptId)
      .executeTakeFirst());

  defineRoute(app, {
    api: 'sensitiveWordList',
    handler: async ({ db, body }) => {
      let q = db.selectFrom('evidence_sensitive_words');
      if (body.keyword) {
        const like = `%${body.keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        q = q.where(sql<SqlBool>`word_key like ${like} escape '\\'`);
      }
      const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const list = await q
        .select(['id', 'word', 'updated'])
        .orderBy('word_key')
        .limit(body.limit)
        .offset((body.page - 1) * body.limit)
        .execute();
      return { total: Number(total?.n ?? 0), page: body.page, limit: body.limit, list };
    },
  });

  defineRoute(app, {
    api: 'sensitiveWordAdd',
    msg: 'success.added',
    handler: async ({ db, body, req }) => {
      const key = body.word.toLowerCase();
      if (await taken(key)) throw duplicate(body.word);
      const row = await db
        .insertInto('evidence_sensitive_words')
        .values({ word: body.word, word_key: key, updated: now() })
        .onConflict((oc) => oc.column('word_key').doNothing())
        .returning(['id', 'word', 'updated'])
        .executeTakeFirst();
      if (!row) throw duplicate(body.word);
      req.audit.target = body.word;
      await changed();
      return row;
    },
  });

  defineRoute(app, {
    api: 'sensitiveWordEdit',
    msg: 'success.updated',
    handler: async ({ db, body, req }) => {
      const key = body.word.toLowerCase();
      req.audit.target = body.word;
      if (await taken(key, body.id)) throw duplicate(body.word);
      const row = await db
        .updateTable('evidence_sensitive_words')
        .set({ word: body.word, word_key: key, updated: now() })
        .where('id', '=', body.id)
        .returning(['id', 'word', 'updated'])
        .executeTakeFirst();
      if (!row) throw new AppError(ResultCode.NOT_FOUND, 'errors.notFound', { what: 'errors.what.sensitiveWord' });
      await changed();
      return row;
    },
  });

  defineRoute(app, {
    api: 'sensitiveWordDelete',
    msg: 'success.deleted',
    handler: async ({ db, body, req }) => {
      req.audit.target = body.ids.join(',').slice(0, 255);
      const res = await db.deleteFrom('evidence_sensitive_words').where('id', 'in', body.ids).executeTakeFirst();
      await changed();
      return { deleted: Number(res.numDeletedRows) };
    },
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** background recompute of the evidence items' sensitive flags */
    sensitiveRecompute: SensitiveRecompute;
  }
}
