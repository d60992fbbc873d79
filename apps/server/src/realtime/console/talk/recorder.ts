import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { OggOpusWriter, type Talker } from '@bwc/protocol';

/** Where bursts are kept: DATA_DIR/talk/<day>/<refid>.ogg. */
export function recordPath(refid: string, startMs: number): string {
  const day = new Date(startMs).toISOString().slice(0, 10);
  return join('talk', day, `${refid}.ogg`);
}

let serial = 1;

/**
 * One burst being recorded: the talker's Opus packets as they arrive, written as Ogg Opus (the
 * packets themselves, not re-encoded), so the recording is exactly what the listeners heard.
 */
export class BurstRecorder {
  readonly path: string;
  frames = 0;
  bytes = 0;
  lastFrame = Date.now();
  private readonly out: WriteStream;
  private readonly writer = new OggOpusWriter({ serial: serial++ });
  private closed = false;

  constructor(
    dataDir: string,
    readonly talker: Talker,
    readonly group: { tgid: number; name: string; unit_id: number },
  ) {
    this.path = recordPath(talker.refid, talker.since);
    const file = join(dataDir, this.path);
    mkdirSync(dirname(file), { recursive: true });
    this.out = createWriteStream(file);
    this.write(this.writer.header());
  }

  private write(bytes: Uint8Array): void {
    if (bytes.byteLength) {
      this.out.write(bytes);
      this.bytes += bytes.byteLength;
    }
  }

  packet(opus: Uint8Array): void {
    if (this.closed) return;
    this.frames += 1;
    this.lastFrame = Date.now();
    this.write(this.writer.packet(opus));
  }

  /** Finish the file; resolves once it is on disk. */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.write(this.writer.end());
    return new Promise((resolve, reject) => {
      this.out.once('error', reject);
      this.out.end(() => resolve());
    });
  }
}
