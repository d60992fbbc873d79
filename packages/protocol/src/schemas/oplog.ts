import { z } from 'zod';
import { PageQuery } from '../envelope';
import { DateTimeInput, flagInput, optionalId, optionalInput } from './inputs';

/**
 * Operation log (LogAudit/OperationLog, menu 10431): what the audit hook of the server writes for
 * every state-changing request. Listed and exported within the caller's unit scope.
 */

/** Rows one export may hold; a larger selection is refused (narrow the filters). */
export const OPLOG_EXPORT_MAX = 10_000;
export const OPLOG_RESULTS = ['success', 'failure'] as const;

export const OperationLogEntry = z.object({
  id: z.number().int(),
  user_id: z.number().int().nullable(),
  username: z.string(),
  unit_id: z.number().int().nullable(),
  unit_name: z.string(),
  /** endpoint path, e.g. /rest/user/unit/add (ApiName by path: apiNameOfPath) */
  action: z.string(),
  /** target id when there is one */
  target: z.string(),
  ip: z.string(),
  /** envelope code of the answer; 200 is success */
  result_code: z.number().int(),
  result: z.enum(OPLOG_RESULTS),
  /** envelope msg of the answer, in the caller's language at the time */
  msg: z.string(),
  /** ISO UTC */
  created: z.string(),
});
export type OperationLogEntry = z.infer<typeof OperationLogEntry>;

const filterFields = {
  /** part of the username */
  username: z.string().trim().max(64, { error: 'validation.tooLong' }).optional(),
  user_id: optionalId,
  unit_id: optionalId,
  /** with unit_id: 1 (default) also its sub-units */
  include_sub: flagInput(1),
  /** part of the endpoint path */
  action: z.string().trim().max(255, { error: 'validation.tooLong' }).optional(),
  /** from (inclusive) */
  start: optionalInput(DateTimeInput),
  /** to (inclusive) */
  end: optionalInput(DateTimeInput),
  result: optionalInput(z.enum(OPLOG_RESULTS, { error: 'validation.choice' })),
};
const timeOrder = <T extends { start?: string; end?: string }>(q: T) => !q.start || !q.end || q.start <= q.end;

/** GET rest/system/log/get: newest first. */
export const OperationLogQuery = PageQuery.extend(filterFields).refine(timeOrder, {
  error: 'validation.timeRange',
  path: ['end'],
});
export type OperationLogQuery = z.infer<typeof OperationLogQuery>;

/**
 * GET rest/system/log/export: same filters, no paging; answers an .xlsx (content-disposition with
 * an RFC 5987 `filename*`), headers in the caller's language. Errors come as envelopes.
 */
export const OperationLogExportQuery = z
  .object(filterFields)
  .refine(timeOrder, { error: 'validation.timeRange', path: ['end'] });
export type OperationLogExportQuery = z.infer<typeof OperationLogExportQuery>;
