/** Tables of access requests and share links (migration 0023_evidence_access), merged into db/types.ts `Database`. */
import type { Generated } from 'kysely';

export interface EvidenceAccessRequestTable {
  id: Generated<number>;
  requester_id: number;
  /** the grantee: the requester's unit */
  from_unit_id: number;
  to_unit_id: number;
  /** JSON array of the ids asked for */
  media_ids: string;
  device_id: number | null;
  start_at: string | null;
  end_at: string | null;
  reason: string;
  requested_until: string;
  /** 'pending' | 'approved' | 'refused' | 'withdrawn' */
  state: string;
  created_at: string;
  decided_by: number | null;
  decided_at: string | null;
  note: Generated<string>;
  expires_at: string | null;
}

export interface EvidenceAccessItemTable {
  request_id: number;
  media_id: number;
}

export interface EvidenceShareLinkTable {
  id: Generated<number>;
  token_hash: string;
  password_hash: string;
  recipient: string;
  note: string;
  created_by: number;
  unit_id: number;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  revoked_by: number | null;
  visits: Generated<number>;
  last_visit_at: string | null;
}

export interface EvidenceShareItemTable {
  link_id: number;
  media_id: number;
}

declare module '../../../db/types' {
  interface Database {
    evidence_access_requests: EvidenceAccessRequestTable;
    evidence_access_items: EvidenceAccessItemTable;
    evidence_share_links: EvidenceShareLinkTable;
    evidence_share_items: EvidenceShareItemTable;
  }
}
