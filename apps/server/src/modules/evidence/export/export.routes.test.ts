import { crc32, inflateSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, open, readdir, readlink } from 'node:fs/promises';
import { ALARM_TYPE, Api, MenuId, ResultCode, type MediaDownloadAllAnswer } from '@bwc/protocol';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBuffer, type Entry, type ZipFile } from 'yauzl';
import { api, callApi } from '../../../../test/api';
import { unitIdOf } from '../../../../test/devices';
import { createRole, createTestApp, createUser, login, type Session, type TestApp } from '../../../../test/helpers';
import { until } from '../../../../test/wait';
import { insertItem, makeMp4, PNG, sha256Of } from '../library/library.fixture';
import type { LocalContentStore } from '../store';
import { CJK_FONT, custodyReport } from './report';
import { entryNames } from './zip';

let t: TestApp;
let base: string;
let futianUser: Session;
let futianUserId: number;
let luohuUser: Session;
/** Futian: two videos (same file name) and a picture; Luohu: a video */
const items = {} as Record<'a' | 'png' | 'b' | 'foreign', { id: number; sha256: string; bytes: Buffer }>;

const actions = async (id: number) =>
  await t.db
    .selectFrom('evidence_custody')
    .select(['action', 'detail'])
    .where('media_id', '=', id)
    .orderBy('seq')
    .execute();

/** name -> bytes of every entry of a zip */
async function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  const file = await new Promise<ZipFile>((resolve, reject) =>
    fromBuffer(zip, { lazyEntries: true }, (err, z) => (err ? reject(err) : resolve(z))),
  );
  const out = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    file.on('entry', (entry: Entry) => {
      expect(entry.compressionMethod).toBe(0); // STORE
      file.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const bytes = Buffer.concat(chunks);
          // yauzl does not check the CRC-32 the zip declares: other readers do
          expect(crc32(bytes)).toBe(entry.crc32);
          out.set(entry.fileName, bytes);
          file.readEntry();
        });
        stream.on('error', reject);
      });
    });
    file.on('end', resolve);
    file.on('error', reject);
    file.readEntry();
  });
  return out;
}

beforeAll(async () => {
  t = await createTestApp();
  const futian = await unitIdOf(t.db, '440304000000');
  const luohu = await unitIdOf(t.db, '440303000000');
  const viewer = await createRole(t.db, 'law viewer', [{ ids: [MenuId.LAW_MEDIA], actions: ['view'] }]);
  const u1 = await createUser(t.db, { roleId: viewer, unitBh: '440304000000', hostname: '李警官' });
  futianUserId = u1.id;
  futianUser = await login(t.app, u1.username, u1.password);
  const u2 = await createUser(t.db, { roleId: viewer, unitBh: '440303000000' });
  luohuUser = await login(t.app, u2.username, u2.password);
  const add = async (unit: number, bytes: Buffer, title: string) => ({
    ...(await insertItem(t.app, { unit_id: unit, bytes, title })),
    bytes,
  });
  items.a = await add(futian, await makeMp4(1), '巡逻 patrol');
  items.png = await add(futian, PNG, 'photo, "quoted"');
  items.b = await add(futian, await makeMp4(2), 'second clip');
  items.foreign = await add(luohu, await makeMp4(3), 'luohu clip');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('zip of many items', () => {
  it('names entries from the items, repeated names numbered, manifest.csv reserved', () => {
    expect(
      entryNames([
        { id: 1, file_name: 'a.mp4', ext: 'mp4' },
        { id: 2, file_name: 'A.mp4', ext: 'mp4' },
        { id: 3, file_name: '../x/manifest.csv', ext: 'csv' },
        { id: 4, file_name: '', ext: 'png' },
      ]),
    ).toEqual(['a.mp4', 'A (2).mp4', 'manifest (2).csv', '4.png']);
  });

  it('streams the originals and a manifest whose hashes match, with custody downloaded per item', async () => {
    const ids = [items.a.id, items.png.id, items.b.id];
    const link = await api<MediaDownloadAllAnswer>(t.app, 'mediaDownloadAll', futianUser, { ids });
    expect(link.code).toBe(200);
    expect(link.data.count).toBe(3);
    const res = await fetch(base + link.data.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const zip = Buffer.from(await res.arrayBuffer());
    expect(Number(res.headers.get('content-length'))).toBe(zip.length);
    const files = await unzip(zip);
    // both videos are named '执法记录 clip.mp4' by the fixture
    expect([...files.keys()]).toEqual(['执法记录 clip.mp4', 'photo.png', '执法记录 clip (2).mp4', 'manifest.csv']);
    const manifest = files
      .get('manifest.csv')!
      .toString('utf8')
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(manifest[0]).toBe('id,title,file_name,size,recorded_at,sha256,custody_head_hash');
    expect(manifest[2]).toContain('"photo, ""quoted"""');
    const heads = await t.db
      .selectFrom('evidence_items')
      .select(['id', 'custody_hash'])
      .where('id', 'in', ids)
      .execute();
    for (const [i, item] of [items.a, items.png, items.b].entries()) {
      const line = manifest[i + 1]!;
      const name = [...files.keys()][i]!;
      expect(sha256Of(files.get(name)!)).toBe(item.sha256);
      expect(files.get(name)!.equals(item.bytes)).toBe(true);
      expect(line.startsWith(`${item.id},`)).toBe(true);
      expect(line).toContain(`,${item.sha256},`);
      expect(line).toContain(`,${item.bytes.length},`);
      // the head after this download's entry
      expect(line.endsWith(heads.find((h) => h.id === item.id)!.custody_hash)).toBe(true);
      const last = (await actions(item.id)).at(-1)!;
      expect(last.action).toBe('downloaded');
      expect(JSON.parse(last.detail)).toMatchObject({ kind: 'zip', sha256: item.sha256, name });
    }
    expect(
      await t.db
        .selectFrom('operation_log')
        .select(['target', 'result_code'])
        .where('action', '=', Api.mediaDownloadAll.path)
        .where('user_id', '=', futianUserId)
        .executeTakeFirst(),
    ).toEqual({ target: ids.join(','), result_code: 200 });
  });

  it('refuses an id of another unit before anything streams, and a changed or expired address', async () => {
    const before = (await actions(items.a.id)).length;
    const refused = await api(t.app, 'mediaDownloadAll', futianUser, { ids: [items.a.id, items.foreign.id] }, 'en-US');
    expect(refused.code).toBe(ResultCode.NOT_FOUND);
    expect(refused.msg).toContain(String(items.foreign.id));
    expect((await actions(items.a.id)).length).toBe(before);
    expect((await api(t.app, 'mediaDownloadAll', futianUser, { ids: [] })).code).toBe(ResultCode.INVALID);

    const link = await api<MediaDownloadAllAnswer>(t.app, 'mediaDownloadAll', futianUser, { ids: [items.a.id] });
    const changed = link.data.url.replace(`ids=${items.a.id}`, `ids=${items.a.id},${items.foreign.id}`);
    expect((await fetch(base + changed)).status).toBe(403);
    // the user moved to another unit after signing: the item is out of scope now
    const luohu = await unitIdOf(t.db, '440303000000');
    const futian = await unitIdOf(t.db, '440304000000');
    await t.db.updateTable('users').set({ unit_id: luohu }).where('id', '=', futianUserId).execute();
    try {
      expect((await fetch(base + link.data.url)).status).toBe(404);
    } finally {
      await t.db.updateTable('users').set({ unit_id: futian }).where('id', '=', futianUserId).execute();
    }
    const clock = t.app.evidenceLibrary.clock;
    t.app.evidenceLibrary.clock = () => Date.now() + 3_600_000;
    try {
      expect((await fetch(base + link.data.url)).status).toBe(403);
    } finally {
      t.app.evidenceLibrary.clock = clock;
    }
    expect((await actions(items.a.id)).length).toBe(before);
  });

  it('stops reading the originals when the client goes away', async () => {
    const futian = await unitIdOf(t.db, '440304000000');
    // larger than the socket buffers: the server is still reading it when the client leaves
    const big = await insertItem(t.app, { unit_id: futian, bytes: randomBytes(48 * 1024 * 1024), title: 'big' });
    const path = (t.app.evidenceLibrary.store as LocalContentStore).localPath(big.sha256);
    const openHere = async () => {
      const fds = await readdir('/proc/self/fd');
      const targets = await Promise.all(fds.map((fd) => readlink(`/proc/self/fd/${fd}`).catch(() => '')));
      return targets.includes(path);
    };
    const link = await api<MediaDownloadAllAnswer>(t.app, 'mediaDownloadAll', futianUser, {
      ids: [big.id, items.a.id],
    });
    const abort = new AbortController();
    const res = await fetch(base + link.data.url, { signal: abort.signal });
    const reader = res.body!.getReader();
    await reader.read();
    expect(await openHere()).toBe(true);
    abort.abort();
    await until('the original closed after the client left', async () => !(await openHere()));
    expect((await actions(big.id)).map((a) => a.action)).toEqual(['uploaded']);
  });

  it('breaks the stream when an original no longer matches its hash, with custody tamper and an alarm', async () => {
    // change one byte in the middle of the stored original (same size)
    const path = (t.app.evidenceLibrary.store as LocalContentStore).localPath(items.b.sha256);
    await chmod(path, 0o644);
    const fh = await open(path, 'r+');
    const at = Math.floor(items.b.bytes.length / 2);
    await fh.write(Buffer.from([items.b.bytes[at]! ^ 0xff]), 0, 1, at);
    await fh.close();

    const link = await api<MediaDownloadAllAnswer>(t.app, 'mediaDownloadAll', futianUser, {
      ids: [items.a.id, items.b.id],
    });
    const res = await fetch(base + link.data.url);
    expect(res.status).toBe(200);
    await expect(res.arrayBuffer()).rejects.toThrow();
    const chain = await actions(items.b.id);
    expect(chain.at(-1)!.action).toBe('tamper');
    expect(JSON.parse(chain.at(-1)!.detail)).toMatchObject({ expected: items.b.sha256 });
    expect(chain.filter((c) => c.action === 'downloaded')).toHaveLength(1); // the earlier, whole zip
    const alarm = await t.db
      .selectFrom('alarms')
      .selectAll()
      .where('type', '=', ALARM_TYPE.EVIDENCE_TAMPER)
      .executeTakeFirst();
    expect(alarm?.message).toContain(items.b.sha256);
  });
});

describe('custody report', () => {
  /** the text of every content stream of a PDF */
  const pdfText = (pdf: Buffer) => {
    const out: string[] = [];
    const raw = pdf.toString('latin1');
    for (const m of raw.matchAll(/stream\r?\n/g)) {
      const start = m.index + m[0].length;
      const end = raw.indexOf('endstream', start);
      try {
        out.push(inflateSync(pdf.subarray(start, end)).toString('latin1'));
      } catch {
        out.push(raw.slice(start, end));
      }
    }
    return out.join('\n');
  };
  /** the strings shown by TJ operators of a latin (single-byte) font, kerning removed */
  const shown = (pdf: Buffer) =>
    [...pdfText(pdf).matchAll(/\[([^\]]*)\]\s*TJ/g)]
      .map((m) =>
        [...m[1]!.matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => Buffer.from(h[1]!, 'hex').toString('latin1')).join(''),
      )
      .join('\n');

  it('writes a PDF with the item hash and the chain verdict', async () => {
    const res = await callApi(t.app, 'mediaCustodyExport', futianUser, { id: items.a.id, format: 'pdf' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // the hashes are set in Courier: pdfkit writes their characters as hex
    expect(shown(res.rawPayload)).toContain(items.a.sha256);
    const before = (await actions(items.a.id)).length;
    await callApi(t.app, 'mediaCustodyExport', futianUser, { id: items.a.id, format: 'pdf' });
    // a report appends nothing to the chain; it is on the operation log
    expect((await actions(items.a.id)).length).toBe(before);
    expect(
      await t.db
        .selectFrom('operation_log')
        .select('target')
        .where('action', '=', Api.mediaCustodyExport.path)
        .executeTakeFirst(),
    ).toEqual({ target: String(items.a.id) });
  });

  it('writes an .xlsx listing every entry, in the caller language', async () => {
    const res = await callApi(t.app, 'mediaCustodyExport', futianUser, { id: items.a.id, format: 'xlsx' }, 'en-US');
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const info = book.getWorksheet('Item')!;
    const values = info.getSheetValues().flat().map(String);
    expect(values).toContain(items.a.sha256);
    expect(values.some((v) => v.startsWith('Verified: all'))).toBe(true);
    const sheet = book.getWorksheet('Custody')!;
    const entries = await t.db
      .selectFrom('evidence_custody')
      .selectAll()
      .where('media_id', '=', items.a.id)
      .orderBy('seq')
      .execute();
    expect(sheet.rowCount).toBe(entries.length + 1);
    expect(sheet.getRow(1).getCell(1).value).toBe('No.');
    entries.forEach((e, i) => {
      const row = sheet.getRow(i + 2);
      expect(row.getCell(1).value).toBe(e.seq);
      expect(row.getCell(8).value).toBe(e.prev_hash);
      expect(row.getCell(9).value).toBe(e.hash);
    });
    expect(sheet.getRow(2).getCell(2).value).toBe('Uploaded');

    const zh = await callApi(t.app, 'mediaCustodyExport', futianUser, { id: items.a.id, format: 'xlsx' });
    const zhBook = new ExcelJS.Workbook();
    await zhBook.xlsx.load(zh.rawPayload as unknown as ArrayBuffer);
    expect(zhBook.getWorksheet('保管记录')!.getRow(2).getCell(2).value).toBe('上传');
  });

  it('sets Chinese text in WenQuanYi Micro Hei, or writes English with a note without it', async () => {
    const row = (await t.app.evidenceLibrary.visible({ all: true }, items.a.id))!;
    if (existsSync(CJK_FONT.path)) {
      const zh = await custodyReport(t.app.evidenceLibrary, row, 'pdf', 'zh-CN', 'tester', { compress: false });
      expect(zh.content.toString('latin1')).toMatch(/\/BaseFont \/[A-Z]{6}\+WenQuanYiMicroHei/);
      expect(zh.fileName.startsWith('保管记录_')).toBe(true);
    }
    const latin = await custodyReport(t.app.evidenceLibrary, row, 'pdf', 'zh-CN', 'tester', {
      cjkFont: null,
      compress: false,
    });
    const text = shown(latin.content);
    expect(latin.fileName.startsWith('custody_')).toBe(true);
    expect(text).toContain('Evidence custody report');
    expect(text).toContain('no font with Chinese glyphs');
    expect(text).toContain(items.a.sha256);
    expect(latin.content.toString('latin1')).not.toContain('WenQuanYi');
  });

  it('refuses an item of another unit and a bad format', async () => {
    const foreign = await callApi(t.app, 'mediaCustodyExport', futianUser, { id: items.foreign.id, format: 'pdf' });
    expect(foreign.json().code).toBe(ResultCode.NOT_FOUND);
    const ok = await callApi(t.app, 'mediaCustodyExport', luohuUser, { id: items.foreign.id, format: 'xlsx' });
    expect(ok.statusCode).toBe(200);
    const bad = await callApi(t.app, 'mediaCustodyExport', futianUser, { id: items.a.id, format: 'doc' }, 'en-US');
    expect(bad.json().msg).toContain('pdf or xlsx');
  });
});
