import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  EVIDENCE_CLASSES,
  EVIDENCE_TITLE_MAX,
  ResultCode,
  UploadMetadata,
  type EvidenceClass,
  type Language,
} from '@bwc/protocol';
import type { FastifyInstance } from 'fastify';
import type { Transaction } from 'kysely';
import type { Database } from '../../../db/types';
import { now } from '../../../db/connection';
import { AppError } from '../../../http/errors';
import { appendCustody, type CustodyActor } from '../custody';
import { applySensitive } from '../sensitive/sensitive';
import type { EvidenceContext } from '../evidence.module';
import type { DerivativeQueue } from './derivatives';
import { EVIDENCE_ITEM_HEADER, refusal } from './refusal';
import { probe, thumbnail, type ProbeResult } from './media-tools';
import { classOfExt, contentFitsClass, extOf, MIME_BY_EXT } from './sniff';
import type { EvidenceUploadStore } from './upload-store';

/** Who sends an upload: a console user, a camera, or a docking workstation for a docked camera. */
export interface Uploader {
  kind: 'user' | 'device' | 'workstation';
  /** evidence_uploads.owner_id: the user's, the device's or the workstation's id */
  ownerId: number;
  unitId: number;
  /** the officer: the device's owner, or the uploading user */
  userId: number | null;
  uploadedBy: number | null;
  deviceId: number | null;
  hostbody: string;
  source: 'console' | 'device' | 'workstation' | 'live';
  /** the station that sent a camera's file */
  workstationId?: number;
  /** 'add' on law-enforcement media / outside media */
  may: { law: boolean; outside: boolean };
  actor: CustodyActor;
}

export interface FinishDeps {
  app: FastifyInstance;
  ctx: EvidenceContext;
  store: EvidenceUploadStore;
  derivatives: DerivativeQueue;
  lang: Language;
}

/** Originals the browser plays as they are (Chrome: H.264 in MP4; MP3, AAC and PCM WAV). */
function playableAsIs(ext: string, info: ProbeResult): boolean {
  if (ext === 'mp4') return info.video_codec === 'h264' && ['', 'aac', 'mp3'].includes(info.audio_codec);
  return ['mp3', 'aac', 'wav'].includes(ext);
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The last byte arrived: check the content against the extension's class (first bytes, then
 * the streams ffprobe finds), read its metadata, make the thumbnail, take the original into the
 * content store and write the item with its first custody entry in one transaction. Answers
 * the item id; a refused file is removed and its upload marked failed. Runs once per upload: the
 * upload row moves from open to done in the same transaction as the item's insert.
 */
/** A file's class, checked against its content, with what ffprobe read of it. */
export interface Examined {
  ext: string;
  cls: EvidenceClass;
  info: ProbeResult;
  size: number;
}

/**
 * Check a file on disk against its extension's class: the first bytes, then the streams ffprobe
 * finds (an .mp4 holding only audio is not a video). Null when it is not what its name says.
 */
export async function examineFile(
  app: FastifyInstance,
  file: string,
  ext: string,
  label: string,
): Promise<Examined | null> {
  const cls = classOfExt(ext);
  if (!cls || !(await contentFitsClass(file, cls))) return null;
  let info: ProbeResult;
  try {
    info = await probe(file);
  } catch (err) {
    app.log.warn({ err, file: label }, 'evidence: ffprobe cannot read the file');
    return null;
  }
  const fits =
    cls === 'video' ? info.video_codec !== '' : cls === 'audio' ? info.audio_codec !== '' : info.width !== null;
  if (!fits) return null;
  return { ext, cls, info, size: (await stat(file)).size };
}

/** What is stored with an examined file. */
export interface StoreInput {
  /** the file, moved into the content store */
  file: string;
  /** folder for the thumbnail while it is made */
  scratch: string;
  /** its name as the item shows it */
  name: string;
  sha256: string;
  examined: Examined;
  meta: Pick<UploadMetadata, 'title' | 'description' | 'category' | 'outside' | 'recorded_at'>;
  originKey: string | null;
  /** the alarm whose recording this is (live recordings of an SOS) */
  alarmId?: number | null;
  /** detail of the 'uploaded' custody entry */
  detail: Record<string, unknown>;
}

/**
 * Store an examined file as an evidence item: thumbnail, the original into the content store, the
 * row with its sensitive flag and its 'uploaded' custody entry in one transaction (`inTrx` adds the
 * caller's own writes to it), the derivative queued when the browser cannot play the original.
 */
export async function storeFile(
  deps: Pick<FinishDeps, 'app' | 'ctx' | 'derivatives'>,
  who: Uploader,
  input: StoreInput,
  inTrx?: (trx: Transaction<Database>, itemId: number) => Promise<void>,
): Promise<number> {
  const { app, ctx, derivatives } = deps;
  const { ext, cls, info, size } = input.examined;
  const { meta, sha256 } = input;
  let thumbSha: string | null = null;
  if (cls !== 'audio') {
    const thumb = join(input.scratch, `${sha256}-${randomBytes(4).toString('hex')}.thumb.jpg`);
    if (await thumbnail(input.file, thumb, cls === 'video' ? info.duration : null)) {
      thumbSha = await sha256File(thumb);
      await ctx.store.adopt(thumb, thumbSha);
    } else {
      await rm(thumb, { force: true });
      app.log.warn({ file: input.name }, 'evidence: no thumbnail');
    }
  }
  const playable = cls === 'image' ? 'none' : playableAsIs(ext, info) ? 'ready' : 'pending';
  await ctx.store.adopt(input.file, sha256);

  const at = new Date();
  const uploadedAt = at.toISOString();
  const name = input.name.replace(/^.*[\\/]/, '');
  const title = (meta.title || name.replace(/\.[^.]*$/, '') || name).slice(0, EVIDENCE_TITLE_MAX);
  const itemId = await app.db.transaction().execute(async (trx) => {
    const item = await trx
      .insertInto('evidence_items')
      .values({
        sha256,
        size,
        media_type: EVIDENCE_CLASSES[cls].mediaType,
        mime: MIME_BY_EXT[ext] ?? 'application/octet-stream',
        ext,
        file_name: name.slice(0, 200),
        title,
        description: meta.description ?? '',
        category: meta.category ?? '',
        incident_no: '',
        source: who.source,
        outside: meta.outside === '1' ? 1 : 0,
        device_id: who.deviceId,
        hostbody: who.hostbody,
        workstation_id: who.workstationId ?? null,
        user_id: who.userId,
        uploaded_by: who.uploadedBy,
        unit_id: who.unitId,
        recorded_at: meta.recorded_at ?? info.creation_time ?? uploadedAt,
        uploaded_at: uploadedAt,
        duration: cls === 'image' ? null : info.duration,
        width: info.width,
        height: info.height,
        video_codec: cls === 'image' ? '' : info.video_codec,
        audio_codec: info.audio_codec,
        thumb_sha256: thumbSha,
        derivative_sha256: null,
        playable,
        flg: 0,
        flg_note: '',
        score: null,
        sensitive: 0,
        linked: 0,
        origin_key: input.originKey,
        alarm_id: input.alarmId ?? null,
        deleted_at: null,
        deleted_by: null,
        delete_reason: '',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await inTrx?.(trx, item.id);
    await applySensitive(trx, item.id);
    await appendCustody(trx, item.id, 'uploaded', who.actor, { sha256, size, ...input.detail, file_name: name }, at);
    return item.id;
  });
  if (playable === 'pending') derivatives.enqueue(itemId);
  app.log.info({ item: itemId, sha256, size, source: who.source, at: now() }, 'evidence item stored');
  return itemId;
}

/**
 * The last byte arrived: check the content against the extension's class, read its metadata, make
 * the thumbnail, take the original into the content store and write the item with its first
 * custody entry in one transaction (storeFile). Answers the item id; a refused file is removed and
 * its upload marked failed. Runs once per upload: the upload row moves from open to done in the
 * same transaction as the item's insert.
 */
export async function finishUpload(deps: FinishDeps, who: Uploader, id: string): Promise<number> {
  const { app, ctx, store, lang } = deps;
  const row = await store.row(id);
  if (!row) throw refusal(lang, new AppError(ResultCode.NOT_FOUND, 'errors.ingest.uploadNotFound'));
  if (row.state === 'done' && row.item_id !== null) return row.item_id;
  const meta = UploadMetadata.parse(JSON.parse(row.metadata));
  const ext = extOf(meta.filename);
  const file = store.path(id);

  const examined = await examineFile(app, file, ext, id);
  if (!examined) {
    await store.discard(id);
    await store.fail(id, 'type mismatch');
    throw refusal(
      lang,
      new AppError(ResultCode.INVALID, 'validation.ingest.typeMismatch', { file: meta.filename, ext }, 415),
    );
  }
  const sha256 = await store.digest(id, examined.size);
  try {
    return await storeFile(
      deps,
      who,
      {
        file,
        scratch: store.dir,
        name: meta.filename,
        sha256,
        examined,
        meta,
        originKey: row.origin_key,
        detail: { upload: id },
      },
      async (trx, itemId) => {
        const moved = await trx
          .updateTable('evidence_uploads')
          .set({ state: 'done', updated: now(), item_id: itemId })
          .where('id', '=', id)
          .where('state', '=', 'open')
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) throw new Error(`upload ${id} is not open`);
      },
    );
  } catch (err) {
    // the same file stored meanwhile by another upload (origin_key is unique): refused, nothing twice
    const other = row.origin_key
      ? await app.db
          .selectFrom('evidence_items')
          .select('id')
          .where('origin_key', '=', row.origin_key)
          .executeTakeFirst()
      : undefined;
    await store.fail(id, other ? 'already stored' : 'not stored');
    const used = await app.db.selectFrom('evidence_items').select('id').where('sha256', '=', sha256).executeTakeFirst();
    if (!used) await ctx.store.remove(sha256);
    if (other)
      throw refusal(lang, new AppError(ResultCode.CONFLICT, 'errors.ingest.alreadyStored', { id: other.id }), {
        [EVIDENCE_ITEM_HEADER]: String(other.id),
      });
    throw err;
  }
}
