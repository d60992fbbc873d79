import { z } from 'zod';
import { PageQuery } from '../envelope';
import { numberInput } from './inputs';

/**
 * Message push (/dispatch/msgManage, menu 10105; spec part 2 section 7.2 "Messages": gismessage
 * messlist, add, edit, saveEdit, del; gismessagesend sendlist, send; gismessagesendlist/messglist).
 * The spec names the calls only; their fields are ours. A message (title and content) belongs to
 * the unit of the user who wrote it. Sending it delivers it now to terminals (devices with a
 * cluster number, jq_hostcode) through the console service as an instant message (notice_im, text)
 * from the sender's console account; a terminal not logged on to the service gets it when it next
 * logs on. Each send keeps the text as sent and one row per recipient: delivered (the notice went
 * to the terminal's connection) and read (the terminal listed the conversation, req_im_list).
 * Unit scope: messages and sends of the caller's units, terminals of the caller's units only.
 */

export const MESSAGE_TITLE_MAX = 50;
export const MESSAGE_CONTENT_MAX = 1_000;
/** Terminals one send may address. */
export const MESSAGE_RECIPIENTS_MAX = 500;
/** How often the records dialog re-reads delivery and read states while it is open (ours). */
export const MESSAGE_STATE_REFRESH_MS = 3_000;

const positiveId = numberInput(
  z
    .number({ error: 'validation.required' })
    .int({ error: 'validation.integer' })
    .positive({ error: 'validation.range' }),
);
/** A missing list is required, anything else that is not a list has the wrong type. */
const listError = (issue: { input?: unknown }) => (issue.input === undefined ? 'validation.required' : 'validation.type');
const text = (max: number) =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(max, { error: 'validation.tooLong' });

/** A stored message (gismessage). */
export const PushMessage = z.object({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  unit_id: z.number().int(),
  unitname: z.string(),
  author: z.string(),
  create_time: z.string(),
  update_time: z.string(),
  /** how many times it was sent */
  send_count: z.number().int(),
  /** ISO time of its last send, null before the first */
  last_send: z.string().nullable(),
});
export type PushMessage = z.infer<typeof PushMessage>;

/** POST rest/gis/gismessage/messlist: messages of the caller's units, newest first; `keyword` in title or content. */
export const MessListRequest = PageQuery.extend({
  keyword: z.string({ error: 'validation.type' }).trim().max(100, { error: 'validation.tooLong' }).optional(),
});
export type MessListRequest = z.infer<typeof MessListRequest>;

/** POST rest/gis/gismessage/add */
export const MessageAddRequest = z.object({ title: text(MESSAGE_TITLE_MAX), content: text(MESSAGE_CONTENT_MAX) });
export type MessageAddRequest = z.infer<typeof MessageAddRequest>;

/** POST rest/gis/gismessage/edit: the stored message, to edit it. */
export const MessageIdRequest = z.object({ id: positiveId });
export type MessageIdRequest = z.infer<typeof MessageIdRequest>;

/** POST rest/gis/gismessage/saveEdit: earlier sends keep the text they carried. */
export const MessageSaveEditRequest = MessageAddRequest.extend({ id: positiveId });
export type MessageSaveEditRequest = z.infer<typeof MessageSaveEditRequest>;

/** POST rest/gis/gismessage/del: with their send records. */
export const MessageDelRequest = z.object({
  ids: z
    .array(positiveId, { error: listError })
    .min(1, { error: 'validation.required' })
    .max(500, { error: 'validation.tooLong' }),
});
export type MessageDelRequest = z.infer<typeof MessageDelRequest>;

/** A send of a message (gismessagesend) with its delivery counts. */
export const PushSend = z.object({
  id: z.number().int(),
  messid: z.number().int(),
  /** title and content as sent */
  title: z.string(),
  content: z.string(),
  sender: z.string(),
  unitname: z.string(),
  send_time: z.string(),
  total: z.number().int(),
  delivered: z.number().int(),
  read: z.number().int(),
});
export type PushSend = z.infer<typeof PushSend>;

/** POST rest/gis/gismessagesend/sendlist: sends made in the caller's units, newest first; `messid`: of one message. */
export const SendListRequest = PageQuery.extend({ messid: positiveId.optional() });
export type SendListRequest = z.infer<typeof SendListRequest>;

/**
 * POST rest/gis/gismessagesend/send: send message `messid` now to the terminals `device` (device
 * ids, hostid as the group edit names them). Every one must exist, have a cluster number and be
 * in the caller's units; otherwise nothing is sent and the refusal names them.
 */
export const SendRequest = z.object({
  messid: positiveId,
  device: z
    .array(positiveId, { error: listError })
    .min(1, { error: 'validation.required' })
    .max(MESSAGE_RECIPIENTS_MAX, { error: 'validation.tooLong' }),
});
export type SendRequest = z.infer<typeof SendRequest>;

/** One terminal of a send (gismessagesendlist) and its state. */
export const PushRecipient = z.object({
  uid: z.number().int(),
  hostname: z.string(),
  hostbody: z.string(),
  jq_hostcode: z.string(),
  unitname: z.string(),
  /** ISO time the message reached the terminal's connection, null while it waits for a logon */
  delivered: z.string().nullable(),
  /** ISO time the terminal listed it (req_im_list), null until then */
  read: z.string().nullable(),
  /** 1 while the terminal is logged on to the console service */
  online: z.number().int(),
});
export type PushRecipient = z.infer<typeof PushRecipient>;

/** POST rest/gis/gismessagesendlist/messglist: the terminals of send `sendid` that the caller's units hold. */
export const MessgListRequest = PageQuery.extend({
  sendid: positiveId,
  limit: z.coerce.number().int().min(1).max(MESSAGE_RECIPIENTS_MAX).default(MESSAGE_RECIPIENTS_MAX),
});
export type MessgListRequest = z.infer<typeof MessgListRequest>;
