import type { FastifyInstance } from 'fastify';
import type { EvidenceContext } from '../evidence.module';
import { registerFileRoutes } from './files';
import { registerLibraryRoutes } from './library.routes';
import { LibraryService } from './library.service';

/**
 * The library (issue 15 sections 2, 4, 5): search by view and filters within the caller's units,
 * view and play at signed addresses, marks, revisions, soft deletion with its recovery window,
 * hard deletion to a tombstone, downloads with the original hashed again, the custody chain.
 */
export async function registerLibrary(app: FastifyInstance, ctx: EvidenceContext) {
  // the alarms module is registered before evidence (modules/registry.ts)
  const service = new LibraryService(app.db, ctx.store, app.hasDecorator('alarms') ? app.alarms : undefined);
  app.decorate('evidenceLibrary', service);
  await registerLibraryRoutes(app, service);
  await registerFileRoutes(app, service);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the evidence library's operations (its `clock` is replaced in tests) */
    evidenceLibrary: LibraryService;
  }
}
