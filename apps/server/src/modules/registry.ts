import type { FastifyInstance } from 'fastify';
import { registerAuthModule } from './auth/auth.module';
import { registerIndexModule } from './index/index.module';
import { registerLicenceModule } from './licence/licence.module';
import { registerSystemModule } from './system/system.module';
import { registerAnnounceModule } from './announce/announce.module';
import { registerDownloadModule } from './download/download.module';
import { registerHomeModule } from './home/home.module';
import { registerUnitsModule } from './units/units.module';
import { registerUsersModule } from './users/users.module';
import { registerRolesModule } from './roles/roles.module';
import { registerOplogModule } from './oplog/oplog.module';
import { registerDictionaryModule } from './dictionary/dictionary.module';
import { registerDevicesModule } from './devices/devices.module';
import { registerFencesModule } from './fences/fences.module';
import { registerTracksModule } from './tracks/tracks.module';
import { registerGroupsModule } from './groups/groups.module';
import { registerMapsModule } from './maps/maps.module';
import { registerAlarmsModule } from './alarms/alarms.module';
import { registerMediaModule } from './media/media.module';
import { registerEvidenceModule } from './evidence/evidence.module';
import { registerWorkstationsModule } from './workstations/workstations.module';
import { registerMessagesModule } from './messages/messages.module';
import { registerGb28181Module } from './gb28181/gb28181.module';
import { registerConsoleService } from '../realtime/console/console.module';

/**
 * Every domain module, in registration order, and nothing else. Each domain folder has one
 * `<domain>.module.ts` exporting `register<Domain>Module(app, deps?)`, which builds its services,
 * declares its routes (`defineRoute`, http/route.ts), bus subscriptions and start/stop hooks
 * (docs/ARCHITECTURE.md section 3a). Add yours here (one line). A module that uses another
 * receives it as an explicit argument (auth: `{ licence }`, alarms: `{ devices }`, messages:
 * `{ presence }` from the console service), so the
 * compiler refuses an order where the provider comes later. The console service
 * (realtime/console) keeps its own name.
 */
export async function registerModules(app: FastifyInstance): Promise<void> {
  const licence = await registerLicenceModule(app);
  await registerAuthModule(app, { licence });
  await registerIndexModule(app);
  await registerAnnounceModule(app);
  await registerDownloadModule(app);
  await registerHomeModule(app);
  await registerUnitsModule(app);
  await registerUsersModule(app);
  await registerRolesModule(app);
  await registerOplogModule(app);
  await registerDictionaryModule(app);
  const devices = await registerDevicesModule(app, { licence });
  await registerFencesModule(app);
  await registerTracksModule(app);
  await registerGroupsModule(app);
  await registerMapsModule(app);
  await registerAlarmsModule(app, { devices });
  const live = await registerMediaModule(app, { devices });
  await registerWorkstationsModule(app, { licence });
  await registerEvidenceModule(app, { devices });
  const consoleService = await registerConsoleService(app, { devices, live });
  await registerSystemModule(app, { consoleService });
  await registerMessagesModule(app, { presence: consoleService });
  await registerGb28181Module(app);
}
