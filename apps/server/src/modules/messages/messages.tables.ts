import type { Generated, Selectable } from 'kysely';

/** Tables of message push (migration 0009_message_push), merged into the `Database` interface of db/types.ts. */

export interface PushMessageTable {
  id: Generated<number>;
  title: string;
  content: string;
  /** the author's unit: who may see, edit and send it */
  unit_id: number;
  author_id: number | null;
  author: string;
  created: string;
  updated: string;
}

export interface PushSendTable {
  id: Generated<number>;
  message_id: number;
  /** title and content as sent (a later edit of the message does not change them) */
  title: string;
  content: string;
  /** the sender's unit: who may see the send */
  unit_id: number;
  sender_id: number | null;
  sender: string;
  created: string;
}

export interface PushSendRecipientTable {
  send_id: number;
  /** the terminal's console-service uid (its device id) */
  uid: number;
  /** the instant message that carries the send to this terminal (its recipient row: delivered, read) */
  im_id: number;
  unit_id: number;
  hostname: string;
  hostbody: string;
  jq_hostcode: string;
}

declare module '../../db/types' {
  interface Database {
    push_messages: PushMessageTable;
    push_sends: PushSendTable;
    push_send_recipients: PushSendRecipientTable;
  }
}

export type PushMessageRow = Selectable<PushMessageTable>;
export type PushSendRow = Selectable<PushSendTable>;
