import { MEDIA_LIST_COUNT_CAP, type EditRecordQuery, type MediaSearchRequest } from '@bwc/protocol';
import { sql, type Kysely, type SqlBool, type Updateable } from 'kysely';
import type { z } from 'zod';
import { isPostgres, type Db } from '../../../db/connection';
import { PG_KEYWORD_EXPRESSION } from '../../../db/migrations/0024_evidence_keyword';
import type { UnitScope } from '../../../http/scope';
import type { EvidenceItemTable } from '../evidence.tables';
import '../evidence.tables';

declare module '../evidence.tables' {
  interface EvidenceItemTable {
    /** set when a hard delete removed the bytes; the row stays so that its custody chain survives (0017) */
    purged_at: string | null;
  }
}

/** SQL of the evidence library: items with their display names, revisions, positions. */

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Item rows with the names the wire shows. */
function itemsQuery(db: Db) {
  return db
    .selectFrom('evidence_items as e')
    .leftJoin('units as un', 'un.id', 'e.unit_id')
    .leftJoin('users as u', 'u.id', 'e.user_id')
    .leftJoin('devices as d', 'd.id', 'e.device_id')
    .leftJoin('users as del', 'del.id', 'e.deleted_by')
    .selectAll('e')
    .select([
      'un.name as unit_name',
      'u.hostname as user_name',
      'd.hostname as device_name',
      'del.hostname as deleted_by_name',
    ]);
}

export type ItemRow = Awaited<ReturnType<ReturnType<typeof itemsQuery>['executeTakeFirstOrThrow']>>;

export interface SearchFilter extends Omit<MediaSearchRequest, 'unit_id' | 'include_sub'> {
  /** the units asked for, already inside the caller's scope; undefined: the whole scope */
  unitIds?: number[];
}

/**
 * Title, description, file name, hostbody or incident number contains the keyword (any case). From
 * three characters on it is answered by the trigram index of 0024 (SQLite FTS5 `evidence_fts`,
 * PostgreSQL pg_trgm on the joined lower-cased columns, when the extension was available); a
 * shorter keyword reads the rows.
 */
function keywordFilter(db: Db, keyword: string) {
  const like = `%${likeEscape(keyword.toLowerCase())}%`;
  if (isPostgres(db as Kysely<unknown>))
    return sql<SqlBool>`${sql.raw(PG_KEYWORD_EXPRESSION)} like ${like} escape '\\'`;
  if ([...keyword].length >= 3)
    return sql<SqlBool>`e.id in (select rowid from evidence_fts where evidence_fts match ${`"${keyword.replace(/"/g, '""')}"`})`;
  return sql<SqlBool>`(${sql.join(
    KEYWORD_COLUMNS.map((c) => sql`${sql.ref(c)} like ${like} escape '\\'`),
    sql` or `,
  )})`;
}
const KEYWORD_COLUMNS = ['e.title', 'e.description', 'e.file_name', 'e.hostbody', 'e.incident_no'] as const;

/** One page of the library (purged tombstones never listed). */
export async function searchItems(
  db: Db,
  scope: UnitScope,
  f: SearchFilter,
): Promise<{ total: number; capped: number; rows: ItemRow[] }> {
  let q = db.selectFrom('evidence_items as e').where('e.purged_at', 'is', null);
  if (!scope.all) q = q.where('e.unit_id', 'in', scope.ids.length ? scope.ids : [-1]);
  if (f.unitIds) q = q.where('e.unit_id', 'in', f.unitIds.length ? f.unitIds : [-1]);
  switch (f.view) {
    case 'law':
      q = q.where('e.deleted_at', 'is', null).where('e.outside', '=', 0);
      break;
    case 'outside':
      q = q.where('e.deleted_at', 'is', null).where('e.outside', '=', 1);
      break;
    case 'sensitivity':
      q = q.where('e.deleted_at', 'is', null).where('e.sensitive', '=', 1);
      break;
    case 'deleted':
      q = q.where('e.deleted_at', 'is not', null);
      break;
    case 'alarm':
      q = q.where('e.deleted_at', 'is', null).where('e.alarm_id', 'is not', null);
      break;
  }
  if (f.user_id !== undefined) q = q.where('e.user_id', '=', f.user_id);
  if (f.device_id !== undefined) q = q.where('e.device_id', '=', f.device_id);
  if (f.media_type !== undefined) q = q.where('e.media_type', '=', f.media_type);
  if (f.flg !== undefined) q = q.where('e.flg', '=', f.flg);
  if (f.category) q = q.where('e.category', '=', f.category);
  if (f.linked !== undefined) q = q.where('e.linked', '=', f.linked);
  if (f.scored === 1) q = q.where('e.score', 'is not', null);
  if (f.scored === 0) q = q.where('e.score', 'is', null);
  if (f.recorded_start) q = q.where('e.recorded_at', '>=', f.recorded_start);
  if (f.recorded_end) q = q.where('e.recorded_at', '<=', f.recorded_end);
  if (f.uploaded_start) q = q.where('e.uploaded_at', '>=', f.uploaded_start);
  if (f.uploaded_end) q = q.where('e.uploaded_at', '<=', f.uploaded_end);
  if (f.keyword) q = q.where(keywordFilter(db, f.keyword));
  // counted up to the cap (MEDIA_LIST_COUNT_CAP): a bounded count whatever the library's size
  const counted = await db
    .selectFrom(
      q
        .select('e.id')
        .limit(MEDIA_LIST_COUNT_CAP + 1)
        .as('c'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  const n = Number(counted?.n ?? 0);
  const ids = await q
    .select('e.id')
    .orderBy(`e.${f.sort}`, f.order)
    .orderBy('e.id', f.order)
    .limit(f.limit)
    .offset((f.page - 1) * f.limit)
    .execute();
  const rows = ids.length
    ? await itemsQuery(db)
        .where(
          'e.id',
          'in',
          ids.map((r) => r.id),
        )
        .execute()
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return {
    total: Math.min(n, MEDIA_LIST_COUNT_CAP),
    capped: n > MEDIA_LIST_COUNT_CAP ? 1 : 0,
    rows: ids.map((r) => byId.get(r.id)!).filter(Boolean),
  };
}

/** One item by id, tombstones included (callers decide). */
export const findItem = (db: Db, id: number): Promise<ItemRow | undefined> =>
  itemsQuery(db).where('e.id', '=', id).executeTakeFirst();

export const findItems = (db: Db, ids: readonly number[]): Promise<ItemRow[]> =>
  ids.length
    ? itemsQuery(db)
        .where('e.id', 'in', [...ids])
        .execute()
    : Promise.resolve([]);

export function updateItem(
  db: Db,
  id: number,
  values: Updateable<Omit<EvidenceItemTable, 'id' | 'custody_seq' | 'custody_hash'>>,
) {
  return db.updateTable('evidence_items').set(values).where('id', '=', id).execute();
}

export async function insertRevision(
  db: Db,
  r: {
    media_id: number;
    kind: 'revise' | 'delete' | 'revert' | 'harddel';
    user_id: number | null;
    unit_id: number | null;
    at: string;
    reason: string;
    changes: { field: string; before: string; after: string }[];
    media_title: string;
  },
) {
  await db
    .insertInto('evidence_revisions')
    .values({ ...r, changes: JSON.stringify(r.changes) })
    .execute();
}

/** An item's metadata revisions, newest first. */
export const revisionsOf = (db: Db, mediaId: number) =>
  db
    .selectFrom('evidence_revisions as r')
    .leftJoin('users as u', 'u.id', 'r.user_id')
    .selectAll('r')
    .select('u.hostname as user_name')
    .where('r.media_id', '=', mediaId)
    .where('r.kind', '=', 'revise')
    .orderBy('r.at', 'desc')
    .orderBy('r.id', 'desc')
    .execute();

/** /data/edit/record: revisions and deletions of items in scope, newest first. */
export async function editRecord(db: Db, scope: UnitScope, f: z.output<typeof EditRecordQuery>) {
  let q = db.selectFrom('evidence_revisions as r').innerJoin('evidence_items as e', 'e.id', 'r.media_id');
  if (!scope.all) q = q.where('e.unit_id', 'in', scope.ids.length ? scope.ids : [-1]);
  if (f.kind !== 'all') q = q.where('r.kind', '=', f.kind);
  if (f.keyword) q = q.where('r.media_title', 'like', `%${likeEscape(f.keyword)}%`);
  if (f.start) q = q.where('r.at', '>=', f.start);
  if (f.end) q = q.where('r.at', '<=', f.end);
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const rows = await q
    .leftJoin('users as u', 'u.id', 'r.user_id')
    .leftJoin('units as un', 'un.id', 'r.unit_id')
    .selectAll('r')
    .select(['u.hostname as user_name', 'un.name as unit_name'])
    .orderBy('r.at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(f.limit)
    .offset((f.page - 1) * f.limit)
    .execute();
  return { total: Number(total?.n ?? 0), rows };
}

/** The device's fixes of [start, end], oldest first (modules/tracks reads the same table). */
export const positionsOf = (db: Db, deviceId: number, start: string, end: string, limit: number) =>
  db
    .selectFrom('positions')
    .select(['time', 'lat', 'lng', 'speed'])
    .where('device_id', '=', deviceId)
    .where('time', '>=', start)
    .where('time', '<=', end)
    .orderBy('time')
    .orderBy('id')
    .limit(limit)
    .execute();

/** Whether any item other than `exceptId` that is not purged still uses these bytes. */
export async function contentInUse(db: Db, sha256: string, exceptId: number): Promise<boolean> {
  const row = await db
    .selectFrom('evidence_items')
    .select('id')
    .where('id', '!=', exceptId)
    .where('purged_at', 'is', null)
    .where((eb) =>
      eb.or([eb('sha256', '=', sha256), eb('thumb_sha256', '=', sha256), eb('derivative_sha256', '=', sha256)]),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export const unitNames = async (db: Db, ids: readonly number[]): Promise<Map<number, string>> =>
  new Map(
    ids.length
      ? (
          await db
            .selectFrom('units')
            .select(['id', 'name'])
            .where('id', 'in', [...ids])
            .execute()
        ).map((u) => [u.id, u.name])
      : [],
  );
