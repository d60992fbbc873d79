import type { FastifyInstance } from 'fastify';
import type { LicenceService } from '../licence/licence.service';
import { registerAuthRoutes } from './auth.routes';

/** What the auth module uses of other modules. */
export interface AuthModuleDeps {
  /** the licence module: the login screen's `registered` flag and the login's licence check */
  licence: LicenceService;
}

/** Login, captcha, heartbeat, logout, session context and password change: the routes only. */
export async function registerAuthModule(app: FastifyInstance, { licence }: AuthModuleDeps): Promise<void> {
  await registerAuthRoutes(app, licence);
}
