import { MB, UPLOAD_LIMIT_MB, UPLOAD_TYPES } from '@bwc/protocol';

/** What a file must be before it is sent: allowed extensions (lower case, no dot) and a size limit. */
export interface UploadRule {
  extensions: readonly string[];
  maxMb: number;
}

/** Login background: images only, UPLOAD_LIMIT_MB.background. */
export const BACKGROUND_UPLOAD: UploadRule = { extensions: UPLOAD_TYPES.image, maxMb: UPLOAD_LIMIT_MB.background };

/** Download center entries: any of the upload types, UPLOAD_LIMIT_MB.download. */
export const DOWNLOAD_UPLOAD: UploadRule = {
  extensions: Object.values(UPLOAD_TYPES).flat(),
  maxMb: UPLOAD_LIMIT_MB.download,
};

/** A failed check: a key of the shared `validation` catalogue and its parameters. */
export interface UploadProblem {
  key: 'validation.file.required' | 'validation.file.type' | 'validation.file.size';
  params?: { mb: number };
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** Checks a chosen file against a rule before any byte is uploaded; null when it may go. */
export function checkUpload(
  file: { name: string; size: number } | null | undefined,
  rule: UploadRule,
): UploadProblem | null {
  if (!file) return { key: 'validation.file.required' };
  if (!rule.extensions.includes(extensionOf(file.name))) return { key: 'validation.file.type' };
  if (file.size > rule.maxMb * MB) return { key: 'validation.file.size', params: { mb: rule.maxMb } };
  return null;
}

/** The `accept` attribute of a file input for a rule. */
export function acceptOf(rule: UploadRule): string {
  return rule.extensions.map((ext) => `.${ext}`).join(',');
}

/** Human file size: B, KB, MB, GB with one decimal above bytes. */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.max(0, Math.round(bytes || 0))} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
