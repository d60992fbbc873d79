import {
  ACCESS_ITEMS_MAX,
  ACCESS_MAX_DAYS,
  ResultCode,
  type AccessDecideRequest,
  type AccessListRequest,
  type AccessRequest,
  type AccessState,
  type MediaItem,
} from '@bwc/protocol';
import type { z } from 'zod';
import type { AccessAddRequest } from '@bwc/protocol';
import type { Db } from '../../../db/connection';
import type { AuthUser } from '../../../http/auth';
import { AppError, Errors } from '../../../http/errors';
import { inScope, unitSubtree, type UnitScope } from '../../../http/scope';
import { appendCustody, type CustodyActor } from '../custody';
import * as libraryRepo from '../library/library.repository';
import type { AccessGrants, LibraryService } from '../library/library.service';
import './access.tables';

const DAY_MS = 86_400_000;

export const requestNotFound = () =>
  new AppError(ResultCode.NOT_FOUND, 'errors.notFound', { what: 'errors.what.accessRequest' });

type AddInput = z.output<typeof AccessAddRequest>;
type DecideInput = z.output<typeof AccessDecideRequest>;
type ListInput = z.output<typeof AccessListRequest>;

function requestsQuery(db: Db) {
  return db
    .selectFrom('evidence_access_requests as r')
    .leftJoin('users as u', 'u.id', 'r.requester_id')
    .leftJoin('users as dec', 'dec.id', 'r.decided_by')
    .leftJoin('units as fu', 'fu.id', 'r.from_unit_id')
    .leftJoin('units as tu', 'tu.id', 'r.to_unit_id')
    .leftJoin('devices as d', 'd.id', 'r.device_id')
    .selectAll('r')
    .select([
      'u.hostname as requester_hostname',
      'u.username as requester_username',
      'dec.hostname as decided_by_name',
      'fu.name as from_unit_name',
      'tu.name as to_unit_name',
      'd.hostname as device_name',
    ])
    .select((eb) =>
      eb
        .selectFrom('evidence_access_items as i')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('i.request_id', '=', 'r.id')
        .as('item_count'),
    );
}
type RequestRow = Awaited<ReturnType<ReturnType<typeof requestsQuery>['executeTakeFirstOrThrow']>>;

/**
 * Access requests (accessfrom) and grants (accessto) to other units' items. The grantee is the
 * requester's unit: while an approval is valid, every user whose scope includes that unit reads the
 * granted items through the library (`allows`, the library's `grants` hook). Grants never allow
 * changes, and lists (mediaList) leave granted items out: they are reached from the access screens.
 */
export class AccessService implements AccessGrants {
  constructor(
    readonly db: Db,
    readonly library: LibraryService,
  ) {}

  private nowMs() {
    return this.library.clock();
  }

  async allows(scope: UnitScope, mediaId: number, nowMs: number): Promise<boolean> {
    let q = this.db
      .selectFrom('evidence_access_items as i')
      .innerJoin('evidence_access_requests as r', 'r.id', 'i.request_id')
      .select('r.id')
      .where('i.media_id', '=', mediaId)
      .where('r.state', '=', 'approved')
      .where('r.expires_at', '>', new Date(nowMs).toISOString());
    if (!scope.all) q = q.where('r.from_unit_id', 'in', scope.ids.length ? scope.ids : [-1]);
    return (await q.executeTakeFirst()) !== undefined;
  }

  present(r: RequestRow): AccessRequest {
    return {
      id: r.id,
      requester_id: r.requester_id,
      requester_name: r.requester_hostname || r.requester_username || '',
      from_unit_id: r.from_unit_id,
      from_unit_name: r.from_unit_name ?? '',
      to_unit_id: r.to_unit_id,
      to_unit_name: r.to_unit_name ?? '',
      media_ids: JSON.parse(r.media_ids) as number[],
      device_id: r.device_id,
      device_name: r.device_name ?? '',
      start: r.start_at,
      end: r.end_at,
      reason: r.reason,
      requested_until: r.requested_until,
      state: r.state as AccessState,
      created_at: r.created_at,
      decided_by_name: r.decided_by_name ?? '',
      decided_at: r.decided_at,
      note: r.note,
      expires_at: r.expires_at,
      active: r.state === 'approved' && r.expires_at !== null && Date.parse(r.expires_at) > this.nowMs() ? 1 : 0,
      item_count: Number(r.item_count ?? 0),
    };
  }

  async find(db: Db, id: number): Promise<RequestRow | undefined> {
    return requestsQuery(db).where('r.id', '=', id).executeTakeFirst();
  }

  /** A grant expiry: in the future and at most ACCESS_MAX_DAYS ahead. */
  private checkExpiry(field: string, iso: string) {
    const t = Date.parse(iso);
    if (!(t > this.nowMs()) || t > this.nowMs() + ACCESS_MAX_DAYS * DAY_MS)
      throw Errors.field(field, 'errors.access.expiry', { days: ACCESS_MAX_DAYS });
  }

  /** Units a request can go to: every unit outside the scope. */
  async units(scope: UnitScope) {
    let q = this.db.selectFrom('units').select(['id', 'name', 'bh', 'pid']).orderBy('bh');
    if (!scope.all) q = q.where('id', 'not in', scope.ids.length ? scope.ids : [-1]);
    else q = q.where('id', '=', -1);
    return q.execute();
  }

  async add(user: AuthUser, scope: UnitScope, body: AddInput): Promise<AccessRequest> {
    const unit = await this.db.selectFrom('units').select('id').where('id', '=', body.unit_id).executeTakeFirst();
    if (!unit) throw Errors.notFound('unit');
    if (inScope(scope, body.unit_id)) throw Errors.field('unit_id', 'errors.access.ownUnit');
    if (!body.media_ids.length && body.device_id === undefined && !body.start && !body.end)
      throw Errors.field('media_ids', 'errors.access.noFilter');
    if (body.start && body.end && body.start > body.end) throw Errors.field('end', 'errors.access.range');
    this.checkExpiry('expires_at', body.expires_at);
    const row = await this.db
      .insertInto('evidence_access_requests')
      .values({
        requester_id: user.id,
        from_unit_id: user.unit_id,
        to_unit_id: body.unit_id,
        media_ids: JSON.stringify([...new Set(body.media_ids)]),
        device_id: body.device_id ?? null,
        start_at: body.start ?? null,
        end_at: body.end ?? null,
        reason: body.reason,
        requested_until: body.expires_at,
        state: 'pending',
        created_at: new Date(this.nowMs()).toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return this.present((await this.find(this.db, row.id))!);
  }

  /** Requests of the caller's units (`from`) or to them (`to`), newest first. */
  async list(side: 'from' | 'to', scope: UnitScope, body: ListInput) {
    const col = side === 'from' ? 'r.from_unit_id' : 'r.to_unit_id';
    let q = this.db.selectFrom('evidence_access_requests as r');
    if (!scope.all) q = q.where(col, 'in', scope.ids.length ? scope.ids : [-1]);
    if (body.state) q = q.where('r.state', '=', body.state);
    const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const ids = await q
      .select('r.id')
      .orderBy('r.id', 'desc')
      .limit(body.limit)
      .offset((body.page - 1) * body.limit)
      .execute();
    const rows = ids.length
      ? await requestsQuery(this.db)
          .where(
            'r.id',
            'in',
            ids.map((r) => r.id),
          )
          .orderBy('r.id', 'desc')
          .execute()
      : [];
    return { total: Number(n), page: body.page, limit: body.limit, list: rows.map((r) => this.present(r)) };
  }

  /** A request of the caller's side, else not found. */
  async load(side: 'from' | 'to', scope: UnitScope, id: number): Promise<RequestRow> {
    const row = await this.find(this.db, id);
    if (!row || !inScope(scope, side === 'from' ? row.from_unit_id : row.to_unit_id)) throw requestNotFound();
    return row;
  }

  /**
   * Withdraw: a pending request is closed; an approved one ends its grant now, with a 'shared'
   * entry {access_request, ended} on each granted item in the same transaction.
   */
  async withdraw(scope: UnitScope, who: CustodyActor, id: number): Promise<AccessRequest> {
    const row = await this.load('from', scope, id);
    if (row.state !== 'pending' && row.state !== 'approved') throw Errors.conflict('errors.access.closed');
    const at = new Date(this.nowMs());
    await this.db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('evidence_access_requests')
        .set({ state: 'withdrawn' })
        .where('id', '=', id)
        .where('state', '=', row.state)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) throw Errors.conflict('errors.access.closed');
      if (row.state !== 'approved') return;
      const items = await trx
        .selectFrom('evidence_access_items')
        .select('media_id')
        .where('request_id', '=', id)
        .execute();
      for (const { media_id } of items)
        await appendCustody(trx, media_id, 'shared', who, { access_request: id, ended: 'withdrawn' }, at);
    });
    return this.present((await this.find(this.db, id))!);
  }

  /**
   * The items a request covers now: live items of the asked unit and its sub-units that are also in
   * the approver's scope, by id or by device and recording time. At most ACCESS_ITEMS_MAX + 1.
   */
  async candidates(db: Db, row: RequestRow, approverScope: UnitScope): Promise<number[]> {
    const units = (await unitSubtree(db, row.to_unit_id)).filter((u) => inScope(approverScope, u));
    let q = db
      .selectFrom('evidence_items')
      .select('id')
      .where('unit_id', 'in', units.length ? units : [-1])
      .where('deleted_at', 'is', null)
      .where('purged_at', 'is', null);
    const ids = JSON.parse(row.media_ids) as number[];
    if (ids.length) q = q.where('id', 'in', ids);
    else {
      if (row.device_id !== null) q = q.where('device_id', '=', row.device_id);
      if (row.start_at) q = q.where('recorded_at', '>=', row.start_at);
      if (row.end_at) q = q.where('recorded_at', '<=', row.end_at);
    }
    const found = await q
      .orderBy('id')
      .limit(ACCESS_ITEMS_MAX + 1)
      .execute();
    return found.map((r) => r.id);
  }

  /** Approve (items resolved now, custody 'shared' on each, one transaction) or refuse. */
  async decide(user: AuthUser, scope: UnitScope, who: CustodyActor, body: DecideInput): Promise<AccessRequest> {
    const row = await this.load('to', scope, body.id);
    if (row.state !== 'pending') throw Errors.conflict('errors.access.decided');
    const at = new Date(this.nowMs()).toISOString();
    if (!body.approve) {
      await this.db
        .updateTable('evidence_access_requests')
        .set({ state: 'refused', decided_by: user.id, decided_at: at, note: body.note })
        .where('id', '=', row.id)
        .where('state', '=', 'pending')
        .execute();
      return this.present((await this.find(this.db, row.id))!);
    }
    const expires = body.expires_at ?? row.requested_until;
    this.checkExpiry('expires_at', expires);
    await this.db.transaction().execute(async (trx) => {
      const ids = await this.candidates(trx, row, scope);
      if (!ids.length) throw Errors.invalid('errors.access.noItems');
      if (ids.length > ACCESS_ITEMS_MAX) throw Errors.invalid('errors.access.tooMany', { max: ACCESS_ITEMS_MAX });
      const moved = await trx
        .updateTable('evidence_access_requests')
        .set({ state: 'approved', decided_by: user.id, decided_at: at, note: body.note, expires_at: expires })
        .where('id', '=', row.id)
        .where('state', '=', 'pending')
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) throw Errors.conflict('errors.access.decided');
      await trx
        .insertInto('evidence_access_items')
        .values(ids.map((media_id) => ({ request_id: row.id, media_id })))
        .execute();
      for (const id of ids)
        await appendCustody(
          trx,
          id,
          'shared',
          who,
          {
            access_request: row.id,
            grantee_unit_id: row.from_unit_id,
            grantee_unit: row.from_unit_name ?? '',
            requester: row.requester_hostname || row.requester_username || '',
            expires_at: expires,
          },
          new Date(at),
        );
    });
    return this.present((await this.find(this.db, row.id))!);
  }

  /** The request with its items: granted ones; for the approver of a pending request, the candidates. */
  async detail(side: 'from' | 'to', scope: UnitScope, id: number, uid: number) {
    const row = await this.load(side, scope, id);
    const request = this.present(row);
    let ids: number[] = [];
    if (row.state === 'approved' && (side === 'to' || request.active)) {
      ids = (
        await this.db
          .selectFrom('evidence_access_items')
          .select('media_id')
          .where('request_id', '=', id)
          .orderBy('media_id')
          .execute()
      ).map((r) => r.media_id);
    } else if (row.state === 'pending' && side === 'to') {
      ids = (await this.candidates(this.db, row, scope)).slice(0, ACCESS_ITEMS_MAX);
    }
    const key = await this.library.key();
    const rows = (await libraryRepo.findItems(this.db, ids)).filter((r) => r.purged_at === null);
    const items: MediaItem[] = rows.sort((a, b) => a.id - b.id).map((r) => this.library.present(r, key, uid));
    return { request, items };
  }
}
