/** Table of docking workstations (migration 0022_workstations), merged into db/types.ts `Database`. */
import type { Generated } from 'kysely';

export interface WorkstationTable {
  id: Generated<number>;
  name: string;
  code: string;
  unit_id: number;
  ip: string;
  remark: string;
  /** sha256 hex of the secret */
  secret_hash: string;
  /** sha256 hex of the bearer token of the last login */
  token_hash: string | null;
  last_seen: string | null;
  last_ip: string;
  disk_free: number | null;
  /** JSON array of hostbodies */
  docked: string;
  created: string;
  updated: string;
}

declare module '../../db/types' {
  interface Database {
    workstations: WorkstationTable;
  }
}
