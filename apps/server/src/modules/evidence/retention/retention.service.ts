import {
  DICT_TYPES,
  EVIDENCE_RECOVERY_DAYS,
  RETENTION_REASON,
  type RetentionDueItem,
  type RetentionPolicy,
  type RetentionRule,
  type RetentionRunAnswer,
} from '@bwc/protocol';
import type { Db } from '../../../db/connection';
import { readSettings, writeSettings } from '../../../db/settings';
import { Errors } from '../../../http/errors';
import type { UnitScope } from '../../../http/scope';
import { retentionExemptIds } from '../cases/cases.repository';
import { appendCustody, type CustodyActor } from '../custody';
import * as repo from '../library/library.repository';
import { DAY_MS, type LibraryService } from '../library/library.service';
import './retention.tables';

/** The custody actor of the retention job. */
export const RETENTION_ACTOR: CustodyActor = { user_id: null, actor: 'retention', unit_id: null, ip: '' };
/** settings row holding the time of the last run (shared by the nodes of a cluster) */
export const LAST_RUN_SETTING = 'evidence_retention_run';
/** Items read per step. */
const BATCH = 500;

export interface Rules {
  byCategory: Map<string, number>;
  defaultDays: number;
}

/** The rule of an item: the longest of its categories' rules, else the default. */
export function ruleOf(category: string, rules: Rules): { rule: string; days: number } {
  let best: { rule: string; days: number } | undefined;
  for (const key of category.split(',')) {
    const days = rules.byCategory.get(key.trim());
    if (days !== undefined && (!best || days > best.days)) best = { rule: key.trim(), days };
  }
  return best ?? { rule: '', days: rules.defaultDays };
}

interface Due {
  id: number;
  due: number;
  rule: string;
  days: number;
}

/**
 * Retention (issue 15 section 4): days kept per media category from recorded_at. Uses the
 * library's clock (tests replace it) and its hard delete for the purge, so tombstones stay one.
 */
export class RetentionService {
  constructor(
    readonly db: Db,
    readonly library: LibraryService,
  ) {}

  now(): number {
    return this.library.clock();
  }

  async rules(): Promise<Rules> {
    const rows = await this.db.selectFrom('evidence_retention').select(['category', 'days']).execute();
    const { keep_days } = await readSettings(this.db, 'filestorage');
    return { byCategory: new Map(rows.map((r) => [r.category, Number(r.days)])), defaultDays: keep_days };
  }

  async policy(): Promise<RetentionPolicy> {
    const rows = await this.db.selectFrom('evidence_retention').selectAll().orderBy('category').execute();
    const { keep_days } = await readSettings(this.db, 'filestorage');
    const last = await this.db
      .selectFrom('settings')
      .select('value')
      .where('type', '=', LAST_RUN_SETTING)
      .executeTakeFirst();
    return {
      rules: rows.map((r) => ({ category: r.category, days: Number(r.days), updated: r.updated })),
      default_days: keep_days,
      last_run: last ? (JSON.parse(last.value) as string) : '',
    };
  }

  /** Replace the rules: each category once and known to the media_category dictionary. */
  async update(rules: readonly RetentionRule[]): Promise<void> {
    const seen = new Set<string>();
    rules.forEach((r, i) => {
      if (seen.has(r.category))
        throw Errors.field(`rules.${i}.category`, 'validation.retention.duplicate', { category: r.category });
      seen.add(r.category);
    });
    if (rules.length) {
      const known = new Set(
        (
          await this.db
            .selectFrom('dict_entries')
            .select('key')
            .where('type', '=', DICT_TYPES.MEDIA_CATEGORY)
            .where('key', 'in', [...seen])
            .execute()
        ).map((r) => r.key),
      );
      const i = rules.findIndex((r) => !known.has(r.category));
      if (i >= 0)
        throw Errors.field(`rules.${i}.category`, 'validation.retention.unknownCategory', {
          category: rules[i]!.category,
        });
    }
    const updated = new Date(this.now()).toISOString();
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('evidence_retention').execute();
      if (rules.length)
        await trx
          .insertInto('evidence_retention')
          .values(rules.map((r) => ({ category: r.category, days: r.days, updated })))
          .execute();
    });
  }

  /**
   * Live items of the scope due by `until` (ms), soonest first, without those linked to an open
   * case. Reads candidates by recorded_at in batches (only those old enough for the shortest rule).
   */
  async due(scope: UnitScope, until: number): Promise<{ due: Due[]; exempt: number }> {
    const rules = await this.rules();
    const shortest = Math.min(rules.defaultDays, ...rules.byCategory.values());
    // a day of slack for recorded_at strings not in the ISO form of now()
    const cutoff = new Date(until - (shortest - 1) * DAY_MS).toISOString();
    const due: Due[] = [];
    let exempt = 0;
    let after: { recorded_at: string; id: number } | undefined;
    for (;;) {
      let q = this.db
        .selectFrom('evidence_items')
        .select(['id', 'category', 'recorded_at'])
        .where('deleted_at', 'is', null)
        .where('purged_at', 'is', null)
        .where('recorded_at', '<', cutoff);
      if (!scope.all) q = scope.ids.length ? q.where('unit_id', 'in', scope.ids) : q.where('id', '<', 0);
      if (after) {
        const a = after;
        q = q.where((eb) =>
          eb.or([
            eb('recorded_at', '>', a.recorded_at),
            eb.and([eb('recorded_at', '=', a.recorded_at), eb('id', '>', a.id)]),
          ]),
        );
      }
      const rows = await q.orderBy('recorded_at').orderBy('id').limit(BATCH).execute();
      if (!rows.length) break;
      after = rows[rows.length - 1];
      const batch: Due[] = [];
      for (const r of rows) {
        const { rule, days } = ruleOf(r.category, rules);
        const at = Date.parse(r.recorded_at);
        const dueAt = (Number.isNaN(at) ? 0 : at) + days * DAY_MS;
        if (dueAt <= until) batch.push({ id: r.id, due: dueAt, rule, days });
      }
      const kept = await retentionExemptIds(
        this.db,
        batch.map((d) => d.id),
      );
      exempt += kept.size;
      due.push(...batch.filter((d) => !kept.has(d.id)));
    }
    due.sort((a, b) => a.due - b.due || a.id - b.id);
    return { due, exempt };
  }

  /** The items due within the next `days` days (past due included), one page. */
  async preview(scope: UnitScope, days: number, page: number, limit: number) {
    const { due } = await this.due(scope, this.now() + days * DAY_MS);
    const slice = due.slice((page - 1) * limit, page * limit);
    const rows = new Map(
      (
        await repo.findItems(
          this.db,
          slice.map((d) => d.id),
        )
      ).map((r) => [r.id, r]),
    );
    const list: RetentionDueItem[] = slice.flatMap((d) => {
      const r = rows.get(d.id);
      if (!r) return [];
      return [
        {
          id: r.id,
          title: r.title,
          file_name: r.file_name,
          category: r.category,
          unit_id: r.unit_id,
          unit_name: r.unit_name ?? '',
          recorded_at: r.recorded_at,
          due_at: new Date(d.due).toISOString(),
          rule: d.rule,
          days: d.days,
        },
      ];
    });
    return { total: due.length, page, limit, list };
  }

  /**
   * Soft-delete the scope's due items (delete_reason 'retention', a 'delete' revision and custody
   * 'retention', one transaction per item), then purge the items retention deleted whose recovery
   * window has passed, with the library's hard delete.
   */
  async run(scope: UnitScope): Promise<RetentionRunAnswer> {
    const now = this.now();
    const at = new Date(now).toISOString();
    const { due, exempt } = await this.due(scope, now);
    let deleted = 0;
    let kept = exempt;
    for (const d of due) {
      const done = await this.db.transaction().execute(async (trx) => {
        const row = await repo.findItem(trx, d.id);
        if (!row || row.deleted_at !== null || row.purged_at !== null) return false;
        // linked to an open case since it was listed
        if ((await retentionExemptIds(trx, [d.id])).size) {
          kept += 1;
          return false;
        }
        await repo.updateItem(trx, d.id, { deleted_at: at, deleted_by: null, delete_reason: RETENTION_REASON });
        await repo.insertRevision(trx, {
          media_id: d.id,
          kind: 'delete',
          user_id: null,
          unit_id: null,
          at,
          reason: RETENTION_REASON,
          changes: [],
          media_title: row.title,
        });
        await appendCustody(
          trx,
          d.id,
          'retention',
          RETENTION_ACTOR,
          { rule: d.rule, days: d.days, due_at: new Date(d.due).toISOString() },
          new Date(now),
        );
        return true;
      });
      if (done) deleted += 1;
    }
    return { deleted, purged: await this.purge(scope, now), exempt: kept };
  }

  private async purge(scope: UnitScope, now: number): Promise<number> {
    const before = new Date(now - EVIDENCE_RECOVERY_DAYS * DAY_MS).toISOString();
    let purged = 0;
    let last = 0;
    for (;;) {
      let q = this.db
        .selectFrom('evidence_items')
        .select('id')
        .where('delete_reason', '=', RETENTION_REASON)
        .where('deleted_at', '<=', before)
        .where('purged_at', 'is', null)
        .where('id', '>', last);
      if (!scope.all) q = scope.ids.length ? q.where('unit_id', 'in', scope.ids) : q.where('id', '<', 0);
      const ids = (await q.orderBy('id').limit(BATCH).execute()).map((r) => r.id);
      if (!ids.length) return purged;
      last = ids[ids.length - 1]!;
      const exempt = await retentionExemptIds(this.db, ids);
      const answer = await this.library.hardDelete(
        scope,
        RETENTION_ACTOR,
        ids.filter((id) => !exempt.has(id)),
      );
      purged += answer.changed;
    }
  }

  /** The daily run: at most once a day across the cluster (the last run is a shared setting). */
  async daily(): Promise<RetentionRunAnswer | null> {
    const now = this.now();
    const last = (await this.policy()).last_run;
    if (last && now - Date.parse(last) < DAY_MS) return null;
    await writeSettings(this.db, LAST_RUN_SETTING, new Date(now).toISOString());
    return this.run({ all: true });
  }
}
