import { z } from 'zod';
import { PageQuery } from '../envelope';
import { EVIDENCE_BULK_MAX, MediaItem } from './evidence';
import { DateTimeInput, numberInput, optionalId, optionalInput } from './inputs';

/**
 * Incidents, cases and law-enforcement files (issue 15 section 3; spec part 2 section 7.3
 * /rest/yw/jingqing, /rest/yw/anjian, /rest/yw/violation, rest/yw/zfda; screens /data/archive/*).
 * The spec shows only paths; the payloads are designed here.
 *
 * - An incident (警情, `kind: 'incident'`) is a police call-out: its number (接警单编号, given by
 *   the dispatch system or generated `JQyyyyMMddHHmmss<nn>`), title, place, time, the unit that
 *   handles it. A case (案件, `kind: 'case'`) is opened from incidents: it can include incidents
 *   of its unit's scope. A violation record (违规记录 / 执法过错, `kind: 'violation'`) is an officer's
 *   breach of the rules of law enforcement found by a supervisor reviewing recordings (recording
 *   not started, camera covered, rude language...): the officer, his unit, the time, the kind of
 *   breach (`VIOLATION_TYPES`), a description and the items that show it linked. It is closed
 *   with the handling result, or cancelled with a reason.
 * - Records belong to a unit; a caller sees and changes those of his unit and its sub-units (an
 *   id outside them answers "not found"). Cancelling keeps the record, listed as cancelled, with
 *   the reason; a cancelled record cannot be changed or linked any more.
 * - Media items of the caller's units are linked to a record (mediaview_write); an item is
 *   `linked` while any record links it, and every link and unlink is on its chain of custody. An
 *   item linked to an open case (directly or through an incident of the case) is exempt from
 *   retention.
 * - The law-enforcement file (执法档案, zfda) of a record is the record with its media, its
 *   incidents (cases) and its archive fields: archive number, state, keeping period, note.
 *
 * - A case sample (典型案例, anjian/sample_*) is a case kept as a teaching example, with a summary
 *   of why; listed with its linked media on /data/archive/sample.
 *
 * Menus: incidents, violations and files of incidents 10221 (/data/archive/lawDoc); cases and
 * their files 10223 (/data/archive/case); samples 10224 (/data/archive/sample: view lists them,
 * add marks a case, edit unmarks). Alarm recordings 10222 are a library view.
 */

export const CASE_KINDS = ['incident', 'case', 'violation'] as const;
export const CaseKind = z.enum(CASE_KINDS);
export type CaseKind = z.infer<typeof CaseKind>;

/** 'closed': a violation record whose handling is done (only violations are closed). */
export const CASE_STATES = ['open', 'cancelled', 'closed'] as const;
export const CaseState = z.enum(CASE_STATES);
export type CaseState = z.infer<typeof CaseState>;

/** Archive state of a file: not yet archived, archived (归档). */
export const ARCHIVE_STATES = ['none', 'archived'] as const;
export const ArchiveState = z.enum(ARCHIVE_STATES);
export type ArchiveState = z.infer<typeof ArchiveState>;

/** Kinds of violation records (a fixed list; the console names them). */
export const VIOLATION_TYPES = [
  'not_recorded',
  'incomplete',
  'covered',
  'no_identity',
  'rude_language',
  'procedure',
  'device_misuse',
  'other',
] as const;
export const ViolationType = z.enum(VIOLATION_TYPES, { error: 'validation.choice' });
export type ViolationType = z.infer<typeof ViolationType>;

export const CASE_NO_MAX = 40;
export const CASE_TITLE_MAX = 100;
export const CASE_TEXT_MAX = 2000;
export const CASE_PLACE_MAX = 200;
export const CASE_REASON_MAX = 200;
/** Most incidents one case includes when added. */
export const CASE_INCIDENTS_MAX = 100;
/** Most terminals one incident is sent to at a time. */
export const CASE_SEND_MAX = 100;

const positive = numberInput(
  z
    .number({ error: 'validation.required' })
    .int({ error: 'validation.integer' })
    .positive({ error: 'validation.range' }),
);
const text = (max: number) => z.string().trim().max(max, { error: 'validation.tooLong' });
const required = (max: number) =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(max, { error: 'validation.tooLong' });
const optionalDate = optionalInput(DateTimeInput);

/** One incident, case or violation as lists show it. */
export const CaseRecord = z.object({
  id: z.number().int(),
  kind: CaseKind,
  /** incident number (接警单编号) or case number (案件编号) */
  no: z.string(),
  title: z.string(),
  content: z.string(),
  place: z.string(),
  /** when it happened (ISO) */
  occurred_at: z.string(),
  /** who reported it (报警人) and how to reach him; cases: the suspect or party, '' if none */
  reporter: z.string(),
  reporter_phone: z.string(),
  unit_id: z.number().int(),
  unit_name: z.string(),
  created_by_name: z.string(),
  created_at: z.string(),
  state: CaseState,
  /** the reason it was cancelled, or (a closed violation) the handling result */
  cancel_reason: z.string(),
  cancelled_at: z.string().nullable(),
  cancelled_by_name: z.string(),
  /** incidents: the case that includes it, null if none */
  case_id: z.number().int().nullable(),
  case_no: z.string(),
  /** linked media items (not deleted ones) */
  media_count: z.number().int(),
  /** cases: how many incidents it includes */
  incident_count: z.number().int(),
  archive_no: z.string(),
  archive_state: ArchiveState,
  /** years the file is kept after archiving, 0 = permanently */
  keep_years: z.number().int(),
  archive_note: z.string(),
  archived_at: z.string().nullable(),
  /** violations: the officer in breach (null otherwise), his name, the kind of breach ('' otherwise) */
  officer_id: z.number().int().nullable(),
  officer_name: z.string(),
  violation_type: z.union([ViolationType, z.literal('')]),
  /** cases: 1 while the case is a sample */
  sample: z.number().int(),
});
export type CaseRecord = z.infer<typeof CaseRecord>;

const common = {
  /** '' or absent: a number is generated */
  no: optionalInput(text(CASE_NO_MAX).regex(/^[0-9A-Za-z_-]*$/, { error: 'validation.archive.no' })),
  title: required(CASE_TITLE_MAX),
  content: text(CASE_TEXT_MAX).default(''),
  place: text(CASE_PLACE_MAX).default(''),
  occurred_at: DateTimeInput,
  reporter: text(50).default(''),
  reporter_phone: text(30).default(''),
  /** the handling unit: the caller's own unit when absent; must be in his scope */
  unit_id: optionalId,
};

/** POST /rest/yw/jingqing/add */
export const IncidentAddRequest = z.object(common);
export type IncidentAddRequest = z.infer<typeof IncidentAddRequest>;

/** POST /rest/yw/anjian/add: a case, with the incidents it includes (open ones of the caller's units, in no other case). */
export const CaseAddRequest = z.object({
  ...common,
  incident_ids: z
    .array(positive, { error: 'validation.required' })
    .max(CASE_INCIDENTS_MAX, { error: 'validation.tooLong' })
    .default([]),
});
export type CaseAddRequest = z.infer<typeof CaseAddRequest>;

/**
 * POST /rest/yw/violation/add: a violation record of an officer of the caller's units, with the
 * items that show it (of the caller's units, not deleted; linked in the same transaction). The
 * unit is the officer's unit unless given (in the caller's scope).
 */
export const ViolationAddRequest = z.object({
  no: common.no,
  title: common.title,
  content: required(CASE_TEXT_MAX),
  place: common.place,
  occurred_at: common.occurred_at,
  officer_id: positive,
  violation_type: ViolationType,
  unit_id: optionalId,
  media_ids: z
    .array(positive, { error: 'validation.required' })
    .max(EVIDENCE_BULK_MAX, { error: 'validation.tooLong' })
    .default([]),
});
export type ViolationAddRequest = z.infer<typeof ViolationAddRequest>;

/**
 * POST /rest/yw/jingqing/cancel, /rest/yw/anjian/cancel, /rest/yw/violation/cancel: `{id, reason}`;
 * a cancelled case frees its incidents. /rest/yw/violation/close: `{id, reason}` with the handling
 * result as reason.
 */
export const CaseCancelRequest = z.object({ id: positive, reason: required(CASE_REASON_MAX) });
export type CaseCancelRequest = z.infer<typeof CaseCancelRequest>;

/** POST .../zfgd_list: the caller's units' records, newest occurrence first. */
export const CaseListRequest = PageQuery.extend({
  /** number, title, place or reporter contains */
  keyword: text(100).optional(),
  /** number contains */
  no: text(CASE_NO_MAX).optional(),
  unit_id: optionalId,
  /** with the unit's sub-units (default 1) */
  include_sub: optionalInput(numberInput(z.union([z.literal(0), z.literal(1)]))),
  /** occurred between */
  start: optionalDate,
  end: optionalDate,
  state: optionalInput(CaseState),
});
export type CaseListRequest = z.infer<typeof CaseListRequest>;

/**
 * POST /rest/yw/violation/officers `{keyword}`: officers (accounts) of the caller's units to name in
 * a violation record, by name or username, at most 50, so a supervisor needs no account screen.
 */
export const ViolationOfficersRequest = z.object({ keyword: text(50).default('') });
export const ViolationOfficer = z.object({
  id: z.number().int(),
  name: z.string(),
  username: z.string(),
  unit_name: z.string(),
});
export type ViolationOfficer = z.infer<typeof ViolationOfficer>;

/** POST /rest/yw/violation/zfgd_list: also by officer and kind of breach. */
export const ViolationListRequest = CaseListRequest.extend({
  officer_id: optionalId,
  violation_type: optionalInput(ViolationType),
});
export type ViolationListRequest = z.infer<typeof ViolationListRequest>;

/** POST .../mediaview_write `{id, media_ids, action}`: link or unlink media items of the caller's units. */
export const CaseMediaWriteRequest = z.object({
  id: positive,
  media_ids: z
    .array(positive, { error: 'validation.required' })
    .min(1, { error: 'validation.required' })
    .max(EVIDENCE_BULK_MAX, { error: 'validation.tooLong' }),
  action: z.enum(['link', 'unlink'], { error: 'validation.choice' }),
});
export type CaseMediaWriteRequest = z.infer<typeof CaseMediaWriteRequest>;
/** How many links changed (a link that already existed, or an unlink of an unlinked item, changes nothing). */
export const CaseMediaWriteAnswer = z.object({ changed: z.number().int() });

/** POST .../mediaview_relation `{id}`: the record's linked items (not deleted ones), newest recording first. */
export const CaseIdRequest = z.object({ id: positive });
export const CaseMediaAnswer = z.array(MediaItem);

/** POST /rest/yw/jingqing/jingqingsend `{id, device}`: send the incident to officers' terminals (console-service instant message). */
export const IncidentSendRequest = z.object({
  id: positive,
  device: z
    .array(positive, { error: 'validation.required' })
    .min(1, { error: 'validation.required' })
    .max(CASE_SEND_MAX, { error: 'validation.tooLong' }),
});
export type IncidentSendRequest = z.infer<typeof IncidentSendRequest>;

/** One terminal an incident was sent to (sendlist), with the delivery state of its message. */
export const IncidentSend = z.object({
  device_id: z.number().int(),
  hostname: z.string(),
  hostbody: z.string(),
  sender: z.string(),
  sent_at: z.string(),
  /** ISO time the message reached the terminal, null while it waits for its logon */
  delivered: z.string().nullable(),
  read: z.string().nullable(),
});
export type IncidentSend = z.infer<typeof IncidentSend>;
export const IncidentSendAnswer = z.object({ sent: z.number().int() });

/** POST rest/yw/zfda/get: files of one kind (incident, case). */
export const ArchiveListRequest = CaseListRequest.extend({
  kind: z.enum(['incident', 'case'], { error: 'validation.choice' }),
  archive_state: optionalInput(ArchiveState),
});
export type ArchiveListRequest = z.infer<typeof ArchiveListRequest>;

/** POST rest/yw/zfda/get_by_id `{id}`: the whole file. */
export const ArchiveFile = z.object({
  record: CaseRecord,
  media: z.array(MediaItem),
  /** cases: their incidents; incidents: [] */
  incidents: z.array(CaseRecord),
});
export type ArchiveFile = z.infer<typeof ArchiveFile>;

/** POST rest/yw/zfda/edit: the archive fields of a file. */
export const ArchiveEditRequest = z.object({
  id: positive,
  archive_no: text(CASE_NO_MAX),
  archive_state: ArchiveState,
  keep_years: numberInput(
    z
      .number({ error: 'validation.number' })
      .int({ error: 'validation.integer' })
      .min(0, { error: 'validation.range' })
      .max(100, { error: 'validation.range' }),
  ),
  archive_note: text(CASE_TEXT_MAX).default(''),
});
export type ArchiveEditRequest = z.infer<typeof ArchiveEditRequest>;

export const SAMPLE_SUMMARY_MAX = 2000;

/** POST /rest/yw/anjian/sample_add: mark a case (of the caller's units, not cancelled) as a sample. */
export const SampleAddRequest = z.object({ id: positive, summary: required(SAMPLE_SUMMARY_MAX) });
export type SampleAddRequest = z.infer<typeof SampleAddRequest>;

/** One sample (sample_list): the case with the summary and who marked it when. */
export const CaseSample = CaseRecord.extend({
  summary: z.string(),
  marked_by_name: z.string(),
  marked_at: z.string(),
});
export type CaseSample = z.infer<typeof CaseSample>;

/**
 * POST /rest/yw/anjian/sample_list: samples of the caller's units, latest marked first (keyword:
 * case number, title or summary; start/end: when the case occurred). sample_del `{id}` unmarks a
 * case; sample_media `{id}` answers its linked items (the sample menu's view).
 */
export const SampleListRequest = CaseListRequest.omit({ no: true, state: true });
export type SampleListRequest = z.infer<typeof SampleListRequest>;
