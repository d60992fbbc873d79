/** Tables of incidents, cases and files (migration 0018_evidence_cases), merged into db/types.ts `Database`. */
import type { Generated, Selectable } from 'kysely';

export interface EvidenceCaseTable {
  id: Generated<number>;
  /** 'incident' | 'case' | 'violation' */
  kind: string;
  no: string;
  title: string;
  content: string;
  place: string;
  occurred_at: string;
  reporter: string;
  reporter_phone: string;
  unit_id: number;
  created_by: number | null;
  created_by_name: string;
  created_at: string;
  /** 'open' | 'cancelled' */
  state: string;
  cancel_reason: string;
  cancelled_at: string | null;
  cancelled_by_name: string;
  /** incidents: the case that includes it */
  case_id: number | null;
  archive_no: string;
  /** 'none' | 'archived' */
  archive_state: string;
  keep_years: number;
  archive_note: string;
  archived_at: string | null;
  /** violations: the officer in breach, his name then, the kind of breach (0026) */
  officer_id: number | null;
  officer_name: string;
  violation_type: string;
}

/** Cases kept as teaching samples (0026). */
export interface EvidenceCaseSampleTable {
  case_id: number;
  summary: string;
  marked_by: number | null;
  marked_by_name: string;
  marked_at: string;
}

export interface EvidenceCaseMediaTable {
  case_id: number;
  media_id: number;
  linked_at: string;
  linked_by: number | null;
}

export interface EvidenceCaseSendTable {
  case_id: number;
  device_id: number;
  hostname: string;
  hostbody: string;
  /** the console-service instant message that carries it */
  im_id: number;
  sender: string;
  sent_at: string;
}

export type EvidenceCaseRow = Selectable<EvidenceCaseTable>;

declare module '../../../db/types' {
  interface Database {
    evidence_cases: EvidenceCaseTable;
    evidence_case_media: EvidenceCaseMediaTable;
    evidence_case_sends: EvidenceCaseSendTable;
    evidence_case_samples: EvidenceCaseSampleTable;
  }
}
