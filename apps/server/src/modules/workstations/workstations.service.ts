import {
  ResultCode,
  WORKSTATION_HEARTBEAT_S,
  WORKSTATION_OFFLINE_AFTER_S,
  type DockedCamera,
  type Page,
  type Workstation,
  type WorkstationAddRequest,
  type WorkstationHeartbeatRequest,
  type WorkstationListQuery,
  type WorkstationProvisionRequest,
  type WorkstationUpdateRequest,
} from '@bwc/protocol';
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { now, type Db } from '../../db/connection';
import { onUniqueViolation } from '../../db/unique';
import { AppError, Errors } from '../../http/errors';
import { assertInScope, inScope, unitSubtree, type UnitScope } from '../../http/scope';
import { newSecret, newToken, sameHash, sha256Hex } from '../devices/credentials';
import type { LicenceGate } from '../devices/devices.service';
import type { WorkstationTable } from './workstations.tables';
import './workstations.tables';

type Row = Omit<WorkstationTable, 'id'> & { id: number };

export const workstationNotFound = () =>
  new AppError(ResultCode.NOT_FOUND, 'errors.notFound', { what: 'errors.what.workstation' });
const credentialsRefused = () => new AppError(ResultCode.UNAUTHENTICATED, 'errors.workstation.credentials');

/** A camera a station uploads for: the device row the item takes its device, officer and unit from. */
export interface StationCamera {
  id: number;
  hostbody: string;
  unit_id: number;
  owner_id: number | null;
  remote_kill: number;
}

/**
 * The docking workstation registry and the workstation API. Online is not stored: a station is
 * online while its last heartbeat is at most WORKSTATION_OFFLINE_AFTER_S old by `clock` (tests
 * replace it), so every node of a cluster reads the same state without a sweeper.
 */
export class WorkstationService {
  clock: () => number = () => Date.now();

  constructor(
    private readonly db: Db,
    private readonly licence: LicenceGate,
  ) {}

  private cutoff(): string {
    return new Date(this.clock() - WORKSTATION_OFFLINE_AFTER_S * 1000).toISOString();
  }

  online(row: Pick<Row, 'last_seen'>): boolean {
    return row.last_seen !== null && row.last_seen >= this.cutoff();
  }

  /** Hostbodies docked now: the last heartbeat's, none once offline. */
  dockedNow(row: Pick<Row, 'last_seen' | 'docked'>): string[] {
    if (!this.online(row)) return [];
    try {
      const list = JSON.parse(row.docked) as unknown;
      return Array.isArray(list) ? list.filter((h): h is string => typeof h === 'string') : [];
    } catch {
      return [];
    }
  }

  private async present(rows: (Row & { unitname: string | null })[]): Promise<Workstation[]> {
    const docked = new Map(rows.map((r) => [r.id, this.dockedNow(r)]));
    const all = [...new Set([...docked.values()].flat())];
    const devices = all.length
      ? await this.db
          .selectFrom('devices')
          .select(['id', 'hostbody', 'hostname'])
          .where('hostbody', 'in', all)
          .execute()
      : [];
    const byBody = new Map(devices.map((d) => [d.hostbody, d]));
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      code: r.code,
      unit_id: r.unit_id,
      unitname: r.unitname ?? '',
      ip: r.ip,
      last_ip: r.last_ip,
      remark: r.remark,
      lineon: this.online(r) ? 1 : 0,
      last_seen: r.last_seen,
      disk_free: r.disk_free === null ? null : Number(r.disk_free),
      docked: (docked.get(r.id) ?? []).map((hostbody): DockedCamera => ({
        hostbody,
        device_id: byBody.get(hostbody)?.id ?? null,
        hostname: byBody.get(hostbody)?.hostname ?? '',
      })),
      created: r.created,
      updated: r.updated,
    }));
  }

  private select() {
    return this.db
      .selectFrom('workstations as w')
      .leftJoin('units as u', 'u.id', 'w.unit_id')
      .selectAll('w')
      .select('u.name as unitname');
  }

  async list(scope: UnitScope, q: WorkstationListQuery): Promise<Page<Workstation>> {
    let unitIds: number[] | null = scope.all ? null : scope.ids;
    if (q.unit_id !== undefined) {
      assertInScope(scope, q.unit_id);
      unitIds = await unitSubtree(this.db, q.unit_id);
    }
    let query = this.select();
    if (unitIds) query = query.where('w.unit_id', 'in', unitIds.length ? unitIds : [-1]);
    if (q.keyword) {
      const like = `%${q.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where((eb) =>
        eb.or([
          eb('w.name', 'like', sql<string>`${like} escape '\\'`),
          eb('w.code', 'like', sql<string>`${like} escape '\\'`),
          eb('w.ip', 'like', sql<string>`${like} escape '\\'`),
        ]),
      );
    }
    if (q.lineon === 1) query = query.where('w.last_seen', '>=', this.cutoff());
    if (q.lineon === 0)
      query = query.where((eb) => eb.or([eb('w.last_seen', 'is', null), eb('w.last_seen', '<', this.cutoff())]));
    const total = await query
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await query
      .orderBy('w.id', 'desc')
      .limit(q.limit)
      .offset((q.page - 1) * q.limit)
      .execute();
    return { total: Number(total.n), page: q.page, limit: q.limit, list: await this.present(rows) };
  }

  private async one(id: number): Promise<Workstation> {
    const row = await this.select().where('w.id', '=', id).executeTakeFirst();
    if (!row) throw workstationNotFound();
    return (await this.present([row]))[0]!;
  }

  /** A station the caller may see; another unit's answers as a missing one. */
  private async inScope(scope: UnitScope, id: number): Promise<Row> {
    const row = await this.db.selectFrom('workstations').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row || !inScope(scope, row.unit_id)) throw workstationNotFound();
    return row;
  }

  private async checkUnit(scope: UnitScope, unitId: number): Promise<void> {
    const unit = await this.db.selectFrom('units').select('id').where('id', '=', unitId).executeTakeFirst();
    if (!unit) throw Errors.notFound('unit');
    assertInScope(scope, unitId);
  }

  private async licensed(): Promise<number> {
    const status = await this.licence.status();
    return status.state === 'valid' ? status.payload.workstations : 0;
  }

  private async assertRoom(db: Db, limit: number): Promise<void> {
    const row = await db
      .selectFrom('workstations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(row.n) + 1 > limit) throw Errors.conflict('errors.workstation.licenceLimit', { limit });
  }

  private taken(code: string) {
    return () => Errors.conflict('errors.workstation.codeTaken', { code });
  }

  async add(scope: UnitScope, body: WorkstationAddRequest): Promise<{ workstation: Workstation; secret: string }> {
    await this.checkUnit(scope, body.unit_id);
    const limit = await this.licensed();
    const secret = newSecret();
    const id = await this.db.transaction().execute(async (trx) => {
      await this.assertRoom(trx, limit);
      const byCode = await trx.selectFrom('workstations').select('id').where('code', '=', body.code).executeTakeFirst();
      if (byCode) throw this.taken(body.code)();
      const ts = now();
      const row = await onUniqueViolation(
        () =>
          trx
            .insertInto('workstations')
            .values({
              ...body,
              secret_hash: sha256Hex(secret),
              token_hash: null,
              last_seen: null,
              last_ip: '',
              disk_free: null,
              docked: '[]',
              created: ts,
              updated: ts,
            })
            .returning('id')
            .executeTakeFirstOrThrow(),
        this.taken(body.code),
      );
      return row.id;
    });
    return { workstation: await this.one(id), secret };
  }

  async update(scope: UnitScope, body: WorkstationUpdateRequest): Promise<Workstation> {
    await this.inScope(scope, body.id);
    await this.checkUnit(scope, body.unit_id);
    const other = await this.db
      .selectFrom('workstations')
      .select('id')
      .where('code', '=', body.code)
      .executeTakeFirst();
    if (other && other.id !== body.id) throw this.taken(body.code)();
    const { id, ...values } = body;
    await onUniqueViolation(
      () =>
        this.db
          .updateTable('workstations')
          .set({ ...values, updated: now() })
          .where('id', '=', id)
          .execute(),
      this.taken(body.code),
    );
    return this.one(id);
  }

  async remove(scope: UnitScope, id: number): Promise<void> {
    await this.inScope(scope, id);
    await this.db.deleteFrom('workstations').where('id', '=', id).execute();
  }

  /** A new secret (shown once); the old secret and token stop working. */
  async resetSecret(scope: UnitScope, id: number): Promise<{ workstation: Workstation; secret: string }> {
    await this.inScope(scope, id);
    const secret = newSecret();
    await this.db
      .updateTable('workstations')
      .set({ secret_hash: sha256Hex(secret), token_hash: null, updated: now() })
      .where('id', '=', id)
      .execute();
    return { workstation: await this.one(id), secret };
  }

  /** Provisioning (the device provisioning key): create the station or give its code a new secret. */
  async provision(body: WorkstationProvisionRequest): Promise<{ id: number; code: string; secret: string }> {
    let unitId: number | undefined;
    if (body.unit_bh) {
      const unit = await this.db.selectFrom('units').select('id').where('bh', '=', body.unit_bh).executeTakeFirst();
      if (!unit) throw Errors.field('unit_bh', 'validation.unit.code');
      unitId = unit.id;
    } else {
      const root = await this.db
        .selectFrom('units')
        .select('id')
        .where('pid', '=', 0)
        .orderBy('sort')
        .orderBy('id')
        .executeTakeFirst();
      if (!root) throw Errors.notFound('unit');
      unitId = root.id;
    }
    const existing = await this.db
      .selectFrom('workstations')
      .select('id')
      .where('code', '=', body.code)
      .executeTakeFirst();
    if (existing) {
      const secret = newSecret();
      await this.db
        .updateTable('workstations')
        .set({ secret_hash: sha256Hex(secret), token_hash: null, updated: now() })
        .where('id', '=', existing.id)
        .execute();
      return { id: existing.id, code: body.code, secret };
    }
    const scope: UnitScope = { all: true };
    const { workstation, secret } = await this.add(scope, {
      name: body.name,
      code: body.code,
      unit_id: unitId,
      ip: '',
      remark: '',
    });
    return { id: workstation.id, code: workstation.code, secret };
  }

  // ---- workstation API ----

  async login(code: string, secret: string, ip: string): Promise<{ token: string; id: number; code: string }> {
    const row = await this.db.selectFrom('workstations').selectAll().where('code', '=', code).executeTakeFirst();
    if (!row || !sameHash(row.secret_hash, sha256Hex(secret))) throw credentialsRefused();
    const token = newToken();
    await this.db
      .updateTable('workstations')
      .set({ token_hash: sha256Hex(token), last_seen: new Date(this.clock()).toISOString(), last_ip: ip })
      .where('id', '=', row.id)
      .execute();
    return { token, id: row.id, code: row.code };
  }

  /** The calling station: `Authorization: Bearer <token of its last login>`. */
  async authenticate(req: FastifyRequest): Promise<Row> {
    const header = req.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    const row = token
      ? await this.db
          .selectFrom('workstations')
          .selectAll()
          .where('token_hash', '=', sha256Hex(token))
          .executeTakeFirst()
      : undefined;
    if (!row) throw credentialsRefused();
    return row;
  }

  /** A heartbeat: online now, the docked cameras, the free disk. Answers the hostbodies it may not upload for. */
  async heartbeat(
    station: Row,
    body: WorkstationHeartbeatRequest,
    ip: string,
  ): Promise<{ heartbeat_s: number; refused: string[] }> {
    const docked = [...new Set(body.docked)];
    await this.db
      .updateTable('workstations')
      .set({
        last_seen: new Date(this.clock()).toISOString(),
        last_ip: ip,
        docked: JSON.stringify(docked),
        ...(body.disk_free !== undefined ? { disk_free: body.disk_free } : {}),
      })
      .where('id', '=', station.id)
      .execute();
    const refused: string[] = [];
    for (const hostbody of docked) if (!(await this.camera(station, hostbody))) refused.push(hostbody);
    return { heartbeat_s: WORKSTATION_HEARTBEAT_S, refused };
  }

  /** The device `hostbody` if it belongs to the station's unit or a sub-unit. */
  async camera(station: Pick<Row, 'unit_id'>, hostbody: string): Promise<StationCamera | null> {
    const device = await this.db
      .selectFrom('devices')
      .select(['id', 'hostbody', 'unit_id', 'owner_id', 'remote_kill'])
      .where('hostbody', '=', hostbody)
      .executeTakeFirst();
    if (!device) return null;
    const units = await unitSubtree(this.db, station.unit_id);
    return units.includes(device.unit_id) ? device : null;
  }

  /**
   * The camera a station uploads for. A new upload (`docked`) needs the camera docked in the
   * station now; the later requests of an upload only need it still to be of the station's units.
   */
  async uploadCamera(station: Row, hostbody: string | undefined, docked: boolean): Promise<StationCamera> {
    if (!hostbody) throw new AppError(ResultCode.INVALID, 'errors.workstation.hostbody');
    const camera = await this.camera(station, hostbody);
    if (!camera) throw new AppError(ResultCode.FORBIDDEN, 'errors.workstation.unknownCamera', { hostbody });
    if (docked) {
      const fresh = await this.db
        .selectFrom('workstations')
        .select(['last_seen', 'docked'])
        .where('id', '=', station.id)
        .executeTakeFirstOrThrow();
      if (!this.dockedNow(fresh).includes(hostbody))
        throw new AppError(ResultCode.FORBIDDEN, 'errors.workstation.notDocked', { hostbody });
    }
    return camera;
  }
}
