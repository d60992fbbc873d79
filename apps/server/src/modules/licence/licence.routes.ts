import { type RegistrationStatus } from '@bwc/protocol';
import type { ServerDeps } from '../../deps';
import type { FastifyInstance } from 'fastify';
import { Errors } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { presenceSince } from '../auth/presence';
import { countActiveSessions } from '../auth/session.repository';
import { countDevices } from '../devices/devices.repository';
import { productVersion } from '../index/version';
import type { LicenceService, LicenceStatus } from './licence.service';
import { readGbSettings } from '../gb28181/gb28181.repository';

function registrationOf(status: LicenceStatus, macCode: string): RegistrationStatus {
  return {
    registered: status.state === 'valid',
    mac_code: macCode,
    valid_days: status.state === 'valid' ? status.validDays : 0,
  };
}

/** Workstations in use: active sessions whose console was heard from lately (presenceSince). */
export async function workstationsInUse(deps: Pick<ServerDeps, 'db'>, excludeUserId?: number): Promise<number> {
  return countActiveSessions(deps.db, await presenceSince(deps.db), excludeUserId);
}

/** Registration and version routes (the module, licence.module.ts, builds the service). */
export async function registerLicenceRoutes(app: FastifyInstance, service: LicenceService): Promise<void> {
  defineRoute(app, {
    api: 'registration',
    handler: async () => registrationOf(await service.status(), service.macCode),
  });

  defineRoute(app, {
    api: 'versionInfo',
    handler: async () => {
      const status = await service.status();
      const payload = status.state === 'unregistered' ? null : status.payload;
      return {
        version: productVersion(),
        valid_days: status.state === 'valid' ? status.validDays : 0,
        workstation_nums: payload?.workstations ?? 0,
        use_workstation_nums: await workstationsInUse(app),
        device_nums: payload?.devices ?? 0,
        use_device_nums: await countDevices(app.db),
        mac_code: service.macCode,
        regist_code: status.state === 'unregistered' ? '' : status.code,
        play_versiton: (await readGbSettings(app.db)).gb_mode === 1 ? 'GB' : 'GIS',
        registered: status.state === 'valid',
        expires_at: status.state === 'unregistered' ? null : (status.expiresAt?.toISOString() ?? null),
      };
    },
  });

  defineRoute(app, {
    api: 'register',
    msg: 'success.registered',
    handler: async ({ body, auth }) => {
      // public while unregistered or expired (the login screen's step); admin only while valid
      if ((await service.status()).state === 'valid' && auth?.user.ifadmin !== 1) throw Errors.alreadyRegistered();
      await service.register(body.regist_code);
      return registrationOf(await service.status(), service.macCode);
    },
  });
}
