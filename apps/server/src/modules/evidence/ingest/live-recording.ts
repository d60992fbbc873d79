import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { findDevice } from '../../devices/devices.repository';
import type { EvidenceContext } from '../evidence.module';
import type { DerivativeQueue } from './derivatives';
import { examineFile, sha256File, storeFile, type Uploader } from './finish';
import { remuxToMp4 } from './media-tools';

/** A recording the live gateway wrote (modules/media/sos-recorder.ts, continuous-recorder.ts). */
export interface GatewayRecording {
  deviceId: number;
  /** the FLV file */
  video: string;
  /** when the recording started (the item's recorded_at) */
  at: Date;
  /** the SOS device event that made it, when it was an SOS */
  sosEventId?: number;
}

const stamp = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace('T', '').slice(0, 14);

/**
 * Ingest of what the live gateway recorded (issue 15 section 1d): an SOS's video, or a segment of
 * a live stream when cloudstorage.record_live is on. The FLV is remuxed into an MP4 (same
 * H.264/AAC streams, nothing re-encoded) in the ingest folder, checked and stored like an upload
 * (storeFile), source 'live', owned by the device's unit and officer, named after the device and
 * the time, and, for an SOS, linked to its alarm (alarm eid `sos:<event id>`). The gateway's own
 * FLV stays where it was written (getvideo_path of the map config, record_path of cloudstorage).
 */
export class LiveRecordings {
  constructor(
    private readonly deps: {
      app: FastifyInstance;
      ctx: EvidenceContext;
      derivatives: DerivativeQueue;
      scratch: string;
    },
  ) {}

  /** Store one recording; answers the item id, or null when there was nothing to store. */
  async ingest(rec: GatewayRecording): Promise<number | null> {
    const { app } = this.deps;
    const device = await findDevice(app.db, rec.deviceId);
    if (!device) return null;
    const name = `${device.hostbody}_${rec.sosEventId !== undefined ? 'SOS_' : ''}${stamp(rec.at)}.mp4`;
    const mp4 = join(this.deps.scratch, `live-${rec.deviceId}-${rec.at.getTime()}.mp4`);
    try {
      await mkdir(this.deps.scratch, { recursive: true });
      await remuxToMp4(rec.video, mp4);
      const examined = await examineFile(app, mp4, 'mp4', rec.video);
      if (!examined) {
        app.log.warn(
          { device: rec.deviceId, video: rec.video },
          'evidence: a gateway recording is not a playable video',
        );
        return null;
      }
      const alarm =
        rec.sosEventId === undefined
          ? undefined
          : await app.db
              .selectFrom('alarms')
              .select('id')
              .where('eid', '=', `sos:${rec.sosEventId}`)
              .executeTakeFirst();
      const who: Uploader = {
        kind: 'device',
        ownerId: device.id,
        unitId: device.unit_id,
        userId: device.owner_id,
        uploadedBy: null,
        deviceId: device.id,
        hostbody: device.hostbody,
        source: 'live',
        may: { law: true, outside: false },
        actor: { user_id: null, actor: 'gateway', unit_id: device.unit_id, ip: '' },
      };
      const originKey =
        rec.sosEventId !== undefined ? `${device.id}:sos-${rec.sosEventId}` : `${device.id}:live-${rec.at.getTime()}`;
      const existing = await app.db
        .selectFrom('evidence_items')
        .select('id')
        .where('origin_key', '=', originKey)
        .executeTakeFirst();
      if (existing) return existing.id;
      return await storeFile(this.deps, who, {
        file: mp4,
        scratch: this.deps.scratch,
        name,
        sha256: await sha256File(mp4),
        examined,
        meta: { recorded_at: rec.at.toISOString() },
        originKey,
        alarmId: alarm?.id ?? null,
        detail: { source: 'live', alarm: alarm?.id ?? null, sos_event: rec.sosEventId ?? null },
      });
    } finally {
      await rm(mp4, { force: true });
    }
  }
}
