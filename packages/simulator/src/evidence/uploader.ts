import { createReadStream } from 'node:fs';
import { DEVICE_UPLOAD_PATH, UPLOAD_CHUNK_BYTES } from '@bwc/protocol';
import { DetailedError, Upload } from 'tus-js-client';
import type { ClipQueue, QueuedClip } from './queue';

/**
 * Sends a camera's queued clips to the server's tus endpoint for devices (DEVICE_UPLOAD_PATH),
 * with the device's bearer token, in UPLOAD_CHUNK_BYTES chunks. A broken transfer is retried
 * within the attempt (tus-js-client asks the server's offset with a HEAD and goes on from there);
 * an attempt that fails keeps the clip queued with its upload address, and the next attempt (of
 * this run or of a restarted simulator) resumes there. A 409 on creation (or one naming the item,
 * Evidence-Item) means the server already stores this device's fileid: the clip counts as delivered.
 */

export interface UploadTarget {
  /** server base URL, e.g. http://127.0.0.1:8080 */
  server: string;
  /** the device's `Bearer <token>`, asked before every request (a re-login changes it) */
  authorization: () => string;
  /** default UPLOAD_CHUNK_BYTES */
  chunkBytes?: number;
  /** tus endpoint path (default DEVICE_UPLOAD_PATH; a docking workstation sends to WORKSTATION_UPLOAD_PATH) */
  path?: string;
  /** Upload-Metadata added to the clip's (a workstation names the docked camera: `hostbody`) */
  metadata?: Record<string, string>;
  /** waits between retries within one attempt, ms (default 1, 3 and 10 s) */
  retryDelays?: number[];
  /** stops a transfer under way (the simulator stopping); the clip stays queued */
  signal?: AbortSignal;
  /** bytes the server has accepted of the clip being sent */
  onProgress?: (entry: QueuedClip, accepted: number, total: number) => void;
}

export interface UploadOutcome {
  /** 'stored': this upload delivered it; 'duplicate': the server had it already (409) */
  result: 'stored' | 'duplicate';
  /** the evidence item, when the server names it (Evidence-Item header) */
  itemId: number | null;
}

/** The server refused or the transfer failed; `status` is the HTTP status, 0 when none came. */
export class EvidenceUploadError extends Error {
  override name = 'EvidenceUploadError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
  /** A refusal of the file itself (bad type, too large, bad metadata): sending it again cannot help. */
  get final(): boolean {
    return [400, 413, 415, 422].includes(this.status);
  }
}

function itemOf(header: string | undefined): number | null {
  const id = Number(header);
  return Number.isInteger(id) && id > 0 ? id : null;
}

const TRANSIENT = new Set([408, 423, 429]);

/**
 * The server has this device's fileid already: 409 on creation, or 409 naming the item
 * (Evidence-Item) on a PATCH to an upload it has finished.
 */
function alreadyStored(err: DetailedError): boolean {
  const res = err.originalResponse;
  if (res?.getStatus() !== 409) return false;
  return err.originalRequest.getMethod() === 'POST' || itemOf(res.getHeader('Evidence-Item')) !== null;
}

/** Upload one queued clip; resolves once the server confirmed it. */
export async function uploadClip(queue: ClipQueue, entry: QueuedClip, target: UploadTarget): Promise<UploadOutcome> {
  const endpoint = new URL(target.path ?? DEVICE_UPLOAD_PATH, target.server).toString();
  const { signal } = target;
  const stopped = () => new EvidenceUploadError(0, `${entry.filename}: stopped`);
  if (signal?.aborted) throw stopped();
  let onAbort = () => {};
  try {
    return await new Promise<UploadOutcome>((resolve, reject) => {
      // the server names the item on the response that finished it (and on an "already stored")
      let itemId: number | null = null;
      const upload = new Upload(createReadStream(queue.path(entry)), {
        endpoint,
        uploadUrl: entry.upload_url ?? null,
        chunkSize: target.chunkBytes ?? UPLOAD_CHUNK_BYTES,
        retryDelays: target.retryDelays ?? [1_000, 3_000, 10_000],
        metadata: {
          filename: entry.filename,
          filetype: entry.filetype,
          fileid: entry.fileid,
          recorded_at: entry.recorded_at,
          ...target.metadata,
        },
        // the queue's JSON keeps the upload address, not tus-js-client's own storage
        storeFingerprintForResuming: false,
        onBeforeRequest: (req) => req.setHeader('Authorization', target.authorization()),
        onAfterResponse: (_req, res) => {
          itemId = itemOf(res.getHeader('Evidence-Item')) ?? itemId;
        },
        onChunkComplete: (_chunk, accepted, total) => target.onProgress?.(entry, accepted, total),
        onUploadUrlAvailable: () => {
          if (upload.url && upload.url !== entry.upload_url) queue.update(entry, { upload_url: upload.url });
        },
        onShouldRetry: (err) => {
          const status = err.originalResponse?.getStatus() ?? 0;
          // "already stored" is final; another 409 is an offset mismatch, which a HEAD settles
          if (status === 409) return !alreadyStored(err);
          return status === 0 || status >= 500 || TRANSIENT.has(status);
        },
        onSuccess: ({ lastResponse }) =>
          resolve({ result: 'stored', itemId: itemOf(lastResponse.getHeader('Evidence-Item')) ?? itemId }),
        onError: (err) => {
          const response = err instanceof DetailedError ? err.originalResponse : null;
          const status = response?.getStatus() ?? 0;
          if (err instanceof DetailedError && alreadyStored(err)) {
            resolve({ result: 'duplicate', itemId: itemOf(response?.getHeader('Evidence-Item')) ?? itemId });
            return;
          }
          const body = response?.getBody()?.slice(0, 200) ?? '';
          reject(new EvidenceUploadError(status, `${entry.filename}: ${status || 'no answer'} ${body || err.message}`));
        },
      });
      onAbort = () => {
        void upload.abort();
        reject(stopped());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      upload.start();
    });
  } finally {
    // the fleet's signal outlives many uploads: each removes its own listener
    signal?.removeEventListener('abort', onAbort);
  }
}

export interface SendSummary {
  stored: number;
  duplicates: number;
  /** refused for good and dropped */
  refused: number;
  /** still queued after this round */
  left: number;
}

/**
 * Send what the queue holds, oldest first. A clip the server refused for good (EvidenceUploadError.final)
 * is dropped; any other failure stops the round (the server is away or the token expired) and is
 * thrown with the clip kept for the next round. `on` hears each clip's fate as it happens.
 */
export async function sendQueued(
  queue: ClipQueue,
  target: UploadTarget,
  on: {
    delivered?: (entry: QueuedClip, outcome: UploadOutcome) => void;
    refused?: (entry: QueuedClip, err: EvidenceUploadError) => void;
  } = {},
): Promise<SendSummary> {
  const summary: SendSummary = { stored: 0, duplicates: 0, refused: 0, left: 0 };
  for (const entry of queue.pending()) {
    try {
      const outcome = await uploadClip(queue, entry, target);
      if (outcome.result === 'stored') summary.stored += 1;
      else summary.duplicates += 1;
      queue.remove(entry);
      on.delivered?.(entry, outcome);
    } catch (err) {
      if (err instanceof EvidenceUploadError && err.final) {
        queue.remove(entry);
        summary.refused += 1;
        on.refused?.(entry, err);
        continue;
      }
      queue.update(entry, { attempts: entry.attempts + 1, last_error: (err as Error).message.slice(0, 300) });
      throw err;
    }
  }
  summary.left = queue.pending().length;
  return summary;
}
