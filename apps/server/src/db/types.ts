import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table types of the Kysely `Database`. Conventions (both dialects):
 * - ids are autoincrement integers (`modules.id` is the protocol's menu id and is not generated);
 * - flags are integers 0/1; timestamps are ISO-8601 UTC strings (`new Date().toISOString()`),
 *   which sort and compare correctly as text;
 * - JSON is stored as text and parsed in repositories.
 */
type Id = Generated<number>;

export interface UnitTable {
  id: Id;
  /** parent unit id; 0 for a root unit */
  pid: number;
  /** unit code (dwbh / scode), unique */
  bh: string;
  name: string;
  sort: number;
  created: string;
}

export interface RoleTable {
  id: Id;
  name: string;
  /** higher weight ranks first in lists */
  weight: number;
  remark: string;
  created: string;
}

export interface RolePermissionTable {
  role_id: number;
  module_id: number;
  view: number;
  edit: number;
  add: number;
}

export interface ModuleTable {
  /** menu id (protocol MODULES) */
  id: number;
  bh: string;
  pid: number;
  key: string;
  path: string;
  sort: number;
}

export type UserStatus = 'enabled' | 'disabled';

export interface UserTable {
  id: Id;
  username: string;
  /** argon2id of sha256(password) */
  password_hash: string;
  /** the person's display name */
  hostname: string;
  unit_id: number;
  role_id: number;
  ifadmin: number;
  status: UserStatus;
  phone: string;
  created: string;
  updated: string;
}

export type SessionStatus = 'active' | 'kicked' | 'ended';

export interface SessionTable {
  id: Id;
  /** sha256 hex of the bearer/cookie token; the token itself is never stored */
  token_hash: string;
  user_id: number;
  ip: string;
  user_agent: string;
  pe_signals: string;
  /** realtime login code of the session push channel */
  logincode: string;
  status: SessionStatus;
  created: string;
  last_seen: string;
  ended: string | null;
}

export interface LoginFailureTable {
  id: Id;
  username: string;
  ip: string;
  created: string;
}

export interface CaptchaTable {
  token: string;
  text: string;
  expires: string;
}

export interface SettingTable {
  /** settings type (protocol SETTINGS_TYPES, plus 'play') */
  type: string;
  /** JSON */
  value: string;
  updated: string;
}

export interface LicenceTable {
  /** always 1: a single row */
  id: number;
  regist_code: string;
  /** JSON LicencePayload */
  payload: string;
  registered_at: string;
}

export interface OperationLogTable {
  id: Id;
  user_id: number | null;
  username: string;
  unit_id: number | null;
  unit_name: string;
  /** endpoint path, e.g. /rest/system/announce/add */
  action: string;
  /** target id when there is one */
  target: string;
  ip: string;
  result_code: number;
  /** the result msg in the actor's language */
  msg: string;
  /** its catalogue key ('' for rows written before 0008) and params (JSON, '' none) */
  msg_key: Generated<string>;
  msg_params: Generated<string>;
  created: string;
}

export interface AnnouncementTable {
  id: Id;
  title: string;
  content: string;
  /** protocol AnnounceStatus: 0 draft, 1 published */
  status: number;
  author_id: number | null;
  /** display name of the author when written (kept if the user is removed) */
  author: string;
  created: string;
  updated: string;
  /** first publication time, null while a draft */
  published: string | null;
}

export interface DownloadTable {
  id: Id;
  name: string;
  description: string;
  version: string;
  /** the uploader's file name, shown and sent in content-disposition; never used as a path */
  file_name: string;
  /** generated file name under DATA_DIR/downloads */
  stored_name: string;
  /** bytes (bigint on PostgreSQL, parsed to number) */
  file_size: number;
  sha256: string;
  is_index: number;
  creator_id: number | null;
  created: string;
  updated: string;
}

export interface DictTypeTable {
  /** type code (protocol DICT_TYPES) */
  code: string;
  name: string;
  name_en: string;
  sort: number;
}

export interface DictEntryTable {
  id: Id;
  /** dict_types.code */
  type: string;
  key: string;
  label: string;
  label_en: string;
  sort: number;
  enabled: number;
  /** 1: seeded, the system relies on it (cannot be deleted) */
  builtin: number;
  created: string;
  updated: string;
}

/** A body-worn camera (recorder); latest state and position kept on the row (WGS-84). */
export interface DeviceTable {
  id: Id;
  /** host body number, also `did` on the wire */
  hostbody: string;
  imei: string;
  hostcode: string;
  hostname: string;
  jq_hostcode: string;
  unit_id: number;
  model_id: number | null;
  owner_id: number | null;
  remark: string;
  /** JSON array [category, flag1, flag2, flag3] */
  typecate: string;
  lineon: number;
  remote_kill: number;
  lat: number | null;
  lng: number | null;
  speed: number | null;
  course: number | null;
  accuracy: number | null;
  battery: number | null;
  gps_time: string | null;
  last_seen: string | null;
  /** sha256 hex of the device API secret (a random 256-bit value) */
  secret_hash: string;
  /** sha256 hex of the current device token, null before the first device login */
  token_hash: string | null;
  created: string;
  updated: string;
}

export interface RecorderModelTable {
  id: Id;
  name: string;
  vendor: string;
  remark: string;
  created: string;
  updated: string;
}

export interface PositionTable {
  id: Id;
  device_id: number;
  /** fix time, ISO */
  time: string;
  lat: number;
  lng: number;
  speed: number | null;
  course: number | null;
  accuracy: number | null;
  battery: number | null;
  received: string;
}

export interface DeviceEventTable {
  id: Id;
  device_id: number;
  unit_id: number;
  /** sos | online | offline | remote_kill | remote_wakeon */
  type: string;
  time: string;
  lat: number | null;
  lng: number | null;
  /** JSON */
  payload: string;
  created: string;
}

export interface DeviceCommandTable {
  id: Id;
  device_id: number;
  type: string;
  /** pending (not yet acknowledged) | ok | failed */
  status: string;
  user_id: number | null;
  result_msg: string;
  created: string;
  delivered: string | null;
  acked: string | null;
}

export interface Database {
  units: UnitTable;
  roles: RoleTable;
  role_permissions: RolePermissionTable;
  modules: ModuleTable;
  users: UserTable;
  sessions: SessionTable;
  login_failures: LoginFailureTable;
  captchas: CaptchaTable;
  settings: SettingTable;
  licence: LicenceTable;
  operation_log: OperationLogTable;
  announcements: AnnouncementTable;
  downloads: DownloadTable;
  dict_types: DictTypeTable;
  dict_entries: DictEntryTable;
  recorder_models: RecorderModelTable;
  devices: DeviceTable;
  positions: PositionTable;
  device_events: DeviceEventTable;
  device_commands: DeviceCommandTable;
}

export type UnitRow = Selectable<UnitTable>;
export type RoleRow = Selectable<RoleTable>;
export type UserRow = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type UserUpdate = Updateable<UserTable>;
export type SessionRow = Selectable<SessionTable>;
export type OperationLogRow = Selectable<OperationLogTable>;
export type AnnouncementRow = Selectable<AnnouncementTable>;
export type DownloadRow = Selectable<DownloadTable>;
export type Timestamp = ColumnType<string, string, string>;
export type DeviceRow = Selectable<DeviceTable>;
