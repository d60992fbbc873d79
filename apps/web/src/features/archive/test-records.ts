import type { CaseRecord } from '@bwc/protocol';

/** An incident as the server lists it (test data of the archive unit tests only); `extra` makes other kinds. */
export function testRecord(id: number, extra: Partial<CaseRecord> = {}): CaseRecord {
  return {
    id,
    kind: 'incident',
    no: `JQ-${id}`,
    title: `incident ${id}`,
    content: '',
    place: 'Shennan Rd',
    occurred_at: '2026-11-20T08:00:00Z',
    reporter: '',
    reporter_phone: '',
    unit_id: 2,
    unit_name: 'Futian',
    created_by_name: 'Li',
    created_at: '2026-11-20T08:05:00Z',
    state: 'open',
    cancel_reason: '',
    cancelled_at: null,
    cancelled_by_name: '',
    case_id: null,
    case_no: '',
    media_count: 0,
    incident_count: 0,
    archive_no: '',
    archive_state: 'none',
    keep_years: 0,
    archive_note: '',
    archived_at: null,
    officer_id: null,
    officer_name: '',
    violation_type: '',
    sample: 0,
    ...extra,
  };
}
