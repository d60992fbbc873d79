/**
 * Group commit: jobs queued within a short window (one event-loop turn, or a few ms) are written
 * in ONE transaction, and each caller is answered only after that commit. One batch runs at a
 * time; jobs arriving meanwhile form the next batch, started as soon as the running one ends.
 *
 * If a batch fails (say one job names a row deleted meanwhile), each of its jobs is written again
 * alone, so that one bad job does not fail the others; a job that fails alone is rejected with
 * `failure(err)`. Used by the device runtime for positions and for SOS events.
 */
export interface GroupCommitOptions<J extends { reject: (err: unknown) => void }> {
  /**
   * Write the jobs in one transaction. Throws when it failed (nothing is answered then); on
   * success answers what to run once the batch counts as committed (answer the jobs, emit
   * events). That callback runs outside the failure handling, so an error in it never writes a
   * batch twice.
   */
  write: (jobs: J[]) => Promise<() => void>;
  /** wait this long for more jobs before writing; undefined: until the end of the event-loop turn */
  delayMs?: number;
  /** write at once when the queued size reaches this (default: no limit) */
  maxQueued?: number;
  /** size of a job towards `maxQueued` (default 1) */
  sizeOf?: (job: J) => number;
  /** what a job that failed alone is rejected with (default: the error) */
  failure?: (err: unknown) => unknown;
}

export class GroupCommit<J extends { reject: (err: unknown) => void }> {
  private queue: J[] = [];
  private queued = 0;
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  /** committed batches since start */
  commits = 0;

  constructor(private readonly options: GroupCommitOptions<J>) {}

  /** Queue a job; its `write` answers it once its batch is committed. */
  add(job: J): void {
    this.queue.push(job);
    this.queued += this.options.sizeOf?.(job) ?? 1;
    if (this.running) return;
    if (this.queued >= (this.options.maxQueued ?? Infinity)) this.kick();
    else if (!this.timer && !this.immediate) {
      if (this.options.delayMs === undefined) this.immediate = setImmediate(() => this.kick());
      else this.timer = setTimeout(() => this.kick(), this.options.delayMs);
    }
  }

  /** Resolves when every job queued so far is written (or failed). */
  async drain(): Promise<void> {
    while (this.running || this.queue.length) {
      if (!this.running) this.kick();
      await this.running;
    }
  }

  private kick(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = null;
    this.immediate = null;
    if (this.running || !this.queue.length) return;
    const jobs = this.queue;
    this.queue = [];
    this.queued = 0;
    this.running = this.run(jobs).finally(() => {
      this.running = null;
      if (this.queue.length) this.kick();
    });
  }

  private async run(jobs: J[]): Promise<void> {
    let committed: () => void;
    try {
      committed = await this.options.write(jobs);
    } catch (err) {
      if (jobs.length > 1) {
        for (const job of jobs) await this.run([job]);
      } else {
        jobs[0]!.reject(this.options.failure ? this.options.failure(err) : err);
      }
      return;
    }
    this.commits += 1;
    committed();
  }
}

/** A write failed because a referenced row is gone (SQLite or PostgreSQL foreign key violation). */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}
