import type { Generated, Selectable } from 'kysely';

/**
 * Tables of the talk groups (created by migration 0005_geo), merged into the `Database` interface
 * of db/types.ts. The dispatch map's groups and the console service's groups are these rows.
 */
export interface TalkGroupTable {
  id: Generated<number>;
  name: string;
  ext_tgid: string;
  /** 1 fixed, 0 temporary */
  preconfig: number;
  unit_id: number;
  remark: string;
  created_by: number | null;
  /** ISO; null for fixed groups */
  expires: string | null;
  created: string;
  updated: string;
}

export interface TalkGroupMemberTable {
  group_id: number;
  device_id: number;
}

declare module '../../db/types' {
  interface Database {
    talk_groups: TalkGroupTable;
    talk_group_members: TalkGroupMemberTable;
  }
}

export type TalkGroupRow = Selectable<TalkGroupTable>;
