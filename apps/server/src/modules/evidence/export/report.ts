import { existsSync } from 'node:fs';
import type { Language } from '@bwc/protocol';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import { t as translate } from '../../../http/i18n';
import { verifyChain, type CustodyRow } from '../custody';
import * as repo from '../library/library.repository';
import type { ItemRow } from '../library/library.repository';
import type { LibraryService } from '../library/library.service';

/**
 * An item's custody report (issue 15 section 5): its metadata, SHA-256, the chain's verification
 * and every entry, as PDF or .xlsx, in the caller's language. Exporting appends nothing to the
 * chain (the report shows the head it was made from; an entry of its own would make it stale at
 * once): the export is on the operation log instead (mediaCustodyExport is audited).
 */

/** Debian fonts-wqy-microhei; pdfkit reads a .ttc collection only with the font's PostScript name. */
export const CJK_FONT = { path: '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc', name: 'WenQuanYiMicroHei' };

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

interface ReportData {
  row: ItemRow;
  ok: boolean;
  brokenAt: number | null;
  entries: CustodyRow[];
  units: Map<number, string>;
  generatedAt: string;
  generatedBy: string;
}

export async function custodyReport(
  service: LibraryService,
  row: ItemRow,
  format: 'pdf' | 'xlsx',
  lang: Language,
  by: string,
  options: { cjkFont?: string | null; compress?: boolean } = {},
): Promise<{ fileName: string; mime: string; content: Buffer }> {
  const check = await verifyChain(service.db, row.id);
  const units = await repo.unitNames(service.db, [
    ...new Set([row.unit_id, ...check.entries.map((e) => e.unit_id)].filter((u): u is number => u !== null)),
  ]);
  const data: ReportData = {
    row,
    ok: check.ok,
    brokenAt: check.brokenAt,
    entries: check.entries,
    units,
    generatedAt: new Date(service.clock()).toISOString(),
    generatedBy: by,
  };
  const font = options.cjkFont === undefined ? (existsSync(CJK_FONT.path) ? CJK_FONT.path : null) : options.cjkFont;
  // without a Chinese font the PDF is written in English, with a note saying why
  const pdfLang: Language = font ? lang : 'en-US';
  const tr = (l: Language) => (key: string, params?: Record<string, string | number>) =>
    translate(l, `export.custody.${key}`, params);
  const stamp = data.generatedAt.replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  if (format === 'xlsx')
    return {
      fileName: `${tr(lang)('file')}_${row.id}_${stamp}.xlsx`,
      mime: XLSX_TYPE,
      content: await workbook(data, tr(lang)),
    };
  return {
    fileName: `${tr(pdfLang)('file')}_${row.id}_${stamp}.pdf`,
    mime: 'application/pdf',
    content: await pdf(data, tr(pdfLang), font, options.compress ?? true),
  };
}

type T = (key: string, params?: Record<string, string | number>) => string;

function fields(d: ReportData, t: T): [string, string][] {
  const r = d.row;
  const f = (k: string) => t(`field.${k}`);
  return [
    [f('id'), String(r.id)],
    [f('title'), r.title],
    [f('file_name'), r.file_name],
    [f('size'), String(Number(r.size))],
    [f('mime'), r.mime],
    [f('recorded_at'), r.recorded_at],
    [f('uploaded_at'), r.uploaded_at],
    [f('unit'), d.units.get(r.unit_id) ?? r.unit_name ?? ''],
    [f('hostbody'), r.hostbody],
    [f('user'), r.user_name ?? ''],
    [f('duration'), r.duration === null ? '' : String(Number(r.duration))],
    [f('deleted'), r.deleted_at ?? ''],
    [f('purged'), r.purged_at ?? ''],
    [f('sha256'), r.sha256],
    [f('custody_seq'), String(r.custody_seq)],
    [f('custody_head'), r.custody_hash],
  ];
}

const verdict = (d: ReportData, t: T) =>
  d.ok ? t('chainOk', { count: d.entries.length }) : t('chainBroken', { seq: d.brokenAt ?? '-' });

const actionOf = (t: T, action: string) => {
  const label = t(`action.${action}`);
  return label === `export.custody.action.${action}` ? action : label;
};

async function workbook(d: ReportData, t: T): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const info = book.addWorksheet(t('infoSheet'));
  info.columns = [{ width: 18 }, { width: 72 }];
  info.addRow([t('title')]).font = { bold: true, size: 14 };
  info.addRow([t('generated', { time: d.generatedAt, user: d.generatedBy })]);
  info.addRow([]);
  for (const [k, v] of fields(d, t)) info.addRow([k, v]);
  const v = info.addRow([t('chain'), verdict(d, t)]);
  v.getCell(2).font = { bold: true, color: { argb: d.ok ? 'FF2E7D32' : 'FFC62828' } };

  const sheet = book.addWorksheet(t('sheet'));
  const col = (key: string, width: number) => ({ header: t(`col.${key}`), key, width });
  sheet.columns = [
    col('seq', 8),
    col('action', 14),
    col('actor', 16),
    col('unit', 20),
    col('at', 26),
    col('ip', 16),
    col('detail', 48),
    col('prev_hash', 68),
    col('hash', 68),
  ];
  sheet.getRow(1).font = { bold: true };
  for (const e of d.entries)
    sheet.addRow({
      seq: e.seq,
      action: actionOf(t, e.action),
      actor: e.actor,
      unit: e.unit_id === null ? '' : (d.units.get(e.unit_id) ?? ''),
      at: e.at,
      ip: e.ip,
      detail: e.detail,
      prev_hash: e.prev_hash,
      hash: e.hash,
    });
  return Buffer.from(await book.xlsx.writeBuffer());
}

function pdf(d: ReportData, t: T, font: string | null, compress: boolean): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 40, compress, info: { Title: t('title') } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const text = font ? 'cjk' : 'Helvetica';
  if (font) doc.registerFont('cjk', font, CJK_FONT.name);
  // hashes in a fixed-width latin font
  const mono = 'Courier';
  const width = doc.page.width - 80;

  doc.font(text).fontSize(16).text(t('title'));
  doc
    .fontSize(9)
    .fillColor('#555')
    .text(t('generated', { time: d.generatedAt, user: d.generatedBy }));
  if (!font) doc.fillColor('#c62828').text(t('noCjkFont'));
  doc.moveDown().fillColor('black').fontSize(12).text(t('item'));
  doc.fontSize(9);
  for (const [k, v] of fields(d, t)) {
    const hash = k === t('field.sha256') || k === t('field.custody_head');
    doc
      .font(text)
      .text(`${k}: `, { continued: true })
      .font(hash ? mono : text)
      .text(v || '-');
  }
  doc
    .font(text)
    .moveDown(0.5)
    .fillColor(d.ok ? '#2e7d32' : '#c62828')
    .fontSize(11)
    .text(`${t('chain')}: ${verdict(d, t)}`);
  doc
    .moveDown()
    .fillColor('black')
    .fontSize(12)
    .text(t('entries', { count: d.entries.length }));
  doc.fontSize(8);
  for (const e of d.entries) {
    const broken = d.brokenAt !== null && e.seq >= d.brokenAt;
    const unit = e.unit_id === null ? '' : (d.units.get(e.unit_id) ?? '');
    doc
      .moveDown(0.4)
      .font(text)
      .fillColor(broken ? '#c62828' : 'black')
      .text(`#${e.seq}  ${actionOf(t, e.action)}  ${e.actor}${unit ? ` (${unit})` : ''}  ${e.at}  ${e.ip || '-'}`, {
        width,
      });
    if (e.detail && e.detail !== '{}') doc.fillColor('#555').text(`${t('col.detail')}: ${e.detail}`, { width });
    doc.fillColor('#555');
    for (const [k, v] of [
      ['prev_hash', e.prev_hash],
      ['hash', e.hash],
    ] as const)
      doc
        .font(text)
        .text(`${t(`col.${k}`)}: `, { continued: true, width })
        .font(mono)
        .text(v);
  }
  doc.end();
  return done;
}
