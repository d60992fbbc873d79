import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../http/route';
import { readPlayConfig } from '../system/settings.repository';
import { readGbSettings } from './gb28181.repository';
import type { GbRuntime } from './gb-runtime';
import { checkGbUser, playerConfig } from './gb28181.service';

/** gbconfig/get and checkgbuser (spec part 2 section 7.2), gb_status (ours). The settings themselves are system settings (type gbconfig). */
export async function registerGbRoutes(app: FastifyInstance, runtime: GbRuntime): Promise<void> {
  defineRoute(app, {
    api: 'gbConfig',
    handler: async ({ db, user, req }) => ({
      ...playerConfig(await readGbSettings(db), user, req.hostname, (await readPlayConfig(db)).video_live_num),
      running: runtime.running ? (1 as const) : (0 as const),
    }),
  });

  defineRoute(app, {
    api: 'gbStatus',
    handler: async ({ db }) => {
      const settings = await readGbSettings(db);
      const platform = runtime.platform;
      return {
        gb_mode: settings.gb_mode,
        running: platform ? (1 as const) : (0 as const),
        host: settings.LocalIp,
        port: platform?.port ?? 0,
        // the last start's failure, while GB mode asks for the platform
        error: platform || settings.gb_mode !== 1 ? '' : runtime.lastError,
      };
    },
  });

  defineRoute(app, {
    api: 'gbCheckUser',
    handler: async ({ db, user }) => checkGbUser(await readGbSettings(db), user),
  });
}
