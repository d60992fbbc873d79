import { z } from 'zod';
import { PageQuery } from '../envelope';

export const DownloadEntry = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  version: z.string(),
  file_name: z.string(),
  file_size: z.number().int(),
  /** 1: listed on the home page */
  is_index: z.number().int(),
  create_time: z.string(),
  /** path to fetch the file; the answer carries content-disposition with file_name */
  url: z.string(),
});
export type DownloadEntry = z.infer<typeof DownloadEntry>;

const fields = {
  name: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(100, { error: 'validation.tooLong' }),
  description: z.string().trim().max(500, { error: 'validation.tooLong' }).default(''),
  version: z.string().trim().max(50, { error: 'validation.tooLong' }).default(''),
  is_index: z.coerce.number().int().min(0).max(1).default(0),
};
/** add is multipart: these fields plus one file part named `file`. */
export const DownloadAddFields = z.object(fields);
export type DownloadAddFields = z.infer<typeof DownloadAddFields>;
/** update_post: fields, optionally a new file. */
export const DownloadUpdateFields = z.object({ id: z.coerce.number().int().positive(), ...fields });
export type DownloadUpdateFields = z.infer<typeof DownloadUpdateFields>;
export const DownloadListQuery = PageQuery.extend({
  keyword: z.string().trim().max(100).optional(),
  is_index: z.coerce.number().int().min(0).max(1).optional(),
});
export type DownloadListQuery = z.infer<typeof DownloadListQuery>;
export const IsIndexRequest = z.object({ id: z.coerce.number().int().positive(), is_index: z.coerce.number().int().min(0).max(1) });
export type IsIndexRequest = z.infer<typeof IsIndexRequest>;
