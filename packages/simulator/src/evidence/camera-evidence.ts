import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClipQueue } from './queue';
import { recordClip, type ClipKind, type RecordedClip } from './recorder';
import { sendQueued, type SendSummary, type UploadTarget } from './uploader';

/**
 * The evidence side of one simulated camera: it records a clip now and then into its own folder
 * and sends its queue to the server. A fleet shares one Gate, so that only a couple of cameras
 * record or upload at the same time, however many there are.
 */

/** Default folder of the cameras' clips: one sub-folder per server, one per camera below it. */
export function evidenceRoot(server: string): string {
  const url = new URL(server);
  return join(tmpdir(), 'bwc-sim-evidence', `${url.hostname}_${url.port || (url.protocol === 'https:' ? 443 : 80)}`);
}

/** At most `size` tasks run at once; the others wait their turn in order. */
export class Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running += 1;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

/** Which kind a camera records: mostly video, some audio notes and photos. */
export function pickKind(random: () => number): ClipKind {
  const r = random();
  return r < 0.6 ? 'video' : r < 0.8 ? 'audio' : 'photo';
}

export interface CameraEvidenceOptions {
  identity: { hostbody: string; hostname: string };
  /** the camera's folder */
  dir: string;
  target: UploadTarget;
  random?: () => number;
  /** default: the recorder's (findFfmpeg) */
  ffmpeg?: string | null;
  /** a clip the server refused for good (dropped) */
  onRefused?: (filename: string, reason: string) => void;
}

export class CameraEvidence {
  readonly queue: ClipQueue;
  recorded = 0;
  stored = 0;
  duplicates = 0;
  refused = 0;
  /** clips waiting in the queue after the last round */
  pending: number;

  constructor(private readonly options: CameraEvidenceOptions) {
    this.queue = new ClipQueue(options.dir);
    this.pending = this.queue.pending().length;
  }

  /** Record one clip (of a kind drawn at random; of a length drawn by the recorder) into the queue. */
  async record(kind: ClipKind = pickKind(this.options.random ?? Math.random), seconds?: number): Promise<RecordedClip> {
    const clip = await recordClip({
      kind,
      seconds,
      dir: this.options.dir,
      identity: this.options.identity,
      random: this.options.random,
      ...(this.options.ffmpeg === undefined ? {} : { ffmpeg: this.options.ffmpeg }),
    });
    this.queue.add(clip);
    this.recorded += 1;
    this.pending = this.queue.pending().length;
    return clip;
  }

  /** Send the queue, oldest first; throws (clips kept) when the server is away or refuses the token. */
  async send(): Promise<SendSummary> {
    try {
      return await sendQueued(this.queue, this.options.target, {
        delivered: (_entry, outcome) => {
          if (outcome.result === 'stored') this.stored += 1;
          else this.duplicates += 1;
        },
        refused: (entry, err) => {
          this.refused += 1;
          this.options.onRefused?.(entry.filename, err.message);
        },
      });
    } finally {
      this.pending = this.queue.pending().length;
    }
  }
}
