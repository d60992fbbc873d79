import { EVIDENCE_CLASSES, type EvidenceClass } from '@bwc/protocol';

/** Why a file is refused before sending (the server checks again and decides). */
export type FileProblem = { kind: 'type'; ext: string } | { kind: 'size'; maxMb: number } | { kind: 'empty' };

/** The file's lower-case extension ('' without one). */
export function extOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The evidence class of a file name (video, audio, image), null for another type. */
export function classOf(name: string): EvidenceClass | null {
  const ext = extOf(name);
  for (const [key, rule] of Object.entries(EVIDENCE_CLASSES) as [EvidenceClass, (typeof EVIDENCE_CLASSES)[EvidenceClass]][])
    if ((rule.exts as readonly string[]).includes(ext)) return key;
  return null;
}

/** The client-side check of EVIDENCE_CLASSES: extension and largest size of its class. */
export function checkEvidenceFile(file: { name: string; size: number }): FileProblem | null {
  const kind = classOf(file.name);
  if (!kind) return { kind: 'type', ext: extOf(file.name) };
  if (file.size === 0) return { kind: 'empty' };
  const { maxMb } = EVIDENCE_CLASSES[kind];
  if (file.size > maxMb * 1024 * 1024) return { kind: 'size', maxMb };
  return null;
}

/** The `accept` attribute of the file input: every accepted extension. */
export const EVIDENCE_ACCEPT = Object.values(EVIDENCE_CLASSES)
  .flatMap((c) => c.exts.map((ext) => `.${ext}`))
  .join(',');

/** What the uploader types in the dialog (the same for every file of one upload). */
export interface UploadFields {
  title?: string;
  description?: string;
  category?: string;
  outside: boolean;
}

/**
 * The console's id of a file (`fileid`): name, size and modification time, the same fingerprint
 * tus-js-client resumes by, so the same file picked again is recognised by the server.
 */
export function fileIdOf(file: { name: string; size: number; lastModified: number }): string {
  return `web-${file.size}-${file.lastModified}-${file.name}`.slice(0, 100);
}

/** The Upload-Metadata of one file (tus-js-client base64-encodes the values). Empty fields are left out. */
export function uploadMetadata(
  file: { name: string; type: string; size: number; lastModified: number },
  fields: UploadFields,
): Record<string, string> {
  const out: Record<string, string> = {
    filename: file.name,
    filetype: file.type || 'application/octet-stream',
    fileid: fileIdOf(file),
    outside: fields.outside ? '1' : '0',
  };
  const title = fields.title?.trim();
  const description = fields.description?.trim();
  const category = fields.category?.trim();
  if (title) out.title = title;
  if (description) out.description = description;
  if (category) out.category = category;
  return out;
}

/** What tus-js-client hands onError: a DetailedError carries the server's answer. */
interface TusFailure {
  message?: string;
  originalResponse?: { getStatus(): number; getBody(): string } | null;
}

/**
 * The server's words on a failed upload: the envelope's `msg` of a JSON body, else the plain
 * text body, else null (the caller then says the connection failed).
 */
export function serverMessage(error: unknown): { status: number; message: string } | null {
  const response = (error as TusFailure | null)?.originalResponse;
  if (!response) return null;
  const status = response.getStatus();
  const body = (response.getBody() ?? '').trim();
  if (body.startsWith('{')) {
    try {
      const parsed = JSON.parse(body) as { msg?: unknown; message?: unknown };
      const msg = typeof parsed.msg === 'string' ? parsed.msg : typeof parsed.message === 'string' ? parsed.message : '';
      if (msg) return { status, message: msg };
    } catch {
      // not JSON after all: the text itself
    }
  }
  return body ? { status, message: body.slice(0, 300) } : { status, message: '' };
}
