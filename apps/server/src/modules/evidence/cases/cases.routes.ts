import {
  ArchiveMenu,
  ImTargetType,
  ImType,
  ResultCode,
  type Action,
  type CaseAddRequest,
  type CaseKind,
  type CaseListRequest,
  type CaseMediaWriteRequest,
  type IncidentAddRequest,
  type ViolationAddRequest,
} from '@bwc/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { now, type Db } from '../../../db/connection';
import type { AuthUser } from '../../../http/auth';
import { AppError, Errors } from '../../../http/errors';
import { defineRoute } from '../../../http/route';
import { inScope, unitScope, unitSubtree, type UnitScope } from '../../../http/scope';
import { insertMessageIn } from '../../../realtime/console/im.repository';
import { consoleIdentity } from '../../../realtime/console/login';
import type { ConsoleImRow } from '../../../realtime/console/console.tables';
import { roleCan } from '../../auth/permission.repository';
import { devicesByIds } from '../../messages/messages.repository';
import { appendCustody, type CustodyActor } from '../custody';
import type { EvidenceContext } from '../evidence.module';
import * as repo from './cases.repository';

/**
 * Incidents (/rest/yw/jingqing), cases (/rest/yw/anjian), violations and law-enforcement files
 * (rest/yw/zfda): issue 15 section 3, contract in packages/protocol/src/schemas/cases.ts.
 */

const WHAT: Record<CaseKind, string> = {
  incident: 'errors.archive.incident',
  case: 'errors.archive.case',
  violation: 'errors.archive.violation',
};
const notFound = (kind: CaseKind) => new AppError(ResultCode.NOT_FOUND, 'errors.notFound', { what: WHAT[kind] });
const mediaNotFound = (ids: number[]) =>
  new AppError(ResultCode.NOT_FOUND, 'errors.archive.mediaNotFound', { ids: ids.join(', ') });
const nameOf = (user: AuthUser) => user.hostname || user.username;
const menuOf = (kind: CaseKind) => (kind === 'case' ? ArchiveMenu.CASE : ArchiveMenu.LAW_DOC);

/** A record of the caller's units, else "not found" (other units' records do not exist for him). */
async function loadRecord(db: Db, scope: UnitScope, kind: CaseKind | readonly CaseKind[], id: number) {
  const row = await repo.findRecord(db, kind, id);
  if (!row || !inScope(scope, row.unit_id)) throw notFound(typeof kind === 'string' ? kind : 'incident');
  return row;
}

async function loadOpen(db: Db, scope: UnitScope, kind: CaseKind, id: number) {
  const row = await loadRecord(db, scope, kind, id);
  if (row.state !== 'open')
    throw Errors.conflict(row.state === 'closed' ? 'errors.archive.closed' : 'errors.archive.cancelled', {
      no: row.no,
    });
  return row;
}

/** Zfda serves both kinds under either menu: the record's own menu decides. */
async function assertKindMenu(db: Db, user: AuthUser, kind: CaseKind, action: Action): Promise<void> {
  if (!(await roleCan(db, user.role_id, menuOf(kind), action))) throw Errors.forbidden(menuOf(kind), action);
}

/** `JQ`/`AJ` + UTC yyyyMMddHHmmss + 2 digits, the first that is free. */
async function generateNo(db: Db, kind: CaseKind): Promise<string> {
  const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const prefix = kind === 'case' ? 'AJ' : kind === 'incident' ? 'JQ' : 'WF';
  for (let i = 1; i < 100; i++) {
    const no = `${prefix}${stamp}${String(i).padStart(2, '0')}`;
    if (!(await repo.numberTaken(db, kind, no))) return no;
  }
  throw Errors.conflict('errors.archive.noTaken', { no: `${prefix}${stamp}` });
}

async function unitFor(db: Db, user: AuthUser, scope: UnitScope, unitId: number | undefined): Promise<number> {
  if (unitId === undefined) return user.unit_id;
  const unit = await db.selectFrom('units').select('id').where('id', '=', unitId).executeTakeFirst();
  if (!unit || !inScope(scope, unitId)) throw Errors.notFound('unit');
  return unitId;
}

async function filterOf(db: Db, scope: UnitScope, q: CaseListRequest): Promise<Omit<repo.RecordFilter, 'kind'>> {
  let unitIds: number[] | undefined;
  if (q.unit_id !== undefined) {
    if (!inScope(scope, q.unit_id)) throw Errors.notFound('unit');
    unitIds = q.include_sub === 0 ? [q.unit_id] : await unitSubtree(db, q.unit_id);
  }
  const { unit_id: _u, include_sub: _s, ...rest } = q;
  return { ...rest, unitIds };
}

function actorOf(user: AuthUser, req: FastifyRequest): CustodyActor {
  return { user_id: user.id, actor: nameOf(user), unit_id: user.unit_id, ip: req.ip };
}

/**
 * Link or unlink items of the caller's units to an open record (an item outside them, or deleted,
 * is "not found"): the link rows, the items' `linked` flags and a custody entry per changed item.
 * Runs inside the caller's transaction; answers how many links changed.
 */
async function changeLinks(
  trx: Db,
  scope: UnitScope,
  who: CustodyActor,
  record: { id: number; kind: string; no: string },
  mediaIds: readonly number[],
  action: 'link' | 'unlink',
): Promise<number> {
  const ids = [...new Set(mediaIds)];
  const items = await repo.mediaByIds(trx, ids);
  const missing = ids.filter((i) => !items.some((r) => r.id === i && inScope(scope, r.unit_id)));
  if (missing.length) throw mediaNotFound(missing);
  const at = now();
  let changed = 0;
  for (const mediaId of ids) {
    const linked = await repo.isLinkedTo(trx, record.id, mediaId);
    if (action === 'link') {
      if (linked) continue;
      await repo.insertLink(trx, record.id, mediaId, at, who.user_id);
      await repo.setLinked(trx, mediaId, 1);
    } else {
      if (!linked) continue;
      await repo.deleteLink(trx, record.id, mediaId);
      if ((await repo.linkCount(trx, mediaId)) === 0) await repo.setLinked(trx, mediaId, 0);
    }
    await appendCustody(trx, mediaId, 'linked', who, { kind: record.kind, no: record.no, action });
    changed++;
  }
  return changed;
}

export async function registerCases(app: FastifyInstance, _ctx: EvidenceContext): Promise<void> {
  const add = async (db: Db, user: AuthUser, kind: 'incident' | 'case', body: IncidentAddRequest | CaseAddRequest) => {
    const scope = await unitScope(db, user);
    const unitId = await unitFor(db, user, scope, body.unit_id);
    const incidentIds = 'incident_ids' in body ? [...new Set(body.incident_ids)] : [];
    const id = await db.transaction().execute(async (trx) => {
      if (incidentIds.length) {
        const incidents = await repo.findRecords(trx, 'incident', incidentIds);
        const missing = incidentIds.filter((i) => !incidents.some((r) => r.id === i && inScope(scope, r.unit_id)));
        if (missing.length) throw notFound('incident');
        const busy = incidents.filter((r) => r.state !== 'open' || r.case_id !== null);
        if (busy.length)
          throw Errors.field('incident_ids', 'errors.archive.incidentUnavailable', {
            nos: busy.map((r) => r.no).join(', '),
          });
      }
      const no = body.no || (await generateNo(trx, kind));
      if (await repo.numberTaken(trx, kind, no)) throw Errors.field('no', 'errors.archive.noTaken', { no });
      const id = await repo.insertRecord(trx, {
        kind,
        no,
        title: body.title,
        content: body.content,
        place: body.place,
        occurred_at: body.occurred_at,
        reporter: body.reporter,
        reporter_phone: body.reporter_phone,
        unit_id: unitId,
        created_by: user.id,
        created_by_name: nameOf(user),
      });
      if (incidentIds.length) await repo.setCaseOfIncidents(trx, incidentIds, id);
      return id;
    });
    return repo.presentRecord((await repo.findRecord(db, kind, id))!);
  };

  /**
   * A violation of an officer of the caller's units; its unit is the officer's unless given. The
   * record and the links to its items (with their custody entries) are written in one transaction.
   */
  const addViolation = async (db: Db, user: AuthUser, req: FastifyRequest, body: ViolationAddRequest) => {
    const scope = await unitScope(db, user);
    const officer = await db
      .selectFrom('users')
      .select(['id', 'unit_id', 'hostname', 'username'])
      .where('id', '=', body.officer_id)
      .executeTakeFirst();
    if (!officer || !inScope(scope, officer.unit_id)) throw Errors.notFound('user');
    const unitId = body.unit_id === undefined ? officer.unit_id : await unitFor(db, user, scope, body.unit_id);
    const id = await db.transaction().execute(async (trx) => {
      const no = body.no || (await generateNo(trx, 'violation'));
      if (await repo.numberTaken(trx, 'violation', no)) throw Errors.field('no', 'errors.archive.noTaken', { no });
      const id = await repo.insertRecord(trx, {
        kind: 'violation',
        no,
        title: body.title,
        content: body.content,
        place: body.place,
        occurred_at: body.occurred_at,
        unit_id: unitId,
        created_by: user.id,
        created_by_name: nameOf(user),
        officer_id: officer.id,
        officer_name: officer.hostname || officer.username,
        violation_type: body.violation_type,
      });
      if (body.media_ids.length)
        await changeLinks(trx, scope, actorOf(user, req), { id, kind: 'violation', no }, body.media_ids, 'link');
      return id;
    });
    return repo.presentRecord((await repo.findRecord(db, 'violation', id))!);
  };

  /** Cancel a record (any kind), or close a violation: the reason or result, who and when. */
  const cancel = async (
    db: Db,
    user: AuthUser,
    kind: CaseKind,
    id: number,
    reason: string,
    state: 'cancelled' | 'closed' = 'cancelled',
  ) => {
    const scope = await unitScope(db, user);
    await db.transaction().execute(async (trx) => {
      await loadOpen(trx, scope, kind, id);
      await repo.updateRecord(trx, id, {
        state,
        cancel_reason: reason,
        cancelled_at: now(),
        cancelled_by_name: nameOf(user),
      });
      if (kind === 'case') await repo.freeIncidentsOf(trx, id);
    });
    return repo.presentRecord((await repo.findRecord(db, kind, id))!);
  };

  const list = async (
    db: Db,
    user: AuthUser,
    kind: CaseKind,
    q: CaseListRequest & { officer_id?: number; violation_type?: string },
    archiveState?: 'none' | 'archived',
  ) => {
    const scope = await unitScope(db, user);
    const { total, rows } = await repo.listRecords(db, scope, {
      ...(await filterOf(db, scope, q)),
      officer_id: q.officer_id,
      violation_type: q.violation_type,
      kind,
      archive_state: archiveState,
    });
    return { total, page: q.page, limit: q.limit, list: rows.map(repo.presentRecord) };
  };

  const writeMedia = async (
    db: Db,
    user: AuthUser,
    req: FastifyRequest,
    kind: CaseKind,
    body: CaseMediaWriteRequest,
  ) => {
    const scope = await unitScope(db, user);
    const changed = await db.transaction().execute(async (trx) => {
      const record = await loadOpen(trx, scope, kind, body.id);
      return changeLinks(trx, scope, actorOf(user, req), record, body.media_ids, body.action);
    });
    return { changed };
  };

  const relation = async (db: Db, user: AuthUser, kind: CaseKind, id: number) => {
    const record = await loadRecord(db, await unitScope(db, user), kind, id);
    return (await repo.linkedMedia(db, record.id)).map(repo.presentMedia);
  };

  for (const [kind, names] of [
    [
      'incident',
      {
        add: 'incidentAdd',
        cancel: 'incidentCancel',
        list: 'incidentList',
        write: 'incidentMediaWrite',
        media: 'incidentMedia',
      },
    ],
    ['case', { add: 'caseAdd', cancel: 'caseCancel', list: 'caseList', write: 'caseMediaWrite', media: 'caseMedia' }],
  ] as const) {
    defineRoute(app, {
      api: names.add,
      msg: 'success.added',
      handler: async ({ db, user, body, req }) => {
        const created = await add(db, user, kind, body);
        req.audit.target = created.id;
        return created;
      },
    });
    defineRoute(app, {
      api: names.cancel,
      msg: 'success.archive.cancelled',
      handler: async ({ db, user, body }) => cancel(db, user, kind, body.id, body.reason),
    });
    defineRoute(app, {
      api: names.list,
      handler: async ({ db, user, body }) => list(db, user, kind, body),
    });
    defineRoute(app, {
      api: names.write,
      msg: 'success.saved',
      handler: async ({ db, user, body, req }) => writeMedia(db, user, req, kind, body),
    });
    defineRoute(app, {
      api: names.media,
      handler: async ({ db, user, body }) => relation(db, user, kind, body.id),
    });
  }

  // violation records: registered with their items; closed with the result or cancelled
  defineRoute(app, {
    api: 'violationAdd',
    msg: 'success.added',
    handler: async ({ db, user, body, req }) => {
      const created = await addViolation(db, user, req, body);
      req.audit.target = created.id;
      return created;
    },
  });
  defineRoute(app, {
    api: 'violationCancel',
    msg: 'success.archive.cancelled',
    handler: async ({ db, user, body, req }) => {
      req.audit.target = body.id;
      return cancel(db, user, 'violation', body.id, body.reason);
    },
  });
  defineRoute(app, {
    api: 'violationClose',
    msg: 'success.archive.closed',
    handler: async ({ db, user, body, req }) => {
      req.audit.target = body.id;
      return cancel(db, user, 'violation', body.id, body.reason, 'closed');
    },
  });
  defineRoute(app, {
    api: 'violationList',
    handler: async ({ db, user, body }) => list(db, user, 'violation', body),
  });
  defineRoute(app, {
    api: 'violationMediaWrite',
    msg: 'success.saved',
    handler: async ({ db, user, body, req }) => {
      req.audit.target = body.id;
      return writeMedia(db, user, req, 'violation', body);
    },
  });
  defineRoute(app, {
    api: 'violationMedia',
    handler: async ({ db, user, body }) => relation(db, user, 'violation', body.id),
  });
  defineRoute(app, {
    api: 'violationOfficers',
    handler: async ({ db, user, body }) => repo.officers(db, await unitScope(db, user), body.keyword),
  });

  // case samples: a case of the caller's units (not cancelled) marked with a summary
  defineRoute(app, {
    api: 'sampleAdd',
    msg: 'success.archive.sampleAdded',
    handler: async ({ db, user, body, req }) => {
      const scope = await unitScope(db, user);
      req.audit.target = body.id;
      const at = now();
      await db.transaction().execute(async (trx) => {
        const record = await loadRecord(trx, scope, 'case', body.id);
        if (record.state === 'cancelled') throw Errors.conflict('errors.archive.sampleCancelled', { no: record.no });
        if (await repo.sampleOf(trx, record.id))
          throw Errors.conflict('errors.archive.sampleExists', { no: record.no });
        await repo.insertSample(trx, record.id, body.summary, user.id, nameOf(user), at);
      });
      const record = repo.presentRecord((await repo.findRecord(db, 'case', body.id))!);
      return { ...record, summary: body.summary, marked_by_name: nameOf(user), marked_at: at };
    },
  });
  defineRoute(app, {
    api: 'sampleDel',
    msg: 'success.archive.sampleRemoved',
    handler: async ({ db, user, body, req }) => {
      const record = await loadRecord(db, await unitScope(db, user), 'case', body.id);
      req.audit.target = record.id;
      if (!(await repo.deleteSample(db, record.id)))
        throw new AppError(ResultCode.NOT_FOUND, 'errors.notFound', { what: 'errors.archive.sample' });
      return null;
    },
  });
  defineRoute(app, {
    api: 'sampleList',
    handler: async ({ db, user, body }) => {
      const scope = await unitScope(db, user);
      const { total, rows } = await repo.listSamples(db, scope, await filterOf(db, scope, body));
      return { total, page: body.page, limit: body.limit, list: rows };
    },
  });
  defineRoute(app, {
    api: 'sampleMedia',
    handler: async ({ db, user, body }) => {
      const record = await loadRecord(db, await unitScope(db, user), 'case', body.id);
      if (!(await repo.sampleOf(db, record.id)))
        throw new AppError(ResultCode.NOT_FOUND, 'errors.notFound', { what: 'errors.archive.sample' });
      return (await repo.linkedMedia(db, record.id)).map(repo.presentMedia);
    },
  });

  defineRoute(app, {
    api: 'incidentSendList',
    handler: async ({ db, user, body }) => {
      const record = await loadRecord(db, await unitScope(db, user), 'incident', body.id);
      return repo.sendsOf(db, record.id);
    },
  });

  /**
   * Send an incident to terminals: one console-service instant message each (the same delivery as
   * message push: at once to a terminal logged on, at its next logon otherwise) and a send row, in
   * one transaction; then the messages go on the bus.
   */
  defineRoute(app, {
    api: 'incidentSend',
    msg: 'success.archive.sent',
    handler: async ({ db, user, body }) => {
      const scope = await unitScope(db, user);
      const record = await loadOpen(db, scope, 'incident', body.id);
      const ids = [...new Set(body.device)];
      const devices = await devicesByIds(db, ids);
      const missing = ids.filter((i) => !devices.some((d) => d.id === i && inScope(scope, d.unit_id)));
      if (missing.length) throw Errors.field('device', 'errors.message.unknownDevices', { ids: missing.join(', ') });
      const noCode = devices.filter((d) => d.jq_hostcode === '');
      if (noCode.length)
        throw Errors.field('device', 'errors.message.noTrunkCode', {
          names: noCode.map((d) => `${d.hostname} (${d.hostbody})`).join(', '),
        });
      const sender = consoleIdentity(user);
      const ts = now();
      const content = [record.no, record.title, record.occurred_at, record.place, record.content]
        .filter((s) => s !== '')
        .join('\n');
      const carried = await db.transaction().execute(async (trx) => {
        const out: { im: ConsoleImRow; uid: number }[] = [];
        for (const d of devices) {
          const im = await insertMessageIn(
            trx,
            {
              from_uid: sender.uid,
              from_ext_id: sender.ext_id,
              from_name: nameOf(user),
              target: d.id,
              exttarget: d.jq_hostcode,
              target_type: ImTargetType.USER,
              im_type: ImType.TEXT,
              content,
              fid: '',
              filename: '',
              size: 0,
              client_time: '',
              created: ts,
            },
            [d.id],
          );
          out.push({ im, uid: d.id });
        }
        await repo.insertSends(
          trx,
          devices.map((d, i) => ({
            case_id: record.id,
            device_id: d.id,
            hostname: d.hostname,
            hostbody: d.hostbody,
            im_id: out[i]!.im.id,
            sender: nameOf(user),
            sent_at: ts,
          })),
        );
        return out;
      });
      for (const { im, uid } of carried) app.bus.emit('console.im', { message: im, recipients: [uid] });
      return { sent: carried.length };
    },
  });

  defineRoute(app, {
    api: 'archiveList',
    handler: async ({ db, user, body }) => {
      await assertKindMenu(db, user, body.kind, 'view');
      const { kind, archive_state, ...q } = body;
      return list(db, user, kind, q, archive_state);
    },
  });

  defineRoute(app, {
    api: 'archiveGet',
    handler: async ({ db, user, body }) => {
      const record = await loadRecord(db, await unitScope(db, user), ['incident', 'case'], body.id);
      await assertKindMenu(db, user, record.kind as CaseKind, 'view');
      return {
        record: repo.presentRecord(record),
        media: (await repo.linkedMedia(db, record.id)).map(repo.presentMedia),
        incidents: record.kind === 'case' ? (await repo.incidentsOf(db, record.id)).map(repo.presentRecord) : [],
      };
    },
  });

  defineRoute(app, {
    api: 'archiveEdit',
    msg: 'success.saved',
    handler: async ({ db, user, body }) => {
      const scope = await unitScope(db, user);
      const record = await loadRecord(db, scope, ['incident', 'case'], body.id);
      await assertKindMenu(db, user, record.kind as CaseKind, 'edit');
      await repo.updateRecord(db, record.id, {
        archive_no: body.archive_no,
        archive_state: body.archive_state,
        keep_years: body.keep_years,
        archive_note: body.archive_note,
        archived_at: body.archive_state === 'archived' ? (record.archived_at ?? now()) : null,
      });
      return repo.presentRecord((await repo.findRecord(db, record.kind as CaseKind, record.id))!);
    },
  });
}
