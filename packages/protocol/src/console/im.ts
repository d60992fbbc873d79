import { z } from 'zod';
import { UPLOAD_TYPES } from '../limits';
import { intIn, maybe, numeric, OptionalExtId, OptionalUid, StringLike, Text } from './fields';
import {
  IM_LIST_DEFAULT_COUNT,
  IM_LIST_MAX_COUNT,
  IM_SESSIONS_DEFAULT_COUNT,
  IM_SESSIONS_MAX_COUNT,
  IM_TEXT_MAX,
} from './limits';

/**
 * Instant messages (spec part 1 sections 3 and 7, part 2 section 5): text, image, voice note and
 * file, to a user or a group, stored. Recipients that are not logged on get them (notice_im, in
 * order) when they next log on. Files are uploaded first in chunks to the login's
 * `upload_url_gfile` (resumable: a GET of the same address with `&fid=` answers the bytes
 * received), completed with `req_send_file_done`, then sent with `req_send_im` naming the fid.
 */

/** im_type (ours: the spec lists the field only). */
export const ImType = { TEXT: 1, IMAGE: 2, VOICE: 3, FILE: 4 } as const;
export type ImType = (typeof ImType)[keyof typeof ImType];
/** target_type: a user or a group. */
export const ImTargetType = { USER: 0, GROUP: 1 } as const;
export type ImTargetType = (typeof ImTargetType)[keyof typeof ImTargetType];

/** File kinds of messages: extensions allowed (part 2 section 5 classes; voice adds the browsers' recording formats) and size limit in MB (ours). */
export const IM_FILE_KINDS = {
  [ImType.IMAGE]: { extensions: [...UPLOAD_TYPES.image], maxMb: 10 },
  [ImType.VOICE]: { extensions: [...UPLOAD_TYPES.audio, 'webm', 'ogg', 'm4a', 'amr'], maxMb: 10 },
  [ImType.FILE]: {
    extensions: [
      ...UPLOAD_TYPES.video,
      ...UPLOAD_TYPES.audio,
      ...UPLOAD_TYPES.image,
      ...UPLOAD_TYPES.zip,
      ...UPLOAD_TYPES.doc,
    ],
    maxMb: 100,
  },
} as const satisfies Record<number, { extensions: readonly string[]; maxMb: number }>;
export type ImFileType = keyof typeof IM_FILE_KINDS;

/** Lower-case extension of a file name ('' when none). */
export function fileExtension(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot > 0 ? filename.slice(dot + 1).toLowerCase() : '';
}

/** An upload's fid: chosen by the uploader, 8 to 64 letters, digits, _ or -. */
export const Fid = z
  .string({ error: 'validation.required' })
  .regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'validation.invalid' });

const ImTypeField = numeric(
  z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)], { error: 'validation.choice' }),
);
const TargetTypeField = numeric(z.union([z.literal(0), z.literal(1)], { error: 'validation.choice' }));

/** A stored message as notices and lists carry it. */
export const ImMessage = z.object({
  msg_id: z.number().int(),
  /** sender */
  from: z.number().int(),
  extfrom: z.string(),
  from_name: z.string(),
  /** a user's uid or a group's tgid */
  target: z.number().int(),
  exttarget: z.string(),
  target_type: TargetTypeField,
  im_type: ImTypeField,
  content: z.string(),
  /** ISO, when the service stored it */
  time: z.string(),
  filename: z.string(),
  size: z.number().int(),
  fid: z.string(),
  /** download address of the file ('' for text) */
  ourl: z.string(),
  /** address of the small version (images: the image itself; '' otherwise) */
  surl: z.string(),
});
export type ImMessage = z.infer<typeof ImMessage>;

/**
 * req_send_im: to `target` / `exttarget` (a user, or with target_type 1 a group's tgid). Text
 * needs `content`; image, voice and file need the `fid` of a completed upload (its filename, size
 * and addresses are the stored ones). `time` is the sender's clock, kept as sent.
 */
export const SendImRequest = z
  .object({
    target: OptionalUid,
    exttarget: OptionalExtId,
    target_type: TargetTypeField.default(ImTargetType.USER),
    im_type: ImTypeField,
    content: Text(IM_TEXT_MAX).default(''),
    time: StringLike(40).optional(),
    filename: Text(255).optional(),
    size: maybe(numeric(z.number({ error: 'validation.number' }))),
    fid: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.string().optional()),
    ourl: Text(1024).optional(),
    surl: Text(1024).optional(),
  })
  .refine((m) => m.target !== undefined || m.exttarget !== undefined, {
    error: 'validation.required',
    path: ['target'],
  })
  .refine((m) => m.im_type !== ImType.TEXT || m.content.trim() !== '', {
    error: 'validation.required',
    path: ['content'],
  })
  .refine((m) => m.im_type === ImType.TEXT || (m.fid !== undefined && Fid.safeParse(m.fid).success), {
    error: 'validation.required',
    path: ['fid'],
  });
export type SendImRequest = z.infer<typeof SendImRequest>;
export const SendImAnswer = z.object({ im: ImMessage });
/** notice_im: a message for this user (or one of its groups). */
export const ImNotice = z.object({ im: ImMessage });
/**
 * notice_im_state (ours): a message a console sent reached a recipient's connection (`delivered`)
 * or was listed by it (`read`, req_im_list); to the sending console, so that its delivery and
 * read states (message push records) follow at once.
 */
export const ImStateNotice = z.object({
  msg_id: z.number().int(),
  uid: z.number().int(),
  state: z.enum(['delivered', 'read']),
  time: z.string(),
});

/** req_send_file_done: the upload `fid` is complete; answers its stored description. */
export const SendFileDoneRequest = z.object({ fid: Fid });
export const SendFileDoneAnswer = z.object({
  fid: z.string(),
  filename: z.string(),
  size: z.number().int(),
  im_type: ImTypeField,
  ourl: z.string(),
  surl: z.string(),
});
export type SendFileDoneAnswer = z.infer<typeof SendFileDoneAnswer>;

/** req_im_list: the conversation with a user or a group, newest first, `count` from `start`. */
export const ImListRequest = z
  .object({
    target: OptionalUid,
    exttarget: OptionalExtId,
    target_type: TargetTypeField.default(ImTargetType.USER),
    start: maybe(numeric(z.number({ error: 'validation.number' }).int({ error: 'validation.integer' }))).transform(
      (v) => Math.max(0, v ?? 0),
    ),
    count: intIn(1, IM_LIST_MAX_COUNT).default(IM_LIST_DEFAULT_COUNT),
  })
  .refine((m) => m.target !== undefined || m.exttarget !== undefined, {
    error: 'validation.required',
    path: ['target'],
  });
export type ImListRequest = z.infer<typeof ImListRequest>;
export const ImListAnswer = z.object({
  total: z.number().int(),
  start: z.number().int(),
  count: z.number().int(),
  im: z.array(ImMessage),
});
export type ImListAnswer = z.infer<typeof ImListAnswer>;

/**
 * req_im_sessions (ours: the spec pages one conversation with req_im_list, but a console that
 * reloads, or a terminal that starts, must find its conversations again, as in every messenger):
 * the caller's conversations with the users and groups it still sees, the most recent first, each
 * with its name, its last message and what is unread (`unread` exact; `unread_ids` the newest of
 * them, at most IM_SESSIONS_UNREAD_IDS). Nothing is marked read: opening one (req_im_list) does.
 */
export const ImSessionsRequest = z.object({
  count: intIn(1, IM_SESSIONS_MAX_COUNT).default(IM_SESSIONS_DEFAULT_COUNT),
});
export type ImSessionsRequest = z.infer<typeof ImSessionsRequest>;
export const ImSession = z.object({
  /** the other user's uid, or the group's tgid */
  target: z.number().int(),
  exttarget: z.string(),
  target_type: TargetTypeField,
  /** the user's display name or the group's name */
  name: z.string(),
  unread: z.number().int(),
  unread_ids: z.array(z.number().int()),
  last: ImMessage,
});
export type ImSession = z.infer<typeof ImSession>;
export const ImSessionsAnswer = z.object({ sessions: z.array(ImSession) });
export type ImSessionsAnswer = z.infer<typeof ImSessionsAnswer>;

/** Answer of a chunk upload (POST) or of its resume query (GET): bytes received so far. */
export const GfileUploadAnswer = z.object({
  fid: z.string(),
  received: z.number().int(),
  size: z.number().int(),
  cmd_status: z.number().int(),
  error_reason: z.string(),
});
export type GfileUploadAnswer = z.infer<typeof GfileUploadAnswer>;
