import type { Generated, Selectable } from 'kysely';

/** Tables of the console service (migration 0007_console_service), merged into `Database`. */

export type LoginStatus = 'active' | 'ended' | 'taken_over';

export interface ConsoleLoginTable {
  id: Generated<number>;
  /** sha256 hex of the login token */
  token_hash: string;
  uid: number;
  ext_id: string;
  user_type: number;
  user_id: number | null;
  session_id: number | null;
  device_id: number | null;
  clientid: string;
  console_name: string;
  alive_minutes: number;
  login_time: string;
  /** the connection's last sign of life, written at most every LOGIN_TOUCH_MS, and at its close */
  last_seen: string;
  status: LoginStatus;
  /** the cluster node whose connection holds the login now (null: none; 0012) */
  node: string | null;
  ended: string;
}

export interface ConsoleParamsTable {
  uid: number;
  /** JSON object */
  paraminfo: string;
  updated_by: number;
  updated: string;
}

export interface ConsoleAdminUserTable {
  console_uid: number;
  uid: number;
  created: string;
}

export interface ConsoleGroupAttachTable {
  uid: number;
  tgid: number;
  speak: number;
  hear: number;
  updated: string;
}

export interface ConsoleFileTable {
  fid: string;
  owner_uid: number;
  filename: string;
  im_type: number;
  size: number;
  received: number;
  created: string;
  /** '' while uploading */
  completed: string;
}

export interface ConsoleImTable {
  id: Generated<number>;
  from_uid: number;
  from_ext_id: string;
  from_name: string;
  target: number;
  exttarget: string;
  target_type: number;
  im_type: number;
  content: string;
  fid: string;
  filename: string;
  size: number;
  client_time: string;
  created: string;
}

export interface ConsoleImRecipientTable {
  im_id: number;
  uid: number;
  /** '' until it was sent to the recipient's connection */
  delivered: string;
  /** '' until the recipient listed the conversation */
  read: string;
}

export interface ConsoleVideoTable {
  videoid: string;
  device_id: number;
  name: string;
  url: string;
  starttime: string;
  endtime: string;
  size: number;
  transform_url: string;
  transform_by: number | null;
  transform_time: string;
  created: string;
}

export interface ConsoleMediaRequestTable {
  id: Generated<number>;
  /** the request's msg_code (req_call, req_ptt_on, ...) */
  code: string;
  from_uid: number;
  /** the user a call or video request is for (null: a group request, or DTMF) */
  target_uid: number | null;
  /** the group of a talk or conference request */
  tgid: number | null;
  /** the request's fields as validated (JSON) */
  payload: string;
  /** the answer it got: `not_available` until its media lands */
  outcome: string;
  created: string;
}

export type ConsoleLoginRow = Selectable<ConsoleLoginTable>;
export type ConsoleImRow = Selectable<ConsoleImTable>;
export type ConsoleFileRow = Selectable<ConsoleFileTable>;
export type ConsoleVideoRow = Selectable<ConsoleVideoTable>;

declare module '../../db/types' {
  interface Database {
    console_logins: ConsoleLoginTable;
    console_params: ConsoleParamsTable;
    console_admin_users: ConsoleAdminUserTable;
    console_group_attach: ConsoleGroupAttachTable;
    console_files: ConsoleFileTable;
    console_im: ConsoleImTable;
    console_im_recipients: ConsoleImRecipientTable;
    console_videos: ConsoleVideoTable;
    console_media_requests: ConsoleMediaRequestTable;
  }
}
