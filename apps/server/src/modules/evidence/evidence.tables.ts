/** Tables of evidence (migration 0016_evidence), merged into db/types.ts `Database`. */
import type { Generated } from 'kysely';

export interface EvidenceItemTable {
  id: Generated<number>;
  /** SHA-256 hex of the original, its name in the content store */
  sha256: string;
  size: number;
  /** 1 video, 2 audio, 3 image */
  media_type: number;
  mime: string;
  ext: string;
  file_name: string;
  title: string;
  description: string;
  category: string;
  incident_no: string;
  /** 'device' | 'workstation' | 'console' | 'live' */
  source: string;
  outside: number;
  device_id: number | null;
  hostbody: string;
  workstation_id: number | null;
  /** the officer: the device's owner or the uploading user */
  user_id: number | null;
  /** the console user who uploaded it, null for devices */
  uploaded_by: number | null;
  unit_id: number;
  recorded_at: string;
  uploaded_at: string;
  duration: number | null;
  width: number | null;
  height: number | null;
  video_codec: string;
  audio_codec: string;
  thumb_sha256: string | null;
  derivative_sha256: string | null;
  /** 'ready' | 'pending' | 'failed' | 'none' */
  playable: string;
  flg: number;
  flg_note: string;
  score: number | null;
  sensitive: number;
  linked: number;
  origin_key: string | null;
  deleted_at: string | null;
  deleted_by: number | null;
  delete_reason: string;
  /** the alarm whose live recording this is (0025), null otherwise */
  alarm_id: number | null;
  /** head of the custody chain: last seq and its hash */
  custody_seq: Generated<number>;
  custody_hash: Generated<string>;
}

export interface EvidenceUploadTable {
  /** the tus upload id */
  id: string;
  owner_kind: 'user' | 'device' | 'workstation';
  owner_id: number;
  origin_key: string | null;
  /** JSON of the validated UploadMetadata */
  metadata: string;
  length: number;
  created: string;
  updated: string;
  state: 'open' | 'done' | 'failed';
  item_id: number | null;
  error: string;
}

export interface EvidenceRevisionTable {
  id: Generated<number>;
  media_id: number;
  kind: 'revise' | 'delete' | 'revert' | 'harddel';
  user_id: number | null;
  unit_id: number | null;
  at: string;
  reason: string;
  /** JSON [{field, before, after}] */
  changes: string;
  media_title: string;
}

export interface EvidenceCustodyTable {
  id: Generated<number>;
  media_id: number;
  /** 1, 2, ... per item; unique with media_id */
  seq: number;
  action: string;
  user_id: number | null;
  actor: string;
  unit_id: number | null;
  at: string;
  ip: string;
  /** JSON */
  detail: string;
  prev_hash: string;
  hash: string;
}

declare module '../../db/types' {
  interface Database {
    evidence_items: EvidenceItemTable;
    evidence_uploads: EvidenceUploadTable;
    evidence_revisions: EvidenceRevisionTable;
    evidence_custody: EvidenceCustodyTable;
  }
}
