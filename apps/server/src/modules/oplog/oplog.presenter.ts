import { ResultCode, type OperationLogEntry } from '@bwc/protocol';
import type { OperationLogRow } from '../../db/types';

export function presentLogEntry(row: OperationLogRow): OperationLogEntry {
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
    msg: row.msg,
    created: row.created,
  };
}
