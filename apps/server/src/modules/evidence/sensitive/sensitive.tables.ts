/** Tables of the sensitive-word list (migration 0021_evidence_retention), merged into `Database`. */
import type { Generated } from 'kysely';

export interface EvidenceSensitiveWordTable {
  id: Generated<number>;
  /** as typed */
  word: string;
  /** lower case: unique */
  word_key: string;
  updated: string;
}

declare module '../../../db/types' {
  interface Database {
    evidence_sensitive_words: EvidenceSensitiveWordTable;
  }
}

declare module '../evidence.tables' {
  interface EvidenceItemTable {
    /** marked sensitive by hand (0 by default); `sensitive` is this or a word match */
    sensitive_manual?: number;
  }
}
