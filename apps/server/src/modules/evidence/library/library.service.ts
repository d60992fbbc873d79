import { ALARM_TYPE, EVIDENCE_RECOVERY_DAYS, type MediaItem, type MediaRevision } from '@bwc/protocol';
import type { Db } from '../../../db/connection';
import type { AuthUser } from '../../../http/auth';
import { inScope, type UnitScope } from '../../../http/scope';
import type { AlarmService } from '../../alarms/alarms.service';
import { readMediaKey } from '../../media/keys';
import { appendCustody, type CustodyActor } from '../custody';
import { applySensitive } from '../sensitive/sensitive';
import type { ContentStore } from '../store';
import * as repo from './library.repository';
import type { ItemRow } from './library.repository';
import { signedUrl, type FileKind } from './signed';

export const DAY_MS = 86_400_000;

/** Reason keys of a refused item in a bulk answer (also the msg of a refused single call). */
export const REFUSAL = {
  notFound: 'errors.library.notFound',
  deleted: 'errors.library.deleted',
  notDeleted: 'errors.library.notDeleted',
  recoveryOver: 'errors.library.recoveryOver',
  recoveryOpen: 'errors.library.recoveryOpen',
  noChange: 'errors.library.noChange',
} as const;
export type Refusal = (typeof REFUSAL)[keyof typeof REFUSAL];

export const REVISABLE = ['title', 'description', 'category', 'incident_no'] as const;
export type Revisable = (typeof REVISABLE)[number];
export type Changes = Partial<Record<Revisable, string>>;

/** The custody actor of a console user's request. */
export function actorOf(user: AuthUser, ip: string): CustodyActor {
  return { user_id: user.id, actor: user.hostname || user.username, unit_id: user.unit_id, ip };
}

/** Thrown inside an item's transaction to undo it and refuse the item. */
class Refused extends Error {
  constructor(readonly reason: Refusal) {
    super(reason);
  }
}

export interface BulkAnswer {
  changed: number;
  refused: { id: number; reason: string }[];
}

/** The hook `visible` asks for an item outside the caller's scope (access/access.service.ts). */
export interface AccessGrants {
  /** true while an approved, unexpired grant gives the item to a unit of `scope` */
  allows(scope: UnitScope, mediaId: number, nowMs: number): Promise<boolean>;
}

/**
 * The library's operations. `clock` gives the time of every change and of the recovery window;
 * tests replace it to step past EVIDENCE_RECOVERY_DAYS.
 */
export class LibraryService {
  clock: () => number = () => Date.now();
  /** access grants to other units' items, set by access/ when it registers */
  grants: AccessGrants | undefined;

  constructor(
    readonly db: Db,
    readonly store: ContentStore,
    private readonly alarms: AlarmService | undefined,
  ) {}

  key(): Promise<Buffer> {
    return readMediaKey(this.db);
  }

  sign(key: Buffer, kind: FileKind, id: number, uid: number) {
    return signedUrl(key, kind, id, uid, this.clock());
  }

  /**
   * An item in the caller's scope and not purged, else undefined (missing and foreign look the same).
   * An item of another unit is visible too while `grants` (access/) allows it to a unit of the scope
   * (an approved, unexpired access request; never a deleted item). Every read of one item goes through
   * here (view, play and file addresses, download, GPS, custody); lists and changes do not.
   */
  async visible(scope: UnitScope, id: number, withPurged = false): Promise<ItemRow | undefined> {
    const row = await repo.findItem(this.db, id);
    if (!row || (!withPurged && row.purged_at !== null)) return undefined;
    if (inScope(scope, row.unit_id)) return row;
    if (row.deleted_at === null && row.purged_at === null && (await this.grants?.allows(scope, id, this.clock())))
      return row;
    return undefined;
  }

  present(row: ItemRow, key: Buffer, uid: number): MediaItem {
    return {
      id: row.id,
      media_type: row.media_type as 1 | 2 | 3,
      title: row.title,
      description: row.description,
      category: row.category,
      incident_no: row.incident_no,
      file_name: row.file_name,
      ext: row.ext,
      mime: row.mime,
      size: Number(row.size),
      sha256: row.sha256,
      duration: row.duration === null ? null : Number(row.duration),
      width: row.width,
      height: row.height,
      video_codec: row.video_codec,
      audio_codec: row.audio_codec,
      recorded_at: row.recorded_at,
      uploaded_at: row.uploaded_at,
      source: row.source as MediaItem['source'],
      outside: row.outside,
      device_id: row.device_id,
      hostbody: row.hostbody,
      hostname: row.device_name ?? '',
      user_id: row.user_id,
      user_name: row.user_name ?? '',
      unit_id: row.unit_id,
      unit_name: row.unit_name ?? '',
      flg: row.flg,
      flg_note: row.flg_note,
      score: row.score === null ? null : Number(row.score),
      sensitive: row.sensitive,
      linked: row.linked,
      alarm_id: row.alarm_id,
      playable: row.playable as MediaItem['playable'],
      deleted_at: row.deleted_at,
      delete_reason: row.delete_reason,
      deleted_by_name: row.deleted_by_name ?? '',
      thumb_url: row.thumb_sha256 ? this.sign(key, 'thumb', row.id, uid).url : '',
    };
  }

  static revision(r: Awaited<ReturnType<typeof repo.revisionsOf>>[number]): MediaRevision {
    return {
      id: r.id,
      media_id: r.media_id,
      user_id: r.user_id,
      user_name: r.user_name ?? '',
      at: r.at,
      reason: r.reason,
      changes: JSON.parse(r.changes) as MediaRevision['changes'],
    };
  }

  /**
   * Run `change` on each item in a transaction of its own (the change, its revision row and its
   * custody entry commit together or not at all). Items outside the scope are refused as not found.
   */
  async bulk(
    scope: UnitScope,
    ids: readonly number[],
    change: (trx: Db, row: ItemRow, nowIso: string) => Promise<void>,
  ): Promise<BulkAnswer> {
    const answer: BulkAnswer = { changed: 0, refused: [] };
    for (const id of new Set(ids)) {
      try {
        await this.db.transaction().execute(async (trx) => {
          const row = await repo.findItem(trx, id);
          if (!row || !inScope(scope, row.unit_id) || row.purged_at !== null) throw new Refused(REFUSAL.notFound);
          await change(trx, row, new Date(this.clock()).toISOString());
        });
        answer.changed += 1;
      } catch (err) {
        if (!(err instanceof Refused)) throw err;
        answer.refused.push({ id, reason: err.reason });
      }
    }
    return answer;
  }

  flag(scope: UnitScope, who: CustodyActor, ids: readonly number[], flg: number, note?: string) {
    return this.bulk(scope, ids, async (trx, row, at) => {
      if (row.deleted_at !== null) throw new Refused(REFUSAL.deleted);
      const flg_note = note ?? (flg === 1 ? row.flg_note : '');
      await repo.updateItem(trx, row.id, { flg, flg_note });
      await appendCustody(trx, row.id, 'marked', who, { flg, flg_note }, new Date(at));
    });
  }

  /** Metadata revision: only fields whose value changes, a revision row with before/after. */
  revise(scope: UnitScope, who: CustodyActor, ids: readonly number[], values: Changes, reason: string) {
    return this.bulk(scope, ids, async (trx, row, at) => {
      if (row.deleted_at !== null) throw new Refused(REFUSAL.deleted);
      const changes = REVISABLE.filter((f) => values[f] !== undefined && values[f] !== row[f]).map((field) => ({
        field,
        before: row[field],
        after: values[field]!,
      }));
      if (!changes.length) throw new Refused(REFUSAL.noChange);
      await repo.updateItem(trx, row.id, Object.fromEntries(changes.map((c) => [c.field, c.after])));
      await applySensitive(trx, row.id);
      await repo.insertRevision(trx, {
        media_id: row.id,
        kind: 'revise',
        user_id: who.user_id,
        unit_id: who.unit_id,
        at,
        reason,
        changes,
        media_title: values.title ?? row.title,
      });
      await appendCustody(trx, row.id, 'revised', who, { reason, changes }, new Date(at));
    });
  }

  softDelete(scope: UnitScope, who: CustodyActor, ids: readonly number[], reason: string) {
    return this.bulk(scope, ids, async (trx, row, at) => {
      if (row.deleted_at !== null) throw new Refused(REFUSAL.deleted);
      await repo.updateItem(trx, row.id, { deleted_at: at, deleted_by: who.user_id, delete_reason: reason });
      await repo.insertRevision(trx, {
        media_id: row.id,
        kind: 'delete',
        user_id: who.user_id,
        unit_id: who.unit_id,
        at,
        reason,
        changes: [],
        media_title: row.title,
      });
      await appendCustody(trx, row.id, 'deleted', who, { reason }, new Date(at));
    });
  }

  /** Whether the recovery window of a soft delete at `deletedAt` is still open now. */
  recoverable(deletedAt: string): boolean {
    return this.clock() - Date.parse(deletedAt) < EVIDENCE_RECOVERY_DAYS * DAY_MS;
  }

  revert(scope: UnitScope, who: CustodyActor, ids: readonly number[]) {
    return this.bulk(scope, ids, async (trx, row, at) => {
      if (row.deleted_at === null) throw new Refused(REFUSAL.notDeleted);
      if (!this.recoverable(row.deleted_at)) throw new Refused(REFUSAL.recoveryOver);
      await repo.updateItem(trx, row.id, { deleted_at: null, deleted_by: null, delete_reason: '' });
      await repo.insertRevision(trx, {
        media_id: row.id,
        kind: 'revert',
        user_id: who.user_id,
        unit_id: who.unit_id,
        at,
        reason: row.delete_reason,
        changes: [],
        media_title: row.title,
      });
      await appendCustody(trx, row.id, 'restored', who, { deleted_at: row.deleted_at }, new Date(at));
    });
  }

  /**
   * Permanent removal once the recovery window has passed: the row stays as a tombstone with
   * `purged_at` (its custody chain survives); the bytes go once no other item names them.
   */
  async hardDelete(scope: UnitScope, who: CustodyActor, ids: readonly number[]): Promise<BulkAnswer> {
    const purged: ItemRow[] = [];
    const answer = await this.bulk(scope, ids, async (trx, row, at) => {
      if (row.deleted_at === null) throw new Refused(REFUSAL.notDeleted);
      if (this.recoverable(row.deleted_at)) throw new Refused(REFUSAL.recoveryOpen);
      await repo.updateItem(trx, row.id, { purged_at: at });
      await repo.insertRevision(trx, {
        media_id: row.id,
        kind: 'harddel',
        user_id: who.user_id,
        unit_id: who.unit_id,
        at,
        reason: row.delete_reason,
        changes: [],
        media_title: row.title,
      });
      await appendCustody(trx, row.id, 'purged', who, { sha256: row.sha256 }, new Date(at));
      purged.push(row);
    });
    // after the commits: a failure here leaves bytes behind, never a live item without them
    for (const row of purged) {
      for (const sha of [row.sha256, row.thumb_sha256, row.derivative_sha256]) {
        if (sha && !(await repo.contentInUse(this.db, sha, row.id))) await this.store.remove(sha);
      }
    }
    return answer;
  }

  /**
   * An original that no longer matches its hash: custody 'tamper' and an alarm (type
   * EVIDENCE_TAMPER, once per item and observed hash) for the item's unit.
   */
  async tampered(row: ItemRow, who: CustodyActor, actual: string): Promise<void> {
    await this.db
      .transaction()
      .execute((trx) =>
        appendCustody(trx, row.id, 'tamper', who, { expected: row.sha256, actual }, new Date(this.clock())),
      );
    await this.alarms?.ingest({
      eid: `evidence-tamper:${row.id}:${actual.slice(0, 16)}`,
      type: ALARM_TYPE.EVIDENCE_TAMPER,
      device_id: row.device_id,
      unit_id: row.unit_id,
      hostname: row.device_name ?? row.user_name ?? '',
      hostcode: '',
      hostbody: row.hostbody,
      alarm_time: new Date(this.clock()).toISOString(),
      lat: null,
      lng: null,
      message: `#${row.id} ${row.file_name} sha256 ${row.sha256} != ${actual}`,
    });
  }
}
