import { z } from 'zod';
import { PageQuery } from '../envelope';

export const ANNOUNCE_TITLE_MAX = 100;
export const ANNOUNCE_CONTENT_MAX = 5000;
export const AnnounceStatus = { DRAFT: 0, PUBLISHED: 1 } as const;

export const Announcement = z.object({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  /** 0 draft, 1 published */
  status: z.number().int(),
  author: z.string(),
  create_time: z.string(),
  update_time: z.string(),
  publish_time: z.string().nullable(),
});
export type Announcement = z.infer<typeof Announcement>;

const fields = {
  title: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(ANNOUNCE_TITLE_MAX, { error: 'validation.tooLong' }),
  content: z.string({ error: 'validation.required' }).trim().min(1, { error: 'validation.required' }).max(ANNOUNCE_CONTENT_MAX, { error: 'validation.tooLong' }),
};
export const AnnounceAddRequest = z.object(fields);
export type AnnounceAddRequest = z.infer<typeof AnnounceAddRequest>;
export const AnnounceUpdateRequest = z.object({ id: z.coerce.number().int().positive(), ...fields });
export type AnnounceUpdateRequest = z.infer<typeof AnnounceUpdateRequest>;
export const AnnounceListQuery = PageQuery.extend({
  keyword: z.string().trim().max(100).optional(),
  status: z.coerce.number().int().min(0).max(1).optional(),
});
export type AnnounceListQuery = z.infer<typeof AnnounceListQuery>;
/** delete and publish take one id or several */
export const IdsRequest = z.object({ ids: z.array(z.coerce.number().int().positive()).min(1, { error: 'validation.required' }).max(500) });
export type IdsRequest = z.infer<typeof IdsRequest>;
