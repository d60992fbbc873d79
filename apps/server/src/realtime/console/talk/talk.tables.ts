/** Table of group talk and calls (migrations 0014_talk_records, 0015_call_records), merged into `Database`. */
export interface TalkRecordTable {
  refid: string;
  /** 'group' (a burst) or 'call' (one direction of a call; tgid is the call id) */
  kind: 'group' | 'call';
  tgid: number;
  tg_name: string;
  unit_id: number;
  uid: number;
  ext_id: string;
  name: string;
  emergency: number;
  /** epoch ms (bigint) */
  start_ms: number;
  stop_ms: number;
  frames: number;
  bytes: number;
  /** the Ogg Opus file, relative to DATA_DIR */
  path: string;
  /** a call: the party who heard it */
  peer_uid: number | null;
  peer_ext_id: string | null;
  peer_name: string | null;
}

declare module '../../../db/types' {
  interface Database {
    talk_records: TalkRecordTable;
  }
}
