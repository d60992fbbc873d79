import { EVIDENCE_RECOVERY_DAYS, type EvidenceView, MediaSearchRequest } from '@bwc/protocol';
import type { z } from 'zod';
import dayjs from 'dayjs';
import type { FilterValues } from '../../components/search-bar';

/** Filter names of the library's search bar (URL parameters; most are wire fields too). */
export const FILTERS = {
  unit: 'unit_id',
  user: 'user_id',
  device: 'device',
  keyword: 'keyword',
  recordedStart: 'recorded_start',
  recordedEnd: 'recorded_end',
  uploadedStart: 'uploaded_start',
  uploadedEnd: 'uploaded_end',
  mediaType: 'media_type',
  flg: 'flg',
  category: 'category',
  linked: 'linked',
  scored: 'scored',
} as const;

const TIMES: ReadonlySet<string> = new Set([
  FILTERS.recordedStart,
  FILTERS.recordedEnd,
  FILTERS.uploadedStart,
  FILTERS.uploadedEnd,
]);
const NUMBERS: ReadonlySet<string> = new Set([
  FILTERS.unit,
  FILTERS.user,
  FILTERS.mediaType,
  FILTERS.flg,
  FILTERS.linked,
  FILTERS.scored,
]);
const TEXTS: ReadonlySet<string> = new Set([FILTERS.keyword, FILTERS.category]);

export type MediaSearchInput = Omit<z.input<typeof MediaSearchRequest>, 'page' | 'limit'>;

/**
 * The mediaList payload of the search bar's filters and the screen's view. Times picked in the
 * browser's time zone go out as ISO instants; a device picked in the tree (`device:<id>`) becomes
 * `device_id`; empty and unknown values are left out.
 */
export function mediaQuery(filters: FilterValues, view: EvidenceView): MediaSearchInput {
  const out: Record<string, string | number> = { view };
  for (const [name, raw] of Object.entries(filters)) {
    const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
    if (!value) continue;
    if (TIMES.has(name)) {
      const instant = dayjs(value);
      if (instant.isValid()) out[name] = instant.toISOString();
    } else if (NUMBERS.has(name)) {
      if (/^\d+$/.test(value)) out[name] = Number(value);
    } else if (name === FILTERS.device) {
      const match = /^device:(\d+)$/.exec(value);
      if (match) out.device_id = Number(match[1]);
    } else if (TEXTS.has(name)) out[name] = value;
  }
  return out as MediaSearchInput;
}

/** `1.5 MB`: binary units, one decimal above bytes. */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.max(0, Math.round(bytes || 0))} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** `1:02:03` or `02:03`; '' for images (null). */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '';
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`;
}

/** When a soft-deleted item may be removed for good (the recovery window after its deletion). */
export function purgeableAt(deletedAt: string | null): Date | null {
  if (!deletedAt) return null;
  const at = Date.parse(deletedAt);
  return Number.isNaN(at) ? null : new Date(at + EVIDENCE_RECOVERY_DAYS * 86_400_000);
}

/** Playback rates of the player (spec part 2 section 9, browsers other than IE). */
export const PLAYBACK_RATES = [0.5, 0.75, 1, 1.5, 2] as const;

/**
 * Where the playback is on the GPS track: the last fix at or before `recordedAt + position`
 * (fixes sorted by time); the first fix before it, null without fixes.
 */
export function fixAt<P extends { t: string }>(points: readonly P[], recordedAt: string, position: number): P | null {
  const start = Date.parse(recordedAt);
  if (Number.isNaN(start) || points.length === 0) return null;
  const at = start + position * 1000;
  let found: P | null = null;
  let low = 0;
  let high = points.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const t = Date.parse(points[mid]!.t);
    if (t <= at) {
      found = points[mid]!;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found ?? points[0]!;
}
