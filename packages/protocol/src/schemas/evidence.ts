import { z } from 'zod';
import { pageOf, PageQuery } from '../envelope';
import { DateTimeInput, numberInput, optionalId, optionalInput } from './inputs';

/**
 * Evidence (issue 15; spec part 2 sections 2.1 /data, 2.3 player, 5 upload classes, 7.3 rest/media,
 * /rest/upload/file/put, /rest/mediarevise). The spec shows only paths; the payloads are designed
 * here. Items are unit-scoped: the unit of the device (or of the uploading user) owns an item, and a
 * caller sees the items of his units only (an id outside them answers "not found").
 *
 * Originals are immutable and stored by content (SHA-256). What changes is metadata: a revision
 * keeps the previous values; every view, play, download and change is appended to the item's
 * hash-chained custody record.
 */

/** Media types of the player (spec part 2 sections 2.3 and 9). */
export const MEDIA_TYPES = [1, 2, 3] as const;
export const MediaType = z.union([z.literal(1), z.literal(2), z.literal(3)]);
export type MediaType = z.infer<typeof MediaType>;

/**
 * Upload type classes of spec part 2 section 5 that evidence accepts, with the largest file of each
 * class in MB. The real type is read from the file's first bytes; a file whose content does not
 * match its extension's class is refused (`validation.ingest.typeMismatch`).
 */
export const EVIDENCE_CLASSES = {
  video: { mediaType: 1, exts: ['avi', 'mpg', 'wmv', 'mp4', 'mov'], maxMb: 4096 },
  audio: { mediaType: 2, exts: ['wav', 'mp3', 'wma', 'aac'], maxMb: 1024 },
  image: { mediaType: 3, exts: ['jpg', 'png', 'gif', 'jpeg'], maxMb: 50 },
} as const;
export type EvidenceClass = keyof typeof EVIDENCE_CLASSES;
export const EVIDENCE_EXTS: readonly string[] = Object.values(EVIDENCE_CLASSES).flatMap((c) => [...c.exts]);

/** Where an item came from. */
export const EVIDENCE_SOURCES = ['device', 'workstation', 'console', 'live'] as const;
export const EvidenceSource = z.enum(EVIDENCE_SOURCES);
export type EvidenceSource = z.infer<typeof EvidenceSource>;

/**
 * The library views of /data: law-enforcement media, sensitive, outside imports, deleted, and
 * alarm recordings (/data/archive/alram: the live video an SOS had recorded).
 */
export const EVIDENCE_VIEWS = ['law', 'sensitivity', 'outside', 'deleted', 'alarm'] as const;
export const EvidenceView = z.enum(EVIDENCE_VIEWS);
export type EvidenceView = z.infer<typeof EvidenceView>;

/** Days a soft-deleted item can be restored; after it, hard delete is allowed. */
export const EVIDENCE_RECOVERY_DAYS = 7;
/** A signed play, thumbnail or download address works this long. */
export const EVIDENCE_URL_TTL_MS = 10 * 60_000;
/** Most items of one bulk call (flag, edit, delete, revert, download). */
export const EVIDENCE_BULK_MAX = 200;
export const EVIDENCE_TITLE_MAX = 100;
export const EVIDENCE_DESCRIPTION_MAX = 2000;
export const EVIDENCE_REASON_MAX = 200;
export const EVIDENCE_INCIDENT_NO_MAX = 40;
export const EVIDENCE_CATEGORY_MAX = 40;

/**
 * Resumable uploads speak tus 1.0.0 (https://tus.io: core, creation, termination, expiration),
 * served by `@tus/server` and sent by `tus-js-client`: a POST creates the upload (Upload-Length,
 * Upload-Metadata), PATCHes append at Upload-Offset, a HEAD after a break says where to resume.
 * Console users upload at UPLOAD_PATH (session cookie, menu 10211 add); cameras at
 * DEVICE_UPLOAD_PATH (device bearer token), docking workstations at WORKSTATION_UPLOAD_PATH
 * (workstation bearer token, `hostbody` in the metadata names the docked camera).
 */
export const UPLOAD_PATH = '/rest/upload/file/put';
export const DEVICE_UPLOAD_PATH = '/rest/device/api/upload';
export const WORKSTATION_UPLOAD_PATH = '/rest/workstation/api/upload';
/** An unfinished upload is kept this long after its last byte, then removed. */
export const UPLOAD_EXPIRY_H = 24;
/**
 * Chunk size the console and the simulator send (a PATCH each). The server writes a PATCH's bytes
 * as they arrive, so a broken PATCH loses nothing (the next HEAD says how far it got); larger
 * PATCHes cost fewer round trips: one 500 MB upload ran at 330 MB/s in 8 MB PATCHes and 427 MB/s in
 * 64 MB ones on the same machine (bench/evidence-upload.ts --chunk-mb).
 */
export const UPLOAD_CHUNK_BYTES = 64 * 1024 * 1024;

/**
 * Upload-Metadata keys (tus: base64 values). `filename` is required. `fileid` is the device's own
 * id of the file: a second upload of the same device's `fileid` is refused as already stored
 * (answer 409 with the item id in `Evidence-Item`), so nothing is written twice.
 *
 * A creation (POST) for a `fileid` whose upload is still open (same sender, same Upload-Length)
 * answers 201 with that upload's Location instead of a new one: tus-js-client's first PATCH at
 * offset 0 then gets 409, which it retries with a HEAD and resumes at the server's offset. A client
 * may skip that round by passing the Location as `uploadUrl`. Refusals carry the translated
 * message as the response text (x-lang) and the catalogue key in `Evidence-Error`: 400 bad
 * metadata, 413 above the class's maxMb, 415 unknown extension or content not of its class
 * (at the last PATCH), 403 no 'add', 404 an upload of someone else. The last PATCH answers the
 * new item's id in `Evidence-Item`. Since tus-js-client retries every 409, a client should not
 * retry when `Evidence-Item` is present (onShouldRetry).
 */
export const UploadMetadata = z.object({
  filename: z.string().trim().min(1, { error: 'validation.required' }).max(200, { error: 'validation.tooLong' }),
  filetype: z.string().max(100).optional(),
  fileid: z.string().trim().max(100, { error: 'validation.tooLong' }).optional(),
  /** when the recording started, ISO; ffprobe's creation_time or the upload time otherwise */
  recorded_at: DateTimeInput.optional(),
  title: z.string().trim().max(EVIDENCE_TITLE_MAX, { error: 'validation.tooLong' }).optional(),
  description: z.string().trim().max(EVIDENCE_DESCRIPTION_MAX, { error: 'validation.tooLong' }).optional(),
  category: z.string().trim().max(EVIDENCE_CATEGORY_MAX, { error: 'validation.tooLong' }).optional(),
  /** workstation uploads: the docked camera */
  hostbody: z.string().trim().max(64).optional(),
  /** console uploads: 1 = imported from outside (the /data/manage/outside view) */
  outside: z.enum(['0', '1']).optional(),
});
export type UploadMetadata = z.infer<typeof UploadMetadata>;

export const MediaItem = z.object({
  id: z.number().int(),
  media_type: MediaType,
  title: z.string(),
  description: z.string(),
  category: z.string(),
  /** police incident number (jingqing) the item belongs to, '' if none */
  incident_no: z.string(),
  file_name: z.string(),
  ext: z.string(),
  mime: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  /** seconds, null for images */
  duration: z.number().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  video_codec: z.string(),
  audio_codec: z.string(),
  recorded_at: z.string(),
  uploaded_at: z.string(),
  source: EvidenceSource,
  outside: z.number().int(),
  device_id: z.number().int().nullable(),
  hostbody: z.string(),
  hostname: z.string(),
  /** the officer: the device's owner, or the uploading user */
  user_id: z.number().int().nullable(),
  user_name: z.string(),
  unit_id: z.number().int(),
  unit_name: z.string(),
  /** mark (mediaflg): 0 none, 1 marked */
  flg: z.number().int(),
  flg_note: z.string(),
  /** average score, null when never scored */
  score: z.number().nullable(),
  /** 1 when marked sensitive or its text matches the sensitive-word list */
  sensitive: z.number().int(),
  /** 1 when linked to an incident or case */
  linked: z.number().int(),
  /** the alarm whose live recording this is (source 'live'), null otherwise */
  alarm_id: z.number().int().nullable(),
  /** 'ready' when the browser can play the original or its derivative; 'pending', 'failed', 'none' (images) */
  playable: z.enum(['ready', 'pending', 'failed', 'none']),
  deleted_at: z.string().nullable(),
  delete_reason: z.string(),
  deleted_by_name: z.string(),
  /** signed thumbnail address ('' when none yet) */
  thumb_url: z.string(),
});
export type MediaItem = z.infer<typeof MediaItem>;

const idsInput = z
  .array(numberInput(z.number({ error: 'validation.number' }).int().positive({ error: 'validation.range' })), {
    error: 'validation.required',
  })
  .min(1, { error: 'validation.required' })
  .max(EVIDENCE_BULK_MAX, { error: 'validation.evidence.tooMany' });
const reason = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .max(EVIDENCE_REASON_MAX, { error: 'validation.tooLong' });
const optionalDate = optionalInput(DateTimeInput);

/** POST rest/media/media/get: the library, filtered; `view` picks the screen (and its menu). */
export const MediaSearchRequest = PageQuery.extend({
  view: EvidenceView.default('law'),
  unit_id: optionalId,
  /** with the unit's descendants (default 1) */
  include_sub: z.union([z.literal(0), z.literal(1)]).default(1),
  user_id: optionalId,
  device_id: optionalId,
  /** title, description, file name, hostbody or incident number contains */
  keyword: z.string().trim().max(100, { error: 'validation.tooLong' }).optional(),
  media_type: optionalInput(numberInput(MediaType)),
  flg: optionalInput(numberInput(z.union([z.literal(0), z.literal(1)]))),
  category: z.string().trim().max(EVIDENCE_CATEGORY_MAX).optional(),
  /** 1 linked to an incident or case, 0 not linked */
  linked: optionalInput(numberInput(z.union([z.literal(0), z.literal(1)]))),
  /** 1 scored, 0 not scored */
  scored: optionalInput(numberInput(z.union([z.literal(0), z.literal(1)]))),
  recorded_start: optionalDate,
  recorded_end: optionalDate,
  uploaded_start: optionalDate,
  uploaded_end: optionalDate,
  sort: z.enum(['recorded_at', 'uploaded_at', 'size', 'duration']).default('recorded_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type MediaSearchRequest = z.infer<typeof MediaSearchRequest>;

/**
 * The library counts matching items up to this many: `total` is exact below it; at it, `capped` is
 * 1 and the console shows "10,000+" (narrow the filters to page further). Counting a million rows on
 * every page would cost more than the page itself.
 */
export const MEDIA_LIST_COUNT_CAP = 10_000;
export const MediaListAnswer = pageOf(MediaItem).extend({ capped: z.number().int() });
export type MediaListAnswer = z.infer<typeof MediaListAnswer>;

export const MediaIdRequest = z.object({
  id: numberInput(z.number({ error: 'validation.required' }).int().positive({ error: 'validation.range' })),
});
export const MediaIdsRequest = z.object({ ids: idsInput });

/** One metadata revision: the fields it changed with their values before and after. */
export const MediaRevision = z.object({
  id: z.number().int(),
  media_id: z.number().int(),
  user_id: z.number().int().nullable(),
  user_name: z.string(),
  at: z.string(),
  reason: z.string(),
  changes: z.array(z.object({ field: z.string(), before: z.string(), after: z.string() })),
});
export type MediaRevision = z.infer<typeof MediaRevision>;

/** POST rest/media/mediaview/get `{id}`: the item, signed play address, revisions. Audited as viewed. */
export const MediaDetail = z.object({
  item: MediaItem,
  /** signed, range-capable address of what the browser plays (original or derivative) */
  play_url: z.string(),
  /** the played file's MIME type */
  play_mime: z.string(),
  /** epoch ms when the signed addresses stop working */
  expires: z.number().int(),
  revisions: z.array(MediaRevision),
});
export type MediaDetail = z.infer<typeof MediaDetail>;

/** POST rest/media/mediaflg_edit `{id, flg, flg_note}`; media/flg_all_update `{ids, flg}`. */
export const MediaFlagRequest = MediaIdRequest.extend({
  flg: numberInput(z.union([z.literal(0), z.literal(1)], { error: 'validation.required' })),
  flg_note: z.string().trim().max(EVIDENCE_REASON_MAX, { error: 'validation.tooLong' }).default(''),
});
export const MediaFlagAllRequest = MediaIdsRequest.extend({
  flg: numberInput(z.union([z.literal(0), z.literal(1)], { error: 'validation.required' })),
});

const revisable = {
  title: z
    .string()
    .trim()
    .min(1, { error: 'validation.required' })
    .max(EVIDENCE_TITLE_MAX, { error: 'validation.tooLong' }),
  description: z.string().trim().max(EVIDENCE_DESCRIPTION_MAX, { error: 'validation.tooLong' }),
  category: z.string().trim().max(EVIDENCE_CATEGORY_MAX, { error: 'validation.tooLong' }),
  incident_no: z.string().trim().max(EVIDENCE_INCIDENT_NO_MAX, { error: 'validation.tooLong' }),
};
/** POST rest/media/media_revise (also /rest/mediarevise/filerevise/put): changed fields + reason. */
export const MediaReviseRequest = MediaIdRequest.extend({
  title: revisable.title.optional(),
  description: revisable.description.optional(),
  category: revisable.category.optional(),
  incident_no: revisable.incident_no.optional(),
  reason,
});
export type MediaReviseRequest = z.infer<typeof MediaReviseRequest>;
/** POST rest/media/media/edit_all_update: the same fields on many items. */
export const MediaEditAllRequest = MediaIdsRequest.extend({
  category: revisable.category.optional(),
  incident_no: revisable.incident_no.optional(),
  reason,
});
/** POST rest/media/media/flg_all_get `{ids}`: the marks of the items (those in the caller's scope). */
export const MediaFlagState = z.object({ id: z.number().int(), flg: z.number().int(), flg_note: z.string() });
/**
 * POST rest/media/media/edit_all_get `{ids}`: what the bulk edit dialog starts from: each field's
 * value when every item found has the same one, null when they differ; `count` items were found
 * in the caller's scope.
 */
export const MediaEditAllValues = z.object({
  count: z.number().int(),
  category: z.string().nullable(),
  incident_no: z.string().nullable(),
});

/** POST rest/media/media/del_all_update `{ids, reason}`: soft delete. */
export const MediaDeleteRequest = MediaIdsRequest.extend({ reason });
/** Result of a bulk call: how many changed, and which ids were refused with the reason key. */
export const MediaBulkAnswer = z.object({
  changed: z.number().int(),
  refused: z.array(z.object({ id: z.number().int(), reason: z.string() })),
});

/** /data/edit/record: revisions and deletions, newest first. */
export const EditRecordQuery = PageQuery.extend({
  kind: z.enum(['all', 'revise', 'delete', 'revert', 'harddel']).default('all'),
  keyword: z.string().trim().max(100).optional(),
  start: optionalDate,
  end: optionalDate,
});
export const EditRecordEntry = z.object({
  id: z.number().int(),
  media_id: z.number().int(),
  media_title: z.string(),
  kind: z.enum(['revise', 'delete', 'revert', 'harddel']),
  user_name: z.string(),
  unit_name: z.string(),
  at: z.string(),
  reason: z.string(),
  /** 'field: before -> after; ...' for revisions */
  detail: z.string(),
});

/** POST rest/media/gps `{id}`: the recording device's fixes during the recording. */
export const MediaGpsAnswer = z.object({
  start: z.string(),
  end: z.string(),
  points: z.array(z.object({ t: z.string(), lat: z.number(), lng: z.number(), speed: z.number().nullable() })),
});

/** POST rest/media/mediadown `{id}` (also videoreplay mediadown): a signed download address. */
export const MediaDownloadAnswer = z.object({
  url: z.string(),
  file_name: z.string(),
  sha256: z.string(),
  expires: z.number().int(),
});

/** POST rest/media/mediadownload/download_all `{ids}`: a signed address of one zip of the originals. */
export const MediaDownloadAllAnswer = z.object({
  url: z.string(),
  file_name: z.string(),
  /** how many items the zip holds */
  count: z.number().int(),
  expires: z.number().int(),
});
export type MediaDownloadAllAnswer = z.infer<typeof MediaDownloadAllAnswer>;

/** GET rest/media/checkrecord/export `?id=&format=`: an item's custody report as PDF or Excel. */
export const CustodyExportQuery = MediaIdRequest.extend({
  format: z.enum(['pdf', 'xlsx'], { error: 'validation.evidence.reportFormat' }).default('pdf'),
});
export type CustodyExportQuery = z.infer<typeof CustodyExportQuery>;

/** Custody actions on the chain of an item. */
export const CUSTODY_ACTIONS = [
  'uploaded',
  'viewed',
  'streamed',
  'downloaded',
  'revised',
  'marked',
  'scored',
  'linked',
  'shared',
  'deleted',
  'restored',
  'retention',
  'purged',
  'verified',
  'tamper',
] as const;
export const CustodyAction = z.enum(CUSTODY_ACTIONS);
export type CustodyAction = z.infer<typeof CustodyAction>;

export const CustodyEntry = z.object({
  seq: z.number().int(),
  action: CustodyAction,
  user_id: z.number().int().nullable(),
  /** user, device or workstation that acted */
  actor: z.string(),
  unit_name: z.string(),
  at: z.string(),
  ip: z.string(),
  detail: z.string(),
  prev_hash: z.string(),
  hash: z.string(),
});
export type CustodyEntry = z.infer<typeof CustodyEntry>;

/** POST rest/media/checkrecord/view `{id}`: the chain and whether it and the original verify. */
export const CustodyAnswer = z.object({
  media_id: z.number().int(),
  sha256: z.string(),
  chain_ok: z.boolean(),
  /** seq of the first entry that does not verify, null when all do */
  broken_at: z.number().int().nullable(),
  entries: z.array(CustodyEntry),
});
export type CustodyAnswer = z.infer<typeof CustodyAnswer>;
