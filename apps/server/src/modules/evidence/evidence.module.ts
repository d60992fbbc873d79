import type { FastifyInstance } from 'fastify';
import type { DeviceRuntime } from '../devices/runtime';
import { registerAccess } from './access/access.module';
import { registerCases } from './cases/cases.routes';
import { registerEvidenceExport } from './export/export.routes';
import { registerIngest } from './ingest/ingest.module';
import { registerLibrary } from './library/library.module';
import { registerRetention } from './retention/retention.module';
import { registerSensitive } from './sensitive/sensitive.module';
import { registerReview } from './review/review.module';
import { registerPlayback } from './playback/playback.routes';
import { LocalContentStore, type ContentStore } from './store';

/** What the evidence module uses of other modules. */
export interface EvidenceModuleDeps {
  /** device authentication of the device API (camera uploads) */
  devices: DeviceRuntime;
}

/** What the two halves of the module share. */
export interface EvidenceContext {
  store: ContentStore;
}

/**
 * Evidence (issue 15): ingest (tus uploads from consoles, cameras and workstations, type and size
 * checks, SHA-256 while streaming, ffprobe metadata, thumbnail, browser-playable derivative) and
 * the library (search, view and play at signed addresses, marks, revisions, deletion and recovery,
 * downloads with the hash verified again, the chain of custody).
 */
export async function registerEvidenceModule(app: FastifyInstance, { devices }: EvidenceModuleDeps): Promise<void> {
  const ctx: EvidenceContext = { store: new LocalContentStore(app.config.dataDir) };
  await registerIngest(app, ctx, { devices });
  await registerLibrary(app, ctx);
  await registerAccess(app);
  await registerEvidenceExport(app, ctx);
  await registerPlayback(app);
  await registerCases(app, ctx);
  await registerRetention(app);
  await registerSensitive(app);
  await registerReview(app, ctx);
}
