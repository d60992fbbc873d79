import { CmdType, type ImMessage } from '@bwc/protocol';
import type { Connection } from './connection';
import { downloadUrl } from './files';
import { claimDelivery, releaseDelivery, undelivered } from './im.repository';
import type { ConsoleImRow } from './console.tables';
import { isConsoleUid, type Login } from './login';
import type { ConsoleService } from './service';

/** Messages delivered per batch at logon (the rest follow in the next batches). */
const BACKLOG_BATCH = 200;

export function presentMessage(row: ConsoleImRow, imType = row.im_type): ImMessage {
  const url = row.fid ? downloadUrl(row.fid) : '';
  return {
    msg_id: row.id,
    from: row.from_uid,
    extfrom: row.from_ext_id,
    from_name: row.from_name,
    target: row.target,
    exttarget: row.exttarget,
    target_type: row.target_type as 0 | 1,
    im_type: imType as 1 | 2 | 3 | 4,
    content: row.content,
    time: row.created,
    filename: row.filename,
    size: row.size,
    fid: row.fid,
    ourl: url,
    surl: row.fid && imType === 2 ? url : '',
  };
}

/**
 * Delivery of instant messages: a stored message is published on the bus (`console.im`); each
 * node sends notice_im to its connections of the recipients and records the delivery. A recipient
 * that is not logged on gets its messages in order at its next logon (or resume). Each delivery is
 * claimed in the database first, so that the live push and the logon delivery never both send it.
 */
export class ImDelivery {
  constructor(private readonly service: ConsoleService) {}

  private async send(conn: Connection, login: Login, row: ConsoleImRow): Promise<void> {
    const db = this.service.deps.db;
    if (!conn.open || !(await claimDelivery(db, row.id, login.uid))) return;
    // the socket closed while the claim was written: the message waits for the next logon
    if (!conn.send(JSON.stringify({ im: presentMessage(row), msg_code: 'notice_im', cmd_type: CmdType.NOTICE }))) {
      await releaseDelivery(db, row.id, login.uid);
      return;
    }
    // a console's message: its sender sees the delivery at once (message push records)
    if (isConsoleUid(row.from_uid))
      this.service.notify({ uids: [row.from_uid] }, 'notice_im_state', {
        msg_id: row.id,
        uid: login.uid,
        state: 'delivered',
        time: new Date().toISOString(),
      });
  }

  /** A message was stored: deliver it to this node's connections of its recipients. */
  async deliver(row: ConsoleImRow, recipients: readonly number[]): Promise<void> {
    for (const uid of recipients) {
      const conn = this.service.connectionOf(uid);
      if (conn?.login) await this.send(conn, conn.login, row);
    }
  }

  /** A login was bound: send what it missed, oldest first. */
  async backlog(conn: Connection, login: Login): Promise<number> {
    let sent = 0;
    for (;;) {
      const rows = await undelivered(this.service.deps.db, login.uid, BACKLOG_BATCH);
      for (const row of rows) {
        if (conn.login !== login) return sent;
        await this.send(conn, login, row);
        sent += 1;
      }
      if (rows.length < BACKLOG_BATCH) return sent;
    }
  }
}
