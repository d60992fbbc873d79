import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/connection';
import type { ContentStore } from '../store';
import { sha256File } from './finish';
import { derive } from './media-tools';

/**
 * Browser-playable copies (H.264/AAC MP4, or AAC in MP4 for audio) of originals the browser
 * cannot play, made one at a time in the background: `playable` goes from 'pending' to 'ready'
 * (derivative_sha256 set, the copy in the content store by its own hash) or 'failed'.
 */
export class DerivativeQueue {
  private readonly queue: number[] = [];
  private running: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly store: ContentStore,
    private readonly workDir: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  enqueue(itemId: number): void {
    if (this.closed || this.queue.includes(itemId)) return;
    this.queue.push(itemId);
    this.running ??= this.drain().finally(() => (this.running = null));
  }

  /** Queue every item still pending (after a restart, or on taking the scheduler lease). */
  resume(): void {
    void this.db
      .selectFrom('evidence_items')
      .select('id')
      .where('playable', '=', 'pending')
      .orderBy('id')
      .execute()
      .then((rows) => rows.forEach((r) => this.enqueue(r.id)))
      .catch((err: unknown) => this.log.error({ err }, 'evidence derivatives: pending items not read'));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.queue.length = 0;
    await this.running;
  }

  private async drain(): Promise<void> {
    for (let id = this.queue.shift(); id !== undefined && !this.closed; id = this.queue.shift()) {
      await this.make(id).catch((err: unknown) => this.log.error({ err, item: id }, 'evidence derivative failed'));
    }
  }

  private async make(itemId: number): Promise<void> {
    const item = await this.db
      .selectFrom('evidence_items')
      .select(['sha256', 'media_type', 'audio_codec', 'playable'])
      .where('id', '=', itemId)
      .executeTakeFirst();
    if (!item || item.playable !== 'pending') return;
    const source = this.store.localPath(item.sha256);
    const out = join(this.workDir, `derivative-${itemId}.mp4`);
    let playable: 'ready' | 'failed' = 'failed';
    let derivative: string | null = null;
    try {
      if (!source) throw new Error('the content store has no local path');
      await derive(source, out, item.media_type === 1 ? 'video' : 'audio', item.audio_codec !== '');
      derivative = await sha256File(out);
      await this.store.adopt(out, derivative);
      playable = 'ready';
    } catch (err) {
      this.log.warn({ err, item: itemId }, 'evidence derivative not made');
      await rm(out, { force: true });
    }
    await this.db
      .updateTable('evidence_items')
      .set({ playable, derivative_sha256: derivative })
      .where('id', '=', itemId)
      .execute();
  }
}
