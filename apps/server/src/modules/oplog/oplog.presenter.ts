import { ResultCode, type Language, type OperationLogEntry } from '@bwc/protocol';
import type { OperationLogRow } from '../../db/types';
import { t } from '../../http/i18n';

/** The result msg in the viewer's language (rows before migration 0008 keep their stored text). */
function msgOf(row: OperationLogRow, lang: Language): string {
  if (!row.msg_key) return row.msg;
  try {
    return t(lang, row.msg_key, row.msg_params ? (JSON.parse(row.msg_params) as Record<string, string | number>) : {});
  } catch {
    return row.msg;
  }
}

export function presentLogEntry(row: OperationLogRow, lang: Language): OperationLogEntry {
  return {
    id: row.id,
    user_id: row.user_id,
    username: row.username,
    unit_id: row.unit_id,
    unit_name: row.unit_name,
    action: row.action,
    target: row.target,
    ip: row.ip,
    result_code: row.result_code,
    result: row.result_code === ResultCode.OK ? 'success' : 'failure',
    msg: msgOf(row, lang),
    created: row.created,
  };
}
