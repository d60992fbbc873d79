import type { FastifyInstance } from 'fastify';
import { Errors } from '../../http/errors';
import { registerLicenceRoutes } from './licence.routes';
import { LicenceService } from './licence.service';

declare module 'fastify' {
  interface FastifyInstance {
    licence: LicenceService;
  }
}

/**
 * Licence: the service (with the demo licence written on first start), the session gate that sends
 * every console to /406 once the licence is no longer valid, and the registration and version
 * routes. Answers the service, which the registry passes to auth and devices (`app.licence` stays for
 * tests and tools that start the app).
 */
export async function registerLicenceModule(app: FastifyInstance): Promise<LicenceService> {
  const service = new LicenceService(app.db, app.config);
  app.decorate('licence', service);
  await service.ensureDemoLicence();

  // an expired (or no longer valid) licence sends every console to /406
  app.sessionGates.push(async () => {
    if ((await service.status()).state !== 'valid') throw Errors.notAcceptable();
  });

  await registerLicenceRoutes(app, service);
  return service;
}
