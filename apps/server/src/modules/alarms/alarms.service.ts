import {
  ALARM_TYPE,
  DEFAULT_ALARM_TYPE_LEVELS,
  MAP_SOS_WINDOW_MS,
  MenuId,
  translate,
  type Alarm,
  type AlarmLevel,
  type AlarmPicture,
  type Language,
} from '@bwc/protocol';
import type { DeviceRef, EventBus } from '../../bus';
import { now, type Db } from '../../db/connection';
import { readSettings } from '../../db/settings';
import { isUniqueViolation } from '../../db/unique';
import type { AuthUser } from '../../http/auth';
import { roleCan } from '../auth/permission.repository';
import type { SosEvent } from '../devices/sos-ingest';
import type { FenceCrossedEvent } from '../fences/fence-engine';
import * as repo from './alarms.repository';
import type { NewAlarm } from './alarms.repository';
import type { AlarmRow } from './alarms.tables';

declare module '../../bus' {
  interface DomainEvents {
    /** an alarm was committed (first ingest of its source event only); the push channel sends it */
    'alarm.created': { alarm: AlarmRow };
    /**
     * alarms were acknowledged (console, or an emergency handled over the console service); the
     * console service tells the terminals whose SOS it was and the consoles that see them
     */
    'alarm.acknowledged': {
      alarms: repo.AckedAlarm[];
      /** the console user (null: the service's own console account or a terminal) */
      user_id: number | null;
      processor: string;
      ack_type: number;
      time: string;
      /** the console-service uid that acknowledged, when it came over the service */
      handler?: number;
    };
  }
}

export interface IngestInput {
  eid: string;
  type: string;
  device_id: number | null;
  unit_id: number;
  hostname: string;
  hostcode: string;
  hostbody: string;
  alarm_time: string;
  lat: number | null;
  lng: number | null;
  message?: string;
  fence_name?: string;
  fence_direction?: string;
  picture?: Omit<AlarmPicture, 'id' | 'eid' | 'type'> | null;
}

export type TypeNames = Map<string, { label: string; label_en: string }>;

/** Alarm type names from the data dictionary (cached briefly: pushes present many alarms). */
export class TypeNameCache {
  private names: TypeNames | null = null;
  private loaded = 0;
  constructor(private readonly db: Db) {}
  async get(): Promise<TypeNames> {
    if (this.names && Date.now() - this.loaded < 5_000) return this.names;
    const rows = await repo.alarmTypeNames(this.db);
    this.names = new Map(rows.map((r) => [r.key, { label: r.label, label_en: r.label_en }]));
    this.loaded = Date.now();
    return this.names;
  }
}

function typeLabel(names: TypeNames, type: string, lang: Language): string {
  const n = names.get(type);
  if (!n) return type;
  return lang === 'en-US' ? n.label_en || n.label : n.label;
}

function pictureOf(row: AlarmRow): AlarmPicture | null {
  if (!row.picture) return null;
  const p = JSON.parse(row.picture) as Omit<AlarmPicture, 'id' | 'eid' | 'type'>;
  return { ...p, id: Number(row.id), eid: row.eid, type: row.type };
}

/** The wire alarm (derived display fields in `lang`). */
export function presentAlarm(
  row: AlarmRow & { unitname: string; has_read: number },
  names: TypeNames,
  lang: Language,
  index: number,
): Alarm {
  const isFence = row.type === ALARM_TYPE.FENCE;
  const boutefence = isFence
    ? `${row.fence_name} (${row.fence_direction ? translate(lang, `export.alarm.${row.fence_direction}`) : ''})`
    : '';
  const read = row.has_read === 1 ? 1 : 0;
  return {
    id: Number(row.id),
    eid: row.eid,
    type: row.type,
    alerm_level: row.alerm_level as AlarmLevel,
    hostname: row.hostname,
    hostcode: row.hostcode,
    hostbody: row.hostbody,
    gbbm: row.hostbody,
    unitname: row.unitname,
    unit_id: Number(row.unit_id),
    device_id: row.device_id === null ? null : Number(row.device_id),
    alarm_time: row.alarm_time,
    status: read ? '1' : '0',
    insert_time: row.insert_time,
    boutefence,
    fence_direction: row.fence_direction,
    lat: row.lat === null ? null : Number(row.lat),
    lng: row.lng === null ? null : Number(row.lng),
    message: row.message,
    hasRead: read,
    sure: Number(row.sure) === 1 ? 1 : 0,
    sure_user: row.sure_user,
    sure_note: row.sure_note,
    sure_time: row.sure_time,
    sure_type: row.sure_type === null ? null : Number(row.sure_type),
    index: String(index).padStart(2, '0'),
    hostNameCode: row.hostcode ? `${row.hostname}(${row.hostcode})` : row.hostname,
    typeName_cur: isFence && row.fence_name ? boutefence : typeLabel(names, row.type, lang),
    dname: row.unitname,
    picture: pictureOf(row),
  };
}

/**
 * Devices in the SOS state on the dispatch map for `user`: an SOS alarm not acknowledged and raised
 * within MAP_SOS_WINDOW_MS. None for a user without view on the dispatch alarms (10104), who may
 * not read the alarm history that state comes from.
 */
export async function sosStateOf(db: Db, user: AuthUser): Promise<ReadonlySet<number>> {
  if (!(await roleCan(db, user.role_id, MenuId.DISPATCH_ALARM, 'view'))) return new Set();
  return new Set(await repo.activeSosDevices(db, new Date(Date.now() - MAP_SOS_WINDOW_MS).toISOString()));
}

/** rows per multi-row alarm INSERT (20 columns: well under either database's parameter limit) */
const INSERT_CHUNK = 500;

/** The alarm of an SOS device event. */
function sosInput(
  e: DeviceRef & { event_id: number; time: string; lat: number | null; lng: number | null; message: string },
  hostcode: string,
): IngestInput {
  return {
    eid: `sos:${e.event_id}`,
    type: ALARM_TYPE.SOS,
    device_id: e.device_id,
    unit_id: e.unit_id,
    hostname: e.hostname,
    hostcode,
    hostbody: e.hostbody,
    alarm_time: e.time,
    lat: e.lat,
    lng: e.lng,
    message: e.message,
  };
}

/** The row stored for an ingest (severity fixed now). */
function newAlarm(input: IngestInput, level: AlarmLevel): NewAlarm {
  return {
    eid: input.eid,
    type: input.type,
    alerm_level: level,
    device_id: input.device_id,
    unit_id: input.unit_id,
    hostname: input.hostname,
    hostcode: input.hostcode,
    hostbody: input.hostbody,
    alarm_time: input.alarm_time,
    insert_time: now(),
    lat: input.lat,
    lng: input.lng,
    message: (input.message ?? '').slice(0, 500),
    fence_name: input.fence_name ?? '',
    fence_direction: input.fence_direction ?? '',
    picture: input.picture ? JSON.stringify(input.picture) : '',
    sure: 0,
    sure_user_id: null,
    sure_user: '',
    sure_note: '',
    sure_time: '',
    sure_type: null,
  };
}

/**
 * Alarm ingest: one row per source event (eid unique). The row is committed before the
 * `alarm.created` domain event goes out (the push channel listens), and only the first ingest of
 * an eid emits it: a retry answers the stored alarm and pushes nothing.
 */
export class AlarmService {
  readonly typeNames: TypeNameCache;
  private readonly unitNames = new Map<number, string>();
  /** alarms ingested since start (bench, diagnostics) */
  readonly stats = { created: 0, duplicates: 0 };

  private readonly db: Db;
  /** emits `alarm.created` after each first ingest */
  private readonly bus: EventBus;

  constructor({ db, bus }: { db: Db; bus: EventBus }) {
    this.db = db;
    this.bus = bus;
    this.typeNames = new TypeNameCache(db);
  }

  private levels: { at: number; map: Record<string, AlarmLevel> } | null = null;

  /** Severity of a type (alarmset.type_levels, re-read at most every 2 s; `db`: a transaction's handle). */
  async levelOf(type: string, db: Db = this.db): Promise<AlarmLevel> {
    if (!this.levels || Date.now() - this.levels.at > 2_000) {
      const { type_levels } = await readSettings(db, 'alarmset');
      this.levels = { at: Date.now(), map: type_levels as Record<string, AlarmLevel> };
    }
    return this.levels.map[type] ?? DEFAULT_ALARM_TYPE_LEVELS[type] ?? 'normal';
  }

  private readonly hostcodes = new Map<number, string>();

  /** A device's hostcode (the bus events carry the rest), cached for 30 s. */
  private async hostcodeOf(deviceId: number, db: Db = this.db): Promise<string> {
    let code = this.hostcodes.get(deviceId);
    if (code === undefined) {
      const d = await this.deviceFields(deviceId, db);
      code = d?.hostcode ?? '';
      this.hostcodes.set(deviceId, code);
      setTimeout(() => this.hostcodes.delete(deviceId), 30_000).unref();
    }
    return code;
  }

  async unitNameOf(unitId: number): Promise<string> {
    let name = this.unitNames.get(unitId);
    if (name === undefined) {
      name = await repo.unitName(this.db, unitId);
      this.unitNames.set(unitId, name);
      setTimeout(() => this.unitNames.delete(unitId), 30_000).unref();
    }
    return name;
  }

  /**
   * `fresh`: the source event was just stored (bus sources), so skip the look-up and let the
   * unique index catch a repeat; otherwise look the eid up first.
   */
  async ingest(input: IngestInput, fresh = false): Promise<{ alarm: AlarmRow; created: boolean }> {
    if (!fresh) {
      const existing = await repo.findAlarmByEid(this.db, input.eid);
      if (existing) {
        this.stats.duplicates += 1;
        return { alarm: existing, created: false };
      }
    }
    let alarm: AlarmRow;
    try {
      alarm = await repo.insertAlarm(this.db, newAlarm(input, await this.levelOf(input.type)));
    } catch (err) {
      // a concurrent ingest of the same source event won the insert
      if (!isUniqueViolation(err)) throw err;
      const won = await repo.findAlarmByEid(this.db, input.eid);
      if (!won) throw err;
      this.stats.duplicates += 1;
      return { alarm: won, created: false };
    }
    this.stats.created += 1;
    // committed (single statement, autocommit): now it may be pushed
    this.bus.emit('alarm.created', { alarm });
    return { alarm, created: true };
  }

  private async deviceFields(deviceId: number, db: Db = this.db) {
    return repo.alarmDeviceFields(db, deviceId);
  }

  /**
   * What the alarms module adds to each SOS transaction of the device runtime (`sosTransaction`):
   * one alarm per SOS device event, written inside the SOS group commit's transaction (`trx`) with one multi-row insert, so the
   * SOS answer goes out only once its alarm is committed. eid `sos:<event id>`; a repeat is
   * skipped by the unique index (ON CONFLICT DO NOTHING). The answered function announces the
   * created alarms (`alarm.created`, in event order) and runs after the commit.
   */
  async sosAlarms(trx: Db, events: SosEvent[]): Promise<() => void> {
    const rows: NewAlarm[] = [];
    for (const e of events) {
      const input = sosInput(e, await this.hostcodeOf(e.device_id, trx));
      rows.push(newAlarm(input, await this.levelOf(input.type, trx)));
    }
    const byEid = new Map<string, AlarmRow>();
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      for (const a of await repo.insertAlarmsIfNew(trx, rows.slice(i, i + INSERT_CHUNK), this.db)) byEid.set(a.eid, a);
    }
    return () => {
      for (const r of rows) {
        const alarm = byEid.get(r.eid);
        if (!alarm) {
          this.stats.duplicates += 1;
          continue;
        }
        this.stats.created += 1;
        this.bus.emit('alarm.created', { alarm });
      }
    };
  }

  async fromFence(e: FenceCrossedEvent) {
    return this.ingest(
      {
        eid: `fence:${e.event_id}`,
        type: ALARM_TYPE.FENCE,
        device_id: e.device.device_id,
        unit_id: e.device.unit_id,
        hostname: e.device.hostname,
        hostcode: e.device.hostcode,
        hostbody: e.device.hostbody,
        alarm_time: e.time,
        lat: e.position.lat,
        lng: e.position.lng,
        fence_name: e.fence.name,
        fence_direction: e.direction,
      },
      true,
    );
  }

  async fromOffline(e: DeviceRef & { time: string; reason: string }) {
    const d = await repo.deviceCodeAndPlace(this.db, e.device_id);
    return this.ingest({
      eid: `offline:${e.device_id}:${e.time}`,
      type: ALARM_TYPE.OFFLINE,
      device_id: e.device_id,
      unit_id: e.unit_id,
      hostname: e.hostname,
      hostcode: d?.hostcode ?? '',
      hostbody: e.hostbody,
      alarm_time: e.time,
      lat: d?.lat ?? null,
      lng: d?.lng ?? null,
      message: e.reason,
    });
  }

  /**
   * Source events committed before a crash whose alarm was not yet written (the SOS answer had
   * gone out): raise them now. Idempotent (eid), so running it twice is harmless.
   */
  async recover(): Promise<number> {
    let raised = 0;
    for (;;) {
      const { sos, fences } = await repo.orphanSources(this.db, 500);
      if (!sos.length && !fences.length) return raised;
      for (const e of sos) {
        const d = await this.deviceFields(e.device_id);
        if (!d) continue;
        let message = '';
        try {
          message = String((JSON.parse(e.payload) as { message?: unknown }).message ?? '');
        } catch {
          message = '';
        }
        const r = await this.ingest({
          eid: `sos:${e.id}`,
          type: ALARM_TYPE.SOS,
          device_id: d.id,
          unit_id: d.unit_id,
          hostname: d.hostname,
          hostcode: d.hostcode,
          hostbody: d.hostbody,
          alarm_time: e.time,
          lat: e.lat,
          lng: e.lng,
          message,
        });
        if (r.created) raised += 1;
      }
      for (const e of fences) {
        const d = await this.deviceFields(e.device_id);
        if (!d) continue;
        const r = await this.ingest({
          eid: `fence:${e.id}`,
          type: ALARM_TYPE.FENCE,
          device_id: d.id,
          unit_id: d.unit_id,
          hostname: d.hostname,
          hostcode: d.hostcode,
          hostbody: d.hostbody,
          alarm_time: e.time,
          lat: e.lat,
          lng: e.lng,
          fence_name: e.fence_name,
          fence_direction: e.direction,
        });
        if (r.created) raised += 1;
      }
      if (sos.length < 500 && fences.length < 500) return raised;
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** alarm ingest (modules/alarms) */
    alarms: AlarmService;
  }
}
