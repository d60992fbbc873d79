import type { FastifyInstance } from 'fastify';
import type { Lease } from '../../../cluster/cluster';
import { defineRoute } from '../../../http/route';
import { unitScope } from '../../../http/scope';
import { RetentionService } from './retention.service';

/** How often the daily job looks whether a day has passed since the last run. */
export const RETENTION_TICK_MS = 60 * 60_000;

/**
 * The daily retention job: runs only on the node holding the scheduler lease, at most once a day
 * (the last run is a shared setting, so a node taking the lease over does not run it again).
 */
export class RetentionJob {
  private timer: NodeJS.Timeout | null = null;
  private busy: Promise<unknown> | null = null;

  constructor(
    private readonly service: RetentionService,
    private readonly lease: Lease,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** One check: runs the day's retention when due and this node holds the lease. */
  async tick() {
    if (!this.lease.held || this.busy) return null;
    const run = this.service.daily();
    this.busy = run;
    try {
      return await run;
    } finally {
      this.busy = null;
    }
  }

  start(every = RETENTION_TICK_MS) {
    const tick = () => void this.tick().catch(this.onError);
    this.timer = setInterval(tick, every);
    this.timer.unref();
    tick();
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.busy?.catch(() => {});
  }
}

/**
 * Retention (issue 15 section 4), on menu 10272: the policy (view; edit to change), the preview of
 * items due within N days (view), a run now over the caller's units (edit), and the daily job.
 */
export async function registerRetention(app: FastifyInstance): Promise<void> {
  const service = new RetentionService(app.db, app.evidenceLibrary);
  const job = new RetentionJob(service, app.cluster.scheduler, (err) => app.log.error({ err }, 'retention failed'));
  app.decorate('evidenceRetention', { service, job });
  // tests drive the job with tick() and a fake clock
  if (app.config.nodeEnv !== 'test') app.addHook('onReady', async () => job.start());
  app.addHook('onClose', () => job.stop());

  defineRoute(app, {
    api: 'retentionGet',
    handler: () => service.policy(),
  });

  defineRoute(app, {
    api: 'retentionUpdate',
    msg: 'success.saved',
    handler: async ({ body }) => {
      await service.update(body.rules);
      return service.policy();
    },
  });

  defineRoute(app, {
    api: 'retentionPreview',
    handler: async ({ db, user, body }) => service.preview(await unitScope(db, user), body.days, body.page, body.limit),
  });

  defineRoute(app, {
    api: 'retentionRun',
    msg: 'success.ok',
    handler: async ({ db, user }) => service.run(await unitScope(db, user)),
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** evidence retention: the service and its daily job */
    evidenceRetention: { service: RetentionService; job: RetentionJob };
  }
}
