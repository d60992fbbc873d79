import type { Generated, Selectable } from 'kysely';

/**
 * Tables of the alarms module (migration 0006_alarms), merged into the `Database` interface of
 * db/types.ts by declaration merging.
 */
export interface AlarmTable {
  id: Generated<number>;
  /** source event id, unique: sos:<device_events.id>, fence:<fence_events.id>, offline:<device>:<time>, ai:<engine id> */
  eid: string;
  /** alarm_type dictionary key */
  type: string;
  /** criticle | middle | normal (from alarmset.type_levels at ingest) */
  alerm_level: string;
  device_id: number | null;
  unit_id: number;
  hostname: string;
  hostcode: string;
  hostbody: string;
  /** source time, ISO */
  alarm_time: string;
  /** stored, ISO */
  insert_time: string;
  lat: number | null;
  lng: number | null;
  message: string;
  fence_name: string;
  /** enter | exit | '' */
  fence_direction: string;
  /** JSON AlarmPicture without id/eid/type, '' when none */
  picture: string;
  /** acknowledged (global) */
  sure: number;
  sure_user_id: number | null;
  sure_user: string;
  sure_note: string;
  sure_time: string;
  /** AckType of the acknowledgement; null while open or when acknowledged before it was recorded */
  sure_type: number | null;
}

/** "read" is per console user: one row per (alarm, user) marked one by one. */
export interface AlarmReadTable {
  alarm_id: number;
  user_id: number;
  read_time: string;
}

/** "mark all read": every alarm with id <= read_upto counts as read for the user. */
export interface AlarmReadMarkTable {
  user_id: number;
  read_upto: number;
  updated: string;
}

export type AlarmRow = Selectable<AlarmTable>;

declare module '../../db/types' {
  interface Database {
    alarms: AlarmTable;
    alarm_reads: AlarmReadTable;
    alarm_read_marks: AlarmReadMarkTable;
  }
}
