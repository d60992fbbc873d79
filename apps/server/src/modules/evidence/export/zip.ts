import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { pipeline, Readable, Transform } from 'node:stream';
import { EVIDENCE_URL_TTL_MS } from '@bwc/protocol';
import { ZipFile } from 'yazl';
import { appendCustody, type CustodyActor } from '../custody';
import type { ItemRow } from '../library/library.repository';
import type { LibraryService } from '../library/library.service';
import { EVIDENCE_FILE_PATH, type TokenRefusal } from '../library/signed';

/**
 * Many originals as one zip (issue 15 section 4), streamed: entries are STORED (video and pictures
 * are compressed already), ZIP64 where a size needs it, manifest.csv last. Each original is hashed
 * again as its bytes pass into the zip; a mismatch ends the stream with an error before the
 * central directory is written, so the client never holds a zip that looks whole.
 */

export const ZIP_PATH = `${EVIDENCE_FILE_PATH}/zip`;
export const MANIFEST_NAME = 'manifest.csv';

const zipMac = (key: Buffer, ids: readonly number[], uid: number, expires: number) =>
  createHmac('sha256', key)
    .update(`evidence|zip|${ids.join(',')}|${uid}|${expires}`)
    .digest('base64url');

/** A signed zip address: `/media/evidence/zip?ids=1,2&token=<user>.<expires>.<mac>` (same key and token form as signed.ts). */
export function signedZipUrl(key: Buffer, ids: readonly number[], uid: number, nowMs: number) {
  const expires = nowMs + EVIDENCE_URL_TTL_MS;
  return {
    url: `${ZIP_PATH}?ids=${ids.join(',')}&token=${uid}.${expires}.${zipMac(key, ids, uid, expires)}`,
    expires,
  };
}

/** The ids and user of a zip address, or why it is refused. */
export function checkZipToken(
  key: Buffer,
  idsText: unknown,
  token: unknown,
  nowMs: number,
): { ids: number[]; userId: number } | { refused: TokenRefusal } {
  if (typeof idsText !== 'string' || !/^\d{1,12}(,\d{1,12}){0,999}$/.test(idsText)) return { refused: 'token' };
  const ids = idsText.split(',').map(Number);
  const [uidText, expiresText, sig, ...rest] = typeof token === 'string' ? token.split('.') : [];
  if (!uidText || !expiresText || !sig || rest.length || !/^\d{1,12}$/.test(uidText) || !/^\d{1,15}$/.test(expiresText))
    return { refused: 'token' };
  const want = Buffer.from(zipMac(key, ids, Number(uidText), Number(expiresText)));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return { refused: 'token' };
  if (Number(expiresText) < nowMs) return { refused: 'expired' };
  return { ids, userId: Number(uidText) };
}

/**
 * Names inside the zip: the item's file name without directories or control characters, `<id>.<ext>`
 * when nothing is left, `name (2).ext` for a repeated one; manifest.csv is reserved.
 */
export function entryNames(rows: readonly Pick<ItemRow, 'id' | 'file_name' | 'ext'>[]): string[] {
  const taken = new Set([MANIFEST_NAME.toLowerCase()]);
  return rows.map((r) => {
    let base = r.file_name
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f]/g, '')
      .replace(/^.*[\\/]/, '')
      .trim();
    if (!base || base === '.' || base === '..') base = `${r.id}${r.ext ? `.${r.ext}` : ''}`;
    const dot = base.lastIndexOf('.');
    const stem = dot > 0 ? base.slice(0, dot) : base;
    const ext = dot > 0 ? base.slice(dot) : '';
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${stem} (${n})${ext}`;
    taken.add(name.toLowerCase());
    return name;
  });
}

const csvCell = (v: string | number) => {
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** manifest.csv: one line per item, with its custody head after this download's entry. */
export function manifestCsv(
  lines: { id: number; title: string; name: string; size: number; recorded_at: string; sha256: string; head: string }[],
): Buffer {
  const rows = [
    ['id', 'title', 'file_name', 'size', 'recorded_at', 'sha256', 'custody_head_hash'],
    ...lines.map((l) => [l.id, l.title, l.name, l.size, l.recorded_at, l.sha256, l.head]),
  ];
  // UTF-8 with BOM so that spreadsheet programs read the Chinese titles
  return Buffer.from(`\ufeff${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`, 'utf8');
}

/** The bytes of one original, hashed as they pass; `done` resolves with the hex digest at the end. */
function hashing(onEnd: (sha256: string) => Promise<void>): Transform {
  const hash = createHash('sha256');
  return new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      cb(null, chunk);
    },
    flush(cb) {
      onEnd(hash.digest('hex')).then(
        () => cb(),
        (err: unknown) => cb(err as Error),
      );
    },
  });
}

export class TamperedError extends Error {
  constructor(readonly mediaId: number) {
    super(`evidence original ${mediaId} failed its hash check while zipping`);
  }
}

/**
 * The zip of `rows` (in the caller's scope, their originals present with `sizes`): its stream and
 * exact length. Each item whose bytes verify gets custody 'downloaded' (detail zip) as it ends; a
 * mismatch appends 'tamper', raises the alarm (LibraryService.tampered) and destroys the stream.
 */
export function zipOf(
  service: LibraryService,
  rows: readonly ItemRow[],
  sizes: readonly number[],
  who: CustodyActor,
  onError: (err: Error) => void,
): { stream: Readable; size: Promise<number>; abort: (err: Error) => void } {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  const names = entryNames(rows);
  const zipName = `zip-${new Date(service.clock()).toISOString()}`;
  let failed = false;
  let current: Readable | undefined;
  const fail = (err: Error) => {
    if (failed) return;
    failed = true;
    onError(err);
    current?.destroy();
    output.destroy(err);
  };
  zip.on('error', fail);

  rows.forEach((row, i) => {
    const mtime = new Date(row.recorded_at);
    zip.addReadStreamLazy(
      names[i]!,
      { compress: false, size: sizes[i]!, mtime: Number.isNaN(mtime.getTime()) ? new Date() : mtime },
      (cb) => {
        if (failed) return;
        const checked = hashing(async (actual) => {
          if (actual !== row.sha256) {
            await service.tampered(row, who, actual);
            throw new TamperedError(row.id);
          }
          await service.db
            .transaction()
            .execute((trx) =>
              appendCustody(
                trx,
                row.id,
                'downloaded',
                who,
                { kind: 'zip', sha256: row.sha256, zip: zipName, name: names[i] },
                new Date(service.clock()),
              ),
            );
        });
        current = service.store.read(row.sha256);
        pipeline(current, checked, (err) => {
          if (err) fail(err);
        });
        cb(null, checked);
      },
    );
  });

  // the manifest's length is known before its content: hashes are 64 hex characters either way
  const lineOf = (row: ItemRow, i: number, head: string) => ({
    id: row.id,
    title: row.title,
    name: names[i]!,
    size: Number(row.size),
    recorded_at: row.recorded_at,
    sha256: row.sha256,
    head,
  });
  const manifestSize = manifestCsv(rows.map((r, i) => lineOf(r, i, '0'.repeat(64)))).length;
  zip.addReadStreamLazy(MANIFEST_NAME, { compress: false, size: manifestSize }, (cb) => {
    if (failed) return;
    service.db
      .selectFrom('evidence_items')
      .select(['id', 'custody_hash'])
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute()
      .then((heads) => {
        const headOf = new Map(heads.map((h) => [h.id, h.custody_hash]));
        const csv = manifestCsv(rows.map((r, i) => lineOf(r, i, (headOf.get(r.id) ?? '').padEnd(64, '0'))));
        cb(null, Readable.from([csv]));
      }, fail);
  });

  // @types/yazl leaves out the callback's argument (the total size, -1 when unknown)
  const end = zip.end.bind(zip) as (o: object, cb: (total: number) => void) => void;
  const size = new Promise<number>((resolve) => end({}, resolve));
  return { stream: output, size, abort: fail };
}
