import type { FastifyInstance } from 'fastify';
import type { LicenceGate } from '../devices/devices.service';
import { registerWorkstationRoutes } from './workstations.routes';
import { WorkstationService } from './workstations.service';

declare module 'fastify' {
  interface FastifyInstance {
    /** docking workstations: registry, credentials, heartbeats (modules/workstations) */
    workstations: WorkstationService;
  }
}

/**
 * Docking workstations (issue 15 section 1b): the registry of the ops centre (workAdmin 10313,
 * counted against the licence's `workstations`), the workstation API (login, heartbeat,
 * provision). Their uploads are served by the evidence ingest at WORKSTATION_UPLOAD_PATH, which
 * reads `app.workstations`.
 */
export async function registerWorkstationsModule(
  app: FastifyInstance,
  { licence }: { licence: LicenceGate },
): Promise<WorkstationService> {
  const service = new WorkstationService(app.db, licence);
  app.decorate('workstations', service);
  await registerWorkstationRoutes(app, service);
  return service;
}
