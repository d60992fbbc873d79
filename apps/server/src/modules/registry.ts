import type { FastifyInstance } from 'fastify';
import { registerAuthRoutes } from './auth/auth.routes';
import { registerIndexRoutes } from './index/index.routes';
import { registerLicenceModule } from './licence/licence.module';
import { registerSystemRoutes } from './system/settings.routes';
import { registerAnnounceRoutes } from './announce/announce.routes';
import { registerDownloadRoutes } from './download/download.routes';
import { registerHomeRoutes } from './home/home.routes';
import { registerUnitRoutes } from './units/units.routes';
import { registerUserRoutes } from './users/users.routes';
import { registerRoleRoutes } from './roles/roles.routes';
import { registerOplogRoutes } from './oplog/oplog.routes';
import { registerDictionaryRoutes } from './dictionary/dictionary.routes';
import { registerDevices } from './devices/devices.module';
import { registerFencesModule } from './fences/fences.module';
import { registerTracks } from './tracks/tracks.routes';
import { registerGroupsModule } from './groups/groups.module';
import { registerMaps } from './maps/maps.routes';
import { registerAlarmsModule } from './alarms/alarms.module';
import { registerMessages } from './messages/messages.routes';
import { registerConsoleService } from '../realtime/console/console.module';

/**
 * Every domain module, in registration order. A module exports `register<Domain>(app)` which
 * declares its routes with `defineRoute` (http/route.ts). Add yours here (one line). A module
 * that uses another receives it as an explicit argument (alarms: `{ devices }`), so the compiler
 * refuses an order where the provider comes later.
 */
export async function registerModules(app: FastifyInstance): Promise<void> {
  await registerLicenceModule(app);
  await registerAuthRoutes(app);
  await registerIndexRoutes(app);
  await registerSystemRoutes(app);
  await registerAnnounceRoutes(app);
  await registerDownloadRoutes(app);
  await registerHomeRoutes(app);
  await registerUnitRoutes(app);
  await registerUserRoutes(app);
  await registerRoleRoutes(app);
  await registerOplogRoutes(app);
  await registerDictionaryRoutes(app);
  const devices = await registerDevices(app);
  await registerFencesModule(app);
  await registerTracks(app);
  await registerGroupsModule(app);
  await registerMaps(app);
  await registerAlarmsModule(app, { devices });
  await registerMessages(app);
  await registerConsoleService(app);
}
