/** The retention policy table (migration 0021_evidence_retention), merged into `Database`. */
export interface EvidenceRetentionTable {
  /** a media_category dictionary key */
  category: string;
  days: number;
  updated: string;
}

declare module '../../../db/types' {
  interface Database {
    evidence_retention: EvidenceRetentionTable;
  }
}
