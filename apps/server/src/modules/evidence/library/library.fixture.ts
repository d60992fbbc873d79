import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { now } from '../../../db/connection';
import { recordCustody, SYSTEM_ACTOR } from '../custody';
import type { EvidenceItemTable } from '../evidence.tables';
import { FFMPEG } from '../ingest/media-tools';

/**
 * Test items for the library's tests, independent of ingest: a real file adopted into the app's
 * content store under its real SHA-256, its row, and its 'uploaded' custody entry.
 */

/** A 1x1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A real 1 s H.264 MP4 (test pattern) made by ffmpeg; `seconds` changes the bytes. */
export async function makeMp4(seconds = 1): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'bwc-mp4-'));
  const out = join(dir, 'clip.mp4');
  try {
    await promisify(execFile)(FFMPEG, [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=160x120:rate=10:duration=${seconds}`,
      '-pix_fmt',
      'yuv420p',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-movflags',
      '+faststart',
      '-y',
      out,
    ]);
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const sha256Of = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Adopt bytes into the app's store by their hash (a copy is moved in). */
export async function storeBytes(app: FastifyInstance, bytes: Buffer): Promise<string> {
  const sha = sha256Of(bytes);
  const dir = await mkdtemp(join(tmpdir(), 'bwc-item-'));
  const file = join(dir, 'f');
  await writeFile(file, bytes);
  await app.evidenceLibrary.store.adopt(file, sha);
  await rm(dir, { recursive: true, force: true });
  return sha;
}

export async function insertItem(
  app: FastifyInstance,
  values: { unit_id: number; bytes: Buffer } & Partial<Omit<EvidenceItemTable, 'id' | 'custody_seq' | 'custody_hash'>>,
): Promise<{ id: number; sha256: string }> {
  const { bytes, ...rest } = values;
  const sha256 = await storeBytes(app, bytes);
  const isVideo = (rest.media_type ?? (bytes.subarray(1, 4).toString() === 'PNG' ? 3 : 1)) === 1;
  const ts = now();
  const row = await app.db
    .insertInto('evidence_items')
    .values({
      sha256,
      size: bytes.length,
      media_type: isVideo ? 1 : 3,
      mime: isVideo ? 'video/mp4' : 'image/png',
      ext: isVideo ? 'mp4' : 'png',
      file_name: isVideo ? '执法记录 clip.mp4' : 'photo.png',
      title: 'item',
      description: '',
      category: '',
      incident_no: '',
      source: 'console',
      outside: 0,
      device_id: null,
      hostbody: '',
      workstation_id: null,
      user_id: null,
      uploaded_by: null,
      recorded_at: ts,
      uploaded_at: ts,
      duration: isVideo ? 1 : null,
      width: 160,
      height: 120,
      video_codec: isVideo ? 'h264' : '',
      audio_codec: '',
      thumb_sha256: null,
      derivative_sha256: null,
      playable: isVideo ? 'ready' : 'none',
      flg: 0,
      flg_note: '',
      score: null,
      sensitive: 0,
      linked: 0,
      origin_key: null,
      deleted_at: null,
      deleted_by: null,
      delete_reason: '',
      ...rest,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await recordCustody(app.db, row.id, 'uploaded', SYSTEM_ACTOR, { sha256 });
  return { id: row.id, sha256 };
}
