/** Tables of scores and random checks (migration 0020_evidence_review), merged into db/types.ts `Database`. */
import type { Generated } from 'kysely';

export interface EvidenceRubricTable {
  id: Generated<number>;
  name_zh: string;
  name_en: string;
  /** JSON [{key, label_zh, label_en, max}] */
  criteria: string;
  active: number;
  updated: string;
  /** id of the rubric's first version (0027_rubric_versions) */
  root_id: number;
  version: number;
}

export interface EvidenceScoreTable {
  id: Generated<number>;
  media_id: number;
  user_id: number;
  user_name: string;
  rubric_id: number;
  /** JSON [{key, score}] */
  items: string;
  comment: string;
  total: number;
  max_total: number;
  at: string;
  /** 1 current, 0 replaced */
  current: number;
}

export interface EvidenceCheckBatchTable {
  id: Generated<number>;
  unit_id: number;
  created_by: number;
  created_by_name: string;
  created_at: string;
  note: string;
  /** uint32 (bigint: PostgreSQL answers it as a string) */
  seed: number | string;
  max_media_id: number;
  /** JSON CheckFilters */
  filters: string;
  requested: number;
  drawn: number;
}

export interface EvidenceCheckItemTable {
  batch_id: number;
  media_id: number;
  pos: number;
  /** 'pending' | 'pass' | 'fail' | 'doubtful' */
  result: string;
  note: string;
  checked_by: number | null;
  checked_by_name: string;
  checked_at: string | null;
}

declare module '../../../db/types' {
  interface Database {
    evidence_rubrics: EvidenceRubricTable;
    evidence_scores: EvidenceScoreTable;
    evidence_check_batches: EvidenceCheckBatchTable;
    evidence_check_items: EvidenceCheckItemTable;
  }
}
