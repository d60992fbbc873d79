import type { PushMessage, PushRecipient, PushSend } from '@bwc/protocol';
import type { MessageListRow, RecipientRow, SendListRow } from './messages.repository';

/** The only paths from message-push rows to the wire (author and sender ids stay inside). */

export function presentPushMessage(row: MessageListRow, stats: { count: number; last: string } | undefined): PushMessage {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    unit_id: row.unit_id,
    unitname: row.unitname,
    author: row.author,
    create_time: row.created,
    update_time: row.updated,
    send_count: stats?.count ?? 0,
    last_send: stats?.last ?? null,
  };
}

export function presentSend(
  row: SendListRow,
  counts: { total: number; delivered: number; read: number } | undefined,
): PushSend {
  return {
    id: row.id,
    messid: row.message_id,
    title: row.title,
    content: row.content,
    sender: row.sender,
    unitname: row.unitname,
    send_time: row.created,
    total: counts?.total ?? 0,
    delivered: counts?.delivered ?? 0,
    read: counts?.read ?? 0,
  };
}

export function presentRecipient(row: RecipientRow, online: boolean): PushRecipient {
  return {
    uid: row.uid,
    hostname: row.hostname,
    hostbody: row.hostbody,
    jq_hostcode: row.jq_hostcode,
    unitname: row.unitname ?? '',
    delivered: row.delivered || null,
    read: row.read || null,
    online: online ? 1 : 0,
  };
}
