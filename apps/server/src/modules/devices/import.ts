import {
  DEVICE_IMPORT_COLUMNS,
  DEVICE_IMPORT_MAX_ROWS,
  DeviceAddRequest,
  type DeviceImportResult,
  type Language,
} from '@bwc/protocol';
import type { ServerDeps } from '../../deps';
import ExcelJS from 'exceljs';
import { Errors } from '../../http/errors';
import { t } from '../../http/i18n';
import { issueToFieldError } from '../../http/validation';
import { inScope, type UnitScope } from '../../http/scope';
import { insertNewDevice, licensedDevices, type LicenceGate } from './devices.service';
import * as repo from './devices.repository';

type ColumnKey = (typeof DEVICE_IMPORT_COLUMNS)[number]['key'];

/** OLE2 compound file signature: a legacy binary .xls (or .doc) */
const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** zip signature: .xlsx is a zip of XML parts */
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/** An empty workbook with the import columns: zh-CN headers, or the column keys in English. */
export async function importTemplate(lang: Language): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet(lang === 'zh-CN' ? '设备' : 'devices');
  sheet.addRow(DEVICE_IMPORT_COLUMNS.map((c) => (lang === 'zh-CN' ? c.zh : c.key)));
  sheet.getRow(1).font = { bold: true };
  sheet.columns.forEach((col) => (col.width = 18));
  // IMEI and codes are text, not numbers (leading zeros, 15 digits)
  for (let i = 1; i <= DEVICE_IMPORT_COLUMNS.length; i++) sheet.getColumn(i).numFmt = '@';
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** Refuse what is not an .xlsx, with the reason (legacy .xls is named explicitly). */
export function checkWorkbookFile(fileName: string, head: Buffer): void {
  const ext = fileName.toLowerCase().split('.').pop() ?? '';
  if (ext === 'xls' || head.subarray(0, 8).equals(OLE_MAGIC)) throw Errors.field('file', 'errors.device.importXls');
  if (ext !== 'xlsx' || !head.subarray(0, 4).equals(ZIP_MAGIC)) throw Errors.field('file', 'errors.device.importType');
}

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('text' in value) return String(value.text);
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    if (value instanceof Date) return value.toISOString();
    return '';
  }
  return String(value);
}

/** Rows of the first sheet as objects keyed by column key; row numbers are the sheet's. */
export async function readSheet(
  buffer: Buffer,
): Promise<{ rows: { row: number; values: Partial<Record<ColumnKey, string>> }[] }> {
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(buffer as unknown as ArrayBuffer);
  } catch (err) {
    throw Errors.field('file', 'errors.device.importUnreadable', { reason: (err as Error).message.slice(0, 120) });
  }
  const sheet = wb.worksheets[0];
  if (!sheet || sheet.actualRowCount < 2) throw Errors.field('file', 'errors.device.importEmpty');
  const header = sheet.getRow(1);
  const columns = new Map<number, ColumnKey>();
  header.eachCell((cell, col) => {
    const name = cellText(cell.value).trim().toLowerCase();
    const def = DEVICE_IMPORT_COLUMNS.find((c) => c.key.toLowerCase() === name || c.zh.toLowerCase() === name);
    if (def) columns.set(col, def.key);
  });
  for (const def of DEVICE_IMPORT_COLUMNS) {
    if (def.required && ![...columns.values()].includes(def.key))
      throw Errors.field('file', 'errors.device.importColumn', { column: `${def.zh} (${def.key})` });
  }
  const rows: { row: number; values: Partial<Record<ColumnKey, string>> }[] = [];
  sheet.eachRow((row, rowNumber) => {
    if (rowNumber === 1) return;
    const values: Partial<Record<ColumnKey, string>> = {};
    for (const [col, key] of columns) values[key] = cellText(row.getCell(col).value).trim();
    if (Object.values(values).some((v) => v)) rows.push({ row: rowNumber, values });
  });
  if (!rows.length) throw Errors.field('file', 'errors.device.importEmpty');
  if (rows.length > DEVICE_IMPORT_MAX_ROWS)
    throw Errors.field('file', 'errors.device.importTooMany', { n: rows.length, max: DEVICE_IMPORT_MAX_ROWS });
  return { rows };
}

/**
 * Create the devices of the sheet: each row is checked alone (fields, unit in scope, model,
 * duplicates in the sheet and in the database, licence room); good rows are written in one
 * transaction, bad ones reported with row, field and msg.
 */
export async function importDevices(
  deps: ServerDeps,
  licence: LicenceGate,
  scope: UnitScope,
  lang: Language,
  buffer: Buffer,
  defaultUnitId: number | undefined,
): Promise<DeviceImportResult> {
  const { rows } = await readSheet(buffer);
  const db = deps.db;
  const units = new Map((await repo.unitsByCode(db)).map((u) => [u.bh, u.id]));
  const models = new Map((await repo.listModels(db)).map((m) => [m.name, m.id]));
  const limit = await licensedDevices(licence);
  const errors: DeviceImportResult['errors'] = [];
  const secrets: DeviceImportResult['secrets'] = [];
  const fail = (row: number, field: string, key: string, params: Record<string, string | number> = {}) =>
    errors.push({ row, field, msg: t(lang, key, params) });

  if (defaultUnitId !== undefined && !inScope(scope, defaultUnitId)) throw Errors.outOfScope();
  const seenBody = new Map<string, number>();
  const seenImei = new Map<string, number>();

  await db.transaction().execute(async (trx) => {
    let used = await repo.countDevices(trx);
    for (const { row, values } of rows) {
      let unitId = defaultUnitId;
      if (values.dwbh) {
        unitId = units.get(values.dwbh);
        if (unitId === undefined || !inScope(scope, unitId)) {
          fail(row, 'dwbh', 'errors.device.importUnit', { bh: values.dwbh });
          continue;
        }
      }
      if (unitId === undefined) {
        fail(row, 'dwbh', 'validation.field', { field: 'dwbh', message: 'validation.required' });
        continue;
      }
      let modelId: number | null = null;
      if (values.model) {
        modelId = models.get(values.model) ?? null;
        if (modelId === null) {
          fail(row, 'model', 'errors.device.importModel', { name: values.model });
          continue;
        }
      }
      const parsed = DeviceAddRequest.safeParse(
        {
          hostbody: values.hostbody ?? '',
          imei: values.imei ?? '',
          hostname: values.hostname ?? '',
          hostcode: values.hostcode ?? '',
          jq_hostcode: values.jq_hostcode ?? '',
          remark: values.remark ?? '',
          unit_id: unitId,
          model_id: modelId,
        },
        { reportInput: true },
      );
      if (!parsed.success) {
        const err = issueToFieldError(parsed.error.issues[0] as never, 'body');
        errors.push({ row, field: err.field, msg: t(lang, err.key, err.params) });
        continue;
      }
      const input = parsed.data;
      const firstBody = seenBody.get(input.hostbody);
      if (firstBody !== undefined) {
        fail(row, 'hostbody', 'errors.device.importDuplicate', { row: firstBody });
        continue;
      }
      const firstImei = seenImei.get(input.imei);
      if (firstImei !== undefined) {
        fail(row, 'imei', 'errors.device.importDuplicate', { row: firstImei });
        continue;
      }
      if (await repo.findDeviceByHostbody(trx, input.hostbody)) {
        fail(row, 'hostbody', 'errors.device.hostbodyTaken', { hostbody: input.hostbody });
        continue;
      }
      if (await repo.findDeviceByImei(trx, input.imei)) {
        fail(row, 'imei', 'errors.device.imeiTaken', { imei: input.imei });
        continue;
      }
      if (used + 1 > limit) {
        fail(row, 'hostbody', 'errors.device.licenceLimit', { limit });
        continue;
      }
      seenBody.set(input.hostbody, row);
      seenImei.set(input.imei, row);
      const { id, secret } = await insertNewDevice(trx, input);
      used += 1;
      secrets.push({ id, hostbody: input.hostbody, secret });
    }
  });
  for (const s of secrets) deps.bus.emit('device.changed', { device_id: s.id, kind: 'created' });
  return { total: rows.length, created: secrets.length, failed: errors.length, errors, secrets };
}
