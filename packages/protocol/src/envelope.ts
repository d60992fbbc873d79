import { z } from 'zod';
import { TABLE_DEFAULT_PAGE_SIZE } from './limits';

/** Every `rest/...` answer: `{code, msg, data}`; code 200 means success (see codes.ts). */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number().int(), msg: z.string(), data });
}
export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

/** Paging input of list calls: 1-based page, page size from TABLE_PAGE_SIZES. */
export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(TABLE_DEFAULT_PAGE_SIZE),
});
export type PageQuery = z.infer<typeof PageQuery>;

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ total: z.number().int(), page: z.number().int(), limit: z.number().int(), list: z.array(item) });
}
export interface Page<T> {
  total: number;
  page: number;
  limit: number;
  list: T[];
}

/** A 0/1 flag as the wire carries it; strings '0'/'1' from form posts are accepted. */
export const Flag = z.union([z.literal(0), z.literal(1)]);
export const FlagInput = z.coerce.number().pipe(Flag);
export type Flag = z.infer<typeof Flag>;

export const IdInput = z.object({ id: z.coerce.number({ error: 'validation.required' }).int().positive() });
export type IdInput = z.infer<typeof IdInput>;
