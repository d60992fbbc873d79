import type {
  CaseKind,
  CaseListRequest,
  CaseRecord,
  CaseSample,
  IncidentSend,
  MediaItem,
  SampleListRequest,
} from '@bwc/protocol';
import type { Insertable } from 'kysely';
import { now, type Db } from '../../../db/connection';
import type { UnitScope } from '../../../http/scope';
import '../../../realtime/console/console.tables';
import '../evidence.tables';
import type { EvidenceCaseRow, EvidenceCaseTable } from './cases.tables';
import './cases.tables';

/** SQL of incidents, cases, violations, their linked media and sends. */

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Records with the names and counts the wire shows. */
function recordsQuery(db: Db) {
  return db
    .selectFrom('evidence_cases as c')
    .leftJoin('units as un', 'un.id', 'c.unit_id')
    .leftJoin('evidence_cases as parent', 'parent.id', 'c.case_id')
    .selectAll('c')
    .select((eb) => [
      'un.name as unit_name',
      'parent.no as case_no',
      eb
        .selectFrom('evidence_case_media as m')
        .innerJoin('evidence_items as e', 'e.id', 'm.media_id')
        .whereRef('m.case_id', '=', 'c.id')
        .where('e.deleted_at', 'is', null)
        .select((x) => x.fn.countAll<number>().as('n'))
        .as('media_count'),
      eb
        .selectFrom('evidence_cases as inc')
        .whereRef('inc.case_id', '=', 'c.id')
        .select((x) => x.fn.countAll<number>().as('n'))
        .as('incident_count'),
      eb
        .selectFrom('evidence_case_samples as s')
        .whereRef('s.case_id', '=', 'c.id')
        .select((x) => x.fn.countAll<number>().as('n'))
        .as('sample'),
    ]);
}
type RecordRow = Awaited<ReturnType<ReturnType<typeof recordsQuery>['executeTakeFirstOrThrow']>>;

export function presentRecord(r: RecordRow): CaseRecord {
  return {
    id: r.id,
    kind: r.kind as CaseKind,
    no: r.no,
    title: r.title,
    content: r.content,
    place: r.place,
    occurred_at: r.occurred_at,
    reporter: r.reporter,
    reporter_phone: r.reporter_phone,
    unit_id: r.unit_id,
    unit_name: r.unit_name ?? '',
    created_by_name: r.created_by_name,
    created_at: r.created_at,
    state: r.state as CaseRecord['state'],
    cancel_reason: r.cancel_reason,
    cancelled_at: r.cancelled_at,
    cancelled_by_name: r.cancelled_by_name,
    case_id: r.case_id,
    case_no: r.case_no ?? '',
    media_count: Number(r.media_count ?? 0),
    incident_count: Number(r.incident_count ?? 0),
    archive_no: r.archive_no,
    archive_state: r.archive_state as CaseRecord['archive_state'],
    keep_years: r.keep_years,
    archive_note: r.archive_note,
    archived_at: r.archived_at,
    officer_id: r.officer_id,
    officer_name: r.officer_name,
    violation_type: r.violation_type as CaseRecord['violation_type'],
    sample: Number(r.sample ?? 0) > 0 ? 1 : 0,
  };
}

/** One record of a kind, any unit (the caller checks the scope). */
export const findRecord = (db: Db, kind: CaseKind | readonly CaseKind[], id: number) =>
  recordsQuery(db)
    .where('c.id', '=', id)
    .where('c.kind', 'in', typeof kind === 'string' ? [kind] : [...kind])
    .executeTakeFirst();

export const findRecords = (db: Db, kind: CaseKind, ids: readonly number[]) =>
  ids.length
    ? recordsQuery(db)
        .where('c.id', 'in', [...ids])
        .where('c.kind', '=', kind)
        .execute()
    : Promise.resolve([] as RecordRow[]);

/** The incidents a case includes, by occurrence. */
export const incidentsOf = (db: Db, caseId: number) =>
  recordsQuery(db).where('c.case_id', '=', caseId).orderBy('c.occurred_at', 'desc').orderBy('c.id', 'desc').execute();

export const numberTaken = async (db: Db, kind: CaseKind, no: string): Promise<boolean> =>
  (await db
    .selectFrom('evidence_cases')
    .select('id')
    .where('kind', '=', kind)
    .where('no', '=', no)
    .executeTakeFirst()) !== undefined;

/** What registering a record says; the rest starts as an open record's, neither cancelled nor archived. */
export type NewRecord = Pick<
  Insertable<EvidenceCaseTable>,
  'kind' | 'no' | 'title' | 'content' | 'place' | 'occurred_at' | 'unit_id' | 'created_by' | 'created_by_name'
> &
  Partial<
    Pick<
      Insertable<EvidenceCaseTable>,
      'reporter' | 'reporter_phone' | 'officer_id' | 'officer_name' | 'violation_type'
    >
  >;

export async function insertRecord(db: Db, values: NewRecord): Promise<number> {
  const row = await db
    .insertInto('evidence_cases')
    .values({
      reporter: '',
      reporter_phone: '',
      created_at: now(),
      state: 'open',
      cancel_reason: '',
      cancelled_at: null,
      cancelled_by_name: '',
      case_id: null,
      archive_no: '',
      archive_state: 'none',
      keep_years: 0,
      archive_note: '',
      archived_at: null,
      officer_id: null,
      officer_name: '',
      violation_type: '',
      ...values,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function updateRecord(db: Db, id: number, values: Partial<Omit<EvidenceCaseRow, 'id'>>) {
  return db.updateTable('evidence_cases').set(values).where('id', '=', id).execute();
}

export function setCaseOfIncidents(db: Db, incidentIds: readonly number[], caseId: number | null) {
  return db
    .updateTable('evidence_cases')
    .set({ case_id: caseId })
    .where('id', 'in', [...incidentIds])
    .execute();
}

export function freeIncidentsOf(db: Db, caseId: number) {
  return db.updateTable('evidence_cases').set({ case_id: null }).where('case_id', '=', caseId).execute();
}

export interface RecordFilter extends Omit<CaseListRequest, 'unit_id' | 'include_sub'> {
  kind: CaseKind;
  /** the units asked for, inside the caller's scope; undefined: the whole scope */
  unitIds?: number[];
  archive_state?: 'none' | 'archived';
  officer_id?: number;
  violation_type?: string;
}

/** One page of records of the caller's scope, latest occurrence first. */
export async function listRecords(
  db: Db,
  scope: UnitScope,
  f: RecordFilter,
): Promise<{ total: number; rows: RecordRow[] }> {
  let q = db.selectFrom('evidence_cases as c').where('c.kind', '=', f.kind);
  if (!scope.all) q = q.where('c.unit_id', 'in', scope.ids.length ? scope.ids : [-1]);
  if (f.unitIds) q = q.where('c.unit_id', 'in', f.unitIds.length ? f.unitIds : [-1]);
  if (f.state) q = q.where('c.state', '=', f.state);
  if (f.archive_state) q = q.where('c.archive_state', '=', f.archive_state);
  if (f.officer_id !== undefined) q = q.where('c.officer_id', '=', f.officer_id);
  if (f.violation_type) q = q.where('c.violation_type', '=', f.violation_type);
  if (f.start) q = q.where('c.occurred_at', '>=', f.start);
  if (f.end) q = q.where('c.occurred_at', '<=', f.end);
  if (f.no) q = q.where('c.no', 'like', `%${likeEscape(f.no)}%`);
  if (f.keyword) {
    const like = `%${likeEscape(f.keyword)}%`;
    q = q.where((eb) => eb.or((['c.no', 'c.title', 'c.place', 'c.reporter'] as const).map((c) => eb(c, 'like', like))));
  }
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const ids = await q
    .select('c.id')
    .orderBy('c.occurred_at', 'desc')
    .orderBy('c.id', 'desc')
    .limit(f.limit)
    .offset((f.page - 1) * f.limit)
    .execute();
  const rows = ids.length
    ? await recordsQuery(db)
        .where(
          'c.id',
          'in',
          ids.map((r) => r.id),
        )
        .execute()
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return { total: Number(total?.n ?? 0), rows: ids.map((r) => byId.get(r.id)!).filter(Boolean) };
}

/** Accounts of the caller's units by name or username (at most 50), to name in a violation. */
export async function officers(db: Db, scope: UnitScope, keyword: string) {
  let q = db
    .selectFrom('users as u')
    .leftJoin('units as un', 'un.id', 'u.unit_id')
    .select(['u.id', 'u.hostname', 'u.username', 'un.name as unit_name']);
  if (!scope.all) q = q.where('u.unit_id', 'in', scope.ids.length ? scope.ids : [-1]);
  if (keyword) {
    const like = `%${likeEscape(keyword)}%`;
    q = q.where((eb) => eb.or([eb('u.hostname', 'like', like), eb('u.username', 'like', like)]));
  }
  const rows = await q.orderBy('u.hostname').orderBy('u.id').limit(50).execute();
  return rows.map((r) => ({ id: r.id, name: r.hostname, username: r.username, unit_name: r.unit_name ?? '' }));
}

// ---- samples -------------------------------------------------------------------------------

export const sampleOf = (db: Db, caseId: number) =>
  db.selectFrom('evidence_case_samples').selectAll().where('case_id', '=', caseId).executeTakeFirst();

export function insertSample(db: Db, caseId: number, summary: string, by: number, byName: string, at: string) {
  return db
    .insertInto('evidence_case_samples')
    .values({ case_id: caseId, summary, marked_by: by, marked_by_name: byName, marked_at: at })
    .execute();
}

export async function deleteSample(db: Db, caseId: number): Promise<boolean> {
  const r = await db.deleteFrom('evidence_case_samples').where('case_id', '=', caseId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export interface SampleFilter extends Omit<SampleListRequest, 'unit_id' | 'include_sub'> {
  unitIds?: number[];
}

/** One page of samples of the caller's scope, latest marked first. */
export async function listSamples(
  db: Db,
  scope: UnitScope,
  f: SampleFilter,
): Promise<{ total: number; rows: CaseSample[] }> {
  let q = db
    .selectFrom('evidence_case_samples as s')
    .innerJoin('evidence_cases as c', 'c.id', 's.case_id')
    .where('c.kind', '=', 'case');
  if (!scope.all) q = q.where('c.unit_id', 'in', scope.ids.length ? scope.ids : [-1]);
  if (f.unitIds) q = q.where('c.unit_id', 'in', f.unitIds.length ? f.unitIds : [-1]);
  if (f.start) q = q.where('c.occurred_at', '>=', f.start);
  if (f.end) q = q.where('c.occurred_at', '<=', f.end);
  if (f.keyword) {
    const like = `%${likeEscape(f.keyword)}%`;
    q = q.where((eb) => eb.or((['c.no', 'c.title', 's.summary'] as const).map((c) => eb(c, 'like', like))));
  }
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const page = await q
    .select(['s.case_id', 's.summary', 's.marked_by_name', 's.marked_at'])
    .orderBy('s.marked_at', 'desc')
    .orderBy('s.case_id', 'desc')
    .limit(f.limit)
    .offset((f.page - 1) * f.limit)
    .execute();
  const records = page.length
    ? await recordsQuery(db)
        .where(
          'c.id',
          'in',
          page.map((r) => r.case_id),
        )
        .execute()
    : [];
  const byId = new Map(records.map((r) => [r.id, r]));
  const rows = page.flatMap((s) => {
    const r = byId.get(s.case_id);
    return r
      ? [{ ...presentRecord(r), summary: s.summary, marked_by_name: s.marked_by_name, marked_at: s.marked_at }]
      : [];
  });
  return { total: Number(total?.n ?? 0), rows };
}

// ---- media ---------------------------------------------------------------------------------

/** Items (not deleted) with the names MediaItem shows. */
function mediaQuery(db: Db) {
  return db
    .selectFrom('evidence_items as e')
    .leftJoin('units as un', 'un.id', 'e.unit_id')
    .leftJoin('users as u', 'u.id', 'e.user_id')
    .leftJoin('devices as d', 'd.id', 'e.device_id')
    .where('e.deleted_at', 'is', null)
    .select([
      'e.id',
      'e.media_type',
      'e.title',
      'e.description',
      'e.category',
      'e.incident_no',
      'e.file_name',
      'e.ext',
      'e.mime',
      'e.size',
      'e.sha256',
      'e.duration',
      'e.width',
      'e.height',
      'e.video_codec',
      'e.audio_codec',
      'e.recorded_at',
      'e.uploaded_at',
      'e.source',
      'e.outside',
      'e.device_id',
      'e.hostbody',
      'e.user_id',
      'e.unit_id',
      'e.flg',
      'e.flg_note',
      'e.score',
      'e.sensitive',
      'e.linked',
      'e.alarm_id',
      'e.playable',
      'un.name as unit_name',
      'u.hostname as user_name',
      'd.hostname as device_name',
    ]);
}
type MediaRow = Awaited<ReturnType<ReturnType<typeof mediaQuery>['executeTakeFirstOrThrow']>>;

/**
 * The wire form of a linked item. The library's signed thumbnail addresses are not used here:
 * `thumb_url` is '' (the library view of the item signs its own addresses).
 */
export function presentMedia(r: MediaRow): MediaItem {
  return {
    id: r.id,
    media_type: r.media_type as MediaItem['media_type'],
    title: r.title,
    description: r.description,
    category: r.category,
    incident_no: r.incident_no,
    file_name: r.file_name,
    ext: r.ext,
    mime: r.mime,
    size: Number(r.size),
    sha256: r.sha256,
    duration: r.duration === null ? null : Number(r.duration),
    width: r.width,
    height: r.height,
    video_codec: r.video_codec,
    audio_codec: r.audio_codec,
    recorded_at: r.recorded_at,
    uploaded_at: r.uploaded_at,
    source: r.source as MediaItem['source'],
    outside: r.outside,
    device_id: r.device_id,
    hostbody: r.hostbody,
    hostname: r.device_name ?? '',
    user_id: r.user_id,
    user_name: r.user_name ?? '',
    unit_id: r.unit_id,
    unit_name: r.unit_name ?? '',
    flg: r.flg,
    flg_note: r.flg_note,
    score: r.score === null ? null : Number(r.score),
    sensitive: r.sensitive,
    linked: r.linked,
    alarm_id: r.alarm_id,
    playable: r.playable as MediaItem['playable'],
    deleted_at: null,
    delete_reason: '',
    deleted_by_name: '',
    thumb_url: '',
  };
}

/** Items (not deleted) by id, any unit: the caller checks the scope. */
export const mediaByIds = (db: Db, ids: readonly number[]) =>
  ids.length
    ? mediaQuery(db)
        .where('e.id', 'in', [...ids])
        .execute()
    : Promise.resolve([] as MediaRow[]);

/** A record's linked items, newest recording first. */
export const linkedMedia = (db: Db, caseId: number) =>
  mediaQuery(db)
    .innerJoin('evidence_case_media as m', 'm.media_id', 'e.id')
    .where('m.case_id', '=', caseId)
    .orderBy('e.recorded_at', 'desc')
    .orderBy('e.id', 'desc')
    .execute();

export const isLinkedTo = async (db: Db, caseId: number, mediaId: number): Promise<boolean> =>
  (await db
    .selectFrom('evidence_case_media')
    .select('media_id')
    .where('case_id', '=', caseId)
    .where('media_id', '=', mediaId)
    .executeTakeFirst()) !== undefined;

export function insertLink(db: Db, caseId: number, mediaId: number, at: string, by: number | null) {
  return db
    .insertInto('evidence_case_media')
    .values({ case_id: caseId, media_id: mediaId, linked_at: at, linked_by: by })
    .execute();
}

export function deleteLink(db: Db, caseId: number, mediaId: number) {
  return db.deleteFrom('evidence_case_media').where('case_id', '=', caseId).where('media_id', '=', mediaId).execute();
}

export async function linkCount(db: Db, mediaId: number): Promise<number> {
  const row = await db
    .selectFrom('evidence_case_media')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('media_id', '=', mediaId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export function setLinked(db: Db, mediaId: number, linked: 0 | 1) {
  return db.updateTable('evidence_items').set({ linked }).where('id', '=', mediaId).execute();
}

/**
 * Ids among `mediaIds` that retention must keep: items linked to an open case, directly or through
 * an incident that an open case includes.
 */
export async function retentionExemptIds(db: Db, mediaIds: readonly number[]): Promise<Set<number>> {
  if (!mediaIds.length) return new Set();
  const rows = await db
    .selectFrom('evidence_case_media as m')
    .innerJoin('evidence_cases as c', 'c.id', 'm.case_id')
    .leftJoin('evidence_cases as parent', 'parent.id', 'c.case_id')
    .select('m.media_id')
    .distinct()
    .where('m.media_id', 'in', [...mediaIds])
    .where((eb) =>
      eb.or([
        eb.and([eb('c.kind', '=', 'case'), eb('c.state', '=', 'open')]),
        eb.and([eb('c.kind', '=', 'incident'), eb('parent.kind', '=', 'case'), eb('parent.state', '=', 'open')]),
        // the evidence of an officer's breach stays while the violation is being handled
        eb.and([eb('c.kind', '=', 'violation'), eb('c.state', '=', 'open')]),
      ]),
    )
    .execute();
  return new Set(rows.map((r) => r.media_id));
}

/** Whether retention must keep this item (linked to an open case or violation; see retentionExemptIds). */
export async function isRetentionExempt(db: Db, mediaId: number): Promise<boolean> {
  return (await retentionExemptIds(db, [mediaId])).has(mediaId);
}

// ---- sends ---------------------------------------------------------------------------------

export function insertSends(
  db: Db,
  rows: {
    case_id: number;
    device_id: number;
    hostname: string;
    hostbody: string;
    im_id: number;
    sender: string;
    sent_at: string;
  }[],
) {
  return db.insertInto('evidence_case_sends').values(rows).execute();
}

/** The terminals an incident was sent to, newest first, with the delivery of each message. */
export async function sendsOf(db: Db, caseId: number): Promise<IncidentSend[]> {
  const rows = await db
    .selectFrom('evidence_case_sends as s')
    .leftJoin('console_im_recipients as r', (j) =>
      j.onRef('r.im_id', '=', 's.im_id').onRef('r.uid', '=', 's.device_id'),
    )
    .select(['s.device_id', 's.hostname', 's.hostbody', 's.sender', 's.sent_at', 'r.delivered', 'r.read'])
    .where('s.case_id', '=', caseId)
    .orderBy('s.sent_at', 'desc')
    .orderBy('s.im_id', 'desc')
    .execute();
  return rows.map((r) => ({
    device_id: r.device_id,
    hostname: r.hostname,
    hostbody: r.hostbody,
    sender: r.sender,
    sent_at: r.sent_at,
    delivered: r.delivered ? r.delivered : null,
    read: r.read ? r.read : null,
  }));
}
