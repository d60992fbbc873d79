import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { EVIDENCE_CLASSES, EVIDENCE_TITLE_MAX, ResultCode, UploadMetadata, type Language } from '@bwc/protocol';
import type { FastifyInstance } from 'fastify';
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
  source: 'console' | 'device' | 'workstation';
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
export async function finishUpload(deps: FinishDeps, who: Uploader, id: string): Promise<number> {
  const { app, ctx, store, derivatives, lang } = deps;
  const row = await store.row(id);
  if (!row) throw refusal(lang, new AppError(ResultCode.NOT_FOUND, 'errors.ingest.uploadNotFound'));
  if (row.state === 'done' && row.item_id !== null) return row.item_id;
  const meta = UploadMetadata.parse(JSON.parse(row.metadata));
  const ext = extOf(meta.filename);
  const cls = classOfExt(ext)!;
  const file = store.path(id);
  const size = (await stat(file)).size;

  const refuse = async (key: string, params: Record<string, string | number>, status: number, reason: string) => {
    await store.discard(id);
    await store.fail(id, reason);
    return refusal(lang, new AppError(ResultCode.INVALID, key, params, status));
  };
  const mismatch = () => refuse('validation.ingest.typeMismatch', { file: meta.filename, ext }, 415, 'type mismatch');
  if (!(await contentFitsClass(file, cls))) throw await mismatch();
  let info: ProbeResult;
  try {
    info = await probe(file);
  } catch (err) {
    app.log.warn({ err, upload: id }, 'evidence upload: ffprobe cannot read the file');
    throw await mismatch();
  }
  // the streams must be of the class too (an .mp4 holding only audio is not a video)
  const fits =
    cls === 'video' ? info.video_codec !== '' : cls === 'audio' ? info.audio_codec !== '' : info.width !== null;
  if (!fits) throw await mismatch();

  const sha256 = await store.digest(id, size);
  let thumbSha: string | null = null;
  if (cls !== 'audio') {
    const thumb = join(store.dir, `${id}.thumb.jpg`);
    if (await thumbnail(file, thumb, cls === 'video' ? info.duration : null)) {
      thumbSha = await sha256File(thumb);
      await ctx.store.adopt(thumb, thumbSha);
    } else {
      await rm(thumb, { force: true });
      app.log.warn({ upload: id }, 'evidence upload: no thumbnail');
    }
  }
  const playable = cls === 'image' ? 'none' : playableAsIs(ext, info) ? 'ready' : 'pending';
  await ctx.store.adopt(file, sha256);

  const at = new Date();
  const uploadedAt = at.toISOString();
  const name = meta.filename.replace(/^.*[\\/]/, '');
  const title = (meta.title || name.replace(/\.[^.]*$/, '') || name).slice(0, EVIDENCE_TITLE_MAX);
  let itemId: number;
  try {
    itemId = await app.db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('evidence_uploads')
        .set({ state: 'done', updated: uploadedAt })
        .where('id', '=', id)
        .where('state', '=', 'open')
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) throw new Error(`upload ${id} is not open`);
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
          origin_key: row.origin_key,
          deleted_at: null,
          deleted_by: null,
          delete_reason: '',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx.updateTable('evidence_uploads').set({ item_id: item.id }).where('id', '=', id).execute();
      await applySensitive(trx, item.id);
      await appendCustody(trx, item.id, 'uploaded', who.actor, { sha256, size, upload: id, file_name: name }, at);
      return item.id;
    });
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
  if (playable === 'pending') derivatives.enqueue(itemId);
  app.log.info({ item: itemId, upload: id, sha256, size, at: now() }, 'evidence item stored');
  return itemId;
}
