import type { DomainEvents, EventBus } from '../../bus';
import { now, type Db } from '../../db/connection';
import { GroupCommit } from '../../db/group-commit';
import { refOf, type CachedDevice } from './device-cache';
import * as repo from './devices.repository';
import { deviceGone, toIsoTime, type IngestStats } from './position-ingest';
import type { DevicePresence } from './presence';

/** A committed SOS as the bus carries it (`device.sos`). */
export type SosEvent = DomainEvents['device.sos'];

/**
 * Writes of another module that belong in the same transaction as the SOS device events of a
 * group commit (the alarms module: one alarm per SOS). Runs inside the transaction with its
 * handle (`trx`: no other query of this process may be awaited meanwhile on SQLite's single
 * connection); answers what to do once it is committed.
 */
export type SosSink = (trx: Db, events: SosEvent[]) => Promise<() => void>;

/** One SOS waiting for its group commit. */
interface SosJob {
  device: CachedDevice;
  time: string;
  lat: number | null;
  lng: number | null;
  message: string;
  resolve: (eventId: number) => void;
  reject: (err: unknown) => void;
}

export interface SosIngestDeps {
  db: Db;
  bus: EventBus;
  presence: DevicePresence;
  stats: IngestStats;
  /** the writes that share each SOS transaction */
  sink: () => SosSink;
}

/**
 * SOS from devices: a device event and, in the same transaction, what the sink adds (the alarm);
 * then the domain event `device.sos`. Group commit: every SOS received in the same event-loop
 * turn (and those arriving while a commit runs) is written in ONE transaction; each request is
 * answered (its event id) only after that commit.
 */
export class SosIngest {
  private readonly groupCommit = new GroupCommit<SosJob>({ write: (jobs) => this.commit(jobs), failure: deviceGone });

  constructor(private readonly deps: SosIngestDeps) {}

  /** lat/lng: given, else the last known position. Resolves with the SOS's device event id. */
  async sos(
    device: CachedDevice,
    input: { time?: string | number; lat?: number; lng?: number; message?: string },
  ): Promise<number> {
    const time = (input.time !== undefined ? toIsoTime(input.time) : null) ?? now();
    const eventId = await new Promise<number>((resolve, reject) => {
      this.groupCommit.add({
        device,
        time,
        lat: input.lat ?? null,
        lng: input.lng ?? null,
        message: input.message ?? '',
        resolve,
        reject,
      });
    });
    await this.deps.presence.touch(device);
    return eventId;
  }

  /** Resolves when everything queued so far is written. */
  drain(): Promise<void> {
    return this.groupCommit.drain();
  }

  /**
   * One transaction for the SOS jobs (and the sink's rows); answers what answers the jobs and
   * emits once it is committed (the group commit retries jobs alone when it fails).
   */
  private async commit(jobs: SosJob[]): Promise<() => void> {
    const { db, bus, stats } = this.deps;
    const sink = this.deps.sink();
    let events: SosEvent[] = [];
    let after: () => void = () => {};
    await db.transaction().execute(async (trx) => {
      const need = [...new Set(jobs.filter((j) => j.lat === null || j.lng === null).map((j) => j.device.id))];
      const last = await repo.lastKnownPositions(trx, need);
      const created = now();
      const rows = jobs.map((j) => {
        const known = last.get(j.device.id);
        return {
          device_id: j.device.id,
          unit_id: j.device.unit_id,
          time: j.time,
          lat: j.lat ?? known?.lat ?? null,
          lng: j.lng ?? known?.lng ?? null,
          payload: JSON.stringify({ message: j.message }),
          created,
        };
      });
      const ids = await repo.insertSosEvents(trx, rows, db);
      events = rows.map((r, k) => {
        const j = jobs[k]!;
        return { ...refOf(j.device), event_id: ids[k]!, time: r.time, lat: r.lat, lng: r.lng, message: j.message };
      });
      after = await sink(trx, events);
    });
    return () => {
      stats.sos += jobs.length;
      stats.sosCommits += 1;
      jobs.forEach((j, i) => j.resolve(events[i]!.event_id));
      try {
        after();
      } finally {
        for (const e of events) bus.emit('device.sos', e);
      }
    };
  }
}
