/** Table of group talk (migration 0014_talk_records), merged into `Database`. */
export interface TalkRecordTable {
  refid: string;
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
}

declare module '../../../db/types' {
  interface Database {
    talk_records: TalkRecordTable;
  }
}
