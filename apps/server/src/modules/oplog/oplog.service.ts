import {
  OPLOG_EXPORT_MAX,
  type Language,
  type OperationLogEntry,
  type OperationLogExportQuery,
  type OperationLogQuery,
  type Page,
} from '@bwc/protocol';
import ExcelJS from 'exceljs';
import type { Db } from '../../db/connection';
import { Errors } from '../../http/errors';
import { assertInScope, inScope, unitSubtree, type UnitScope } from '../../http/scope';
import { presentLogEntry } from './oplog.presenter';
import * as repo from './oplog.repository';

/** The query's filters within the caller's unit scope. */
async function filterOf(db: Db, scope: UnitScope, q: OperationLogExportQuery): Promise<repo.OperationLogFilter> {
  let unitIds: number[] | null = scope.all ? null : scope.ids;
  if (q.unit_id) {
    assertInScope(scope, q.unit_id);
    unitIds = q.include_sub ? (await unitSubtree(db, q.unit_id)).filter((id) => inScope(scope, id)) : [q.unit_id];
  }
  return {
    unitIds,
    username: q.username,
    userId: q.user_id,
    action: q.action,
    start: q.start,
    end: q.end,
    result: q.result,
  };
}

export async function listLog(
  db: Db,
  scope: UnitScope,
  q: OperationLogQuery,
  lang: Language,
): Promise<Page<OperationLogEntry>> {
  const filter = await filterOf(db, scope, q);
  const total = await repo.countOperationLog(db, filter);
  const rows = await repo.listOperationLog(db, filter, q.limit, (q.page - 1) * q.limit);
  return { total, page: q.page, limit: q.limit, list: rows.map((row) => presentLogEntry(row, lang)) };
}

type Translate = (key: string) => string;

/** The selection as an .xlsx workbook with translated headers, and its file name. */
export async function exportLog(
  db: Db,
  scope: UnitScope,
  q: OperationLogExportQuery,
  t: Translate,
  lang: Language,
): Promise<{ fileName: string; content: Buffer }> {
  const filter = await filterOf(db, scope, q);
  const total = await repo.countOperationLog(db, filter);
  if (total > OPLOG_EXPORT_MAX) throw Errors.invalid('errors.log.exportTooMany', { n: total, max: OPLOG_EXPORT_MAX });
  const entries = (await repo.listOperationLog(db, filter, OPLOG_EXPORT_MAX)).map((row) => presentLogEntry(row, lang));

  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(t('export.oplog.sheet'));
  sheet.columns = [
    { header: t('export.oplog.index'), key: 'index', width: 8 },
    { header: t('export.oplog.time'), key: 'created', width: 26 },
    { header: t('export.oplog.username'), key: 'username', width: 16 },
    { header: t('export.oplog.unit'), key: 'unit_name', width: 20 },
    { header: t('export.oplog.action'), key: 'action', width: 36 },
    { header: t('export.oplog.target'), key: 'target', width: 12 },
    { header: t('export.oplog.ip'), key: 'ip', width: 18 },
    { header: t('export.oplog.result'), key: 'result', width: 10 },
    { header: t('export.oplog.code'), key: 'result_code', width: 10 },
    { header: t('export.oplog.msg'), key: 'msg', width: 48 },
  ];
  sheet.getRow(1).font = { bold: true };
  entries.forEach((e, i) => sheet.addRow({ ...e, index: i + 1, result: t(`export.result.${e.result}`) }));
  const content = Buffer.from(await workbook.xlsx.writeBuffer());
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return { fileName: `${t('export.oplog.file')}_${stamp}.xlsx`, content };
}
