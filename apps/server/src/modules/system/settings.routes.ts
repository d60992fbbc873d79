import { createReadStream } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { groupApi } from '../../realtime/console/accounts';
import type { ConsoleService } from '../../realtime/console/service';
import { Errors } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { mimeOfExtension } from './background';
import { presentSettings } from './settings.presenter';
import { readPlayConfig, readSettings, writePlayConfig } from './settings.repository';
import {
  authorizeType,
  currentBackground,
  mapConfig,
  mayEditType,
  parseSettings,
  updateSettings,
  uploadBackground,
} from './settings.service';

/** rest/system/config/* and the public login background. */
/** What gis info needs of the console service. */
export type ServiceAccounts = Pick<ConsoleService, 'listeningPort' | 'online'>;

export async function registerSystemRoutes(app: FastifyInstance, consoleService: ServiceAccounts): Promise<void> {
  defineRoute(app, {
    api: 'settingsGet',
    // the menu (10002 or 10003) depends on the type: checked here instead of the fixed rule
    selfAuth: true,
    handler: async (ctx) => {
      const { req, db, query } = ctx;
      await authorizeType(app, req, query.type, 'view');
      const value = await readSettings(db, query.type);
      return presentSettings(query.type, value, await mayEditType(db, ctx.user, query.type));
    },
  });

  defineRoute(app, {
    api: 'settingsUpdate',
    // the registry's body schema checks only the type: the caller's right to the type's menu
    // (10002 or 10003) comes before the fields are validated, and a refused update is audited
    msg: 'success.saved',
    selfAuth: true,
    summary: 'settingsUpdate: {type, ...fields of SettingsSchemas[type]} (protocol SettingsUpdateRequest)',
    handler: async ({ req, body }) => {
      const { type } = body;
      req.audit.target = type;
      await authorizeType(app, req, type, 'edit');
      const value = parseSettings(type, body);
      await updateSettings(app, type, value);
      return presentSettings(type, value, true);
    },
  });

  defineRoute(app, {
    api: 'playGet',
    handler: async ({ db }) => readPlayConfig(db),
  });

  defineRoute(app, {
    api: 'playUpdate',
    msg: 'success.saved',
    handler: async ({ req, db, body }) => {
      req.audit.target = 'play';
      await writePlayConfig(db, body);
      return body;
    },
  });

  defineRoute(app, {
    api: 'mapConfig',
    handler: async ({ db, req, auth }) => ({
      ...(await mapConfig(db)),
      group_api: await groupApi(db, consoleService, req, auth!),
    }),
  });

  defineRoute(app, {
    api: 'uploadBackground',
    msg: 'success.uploaded',
    handler: async ({ req }) => {
      req.audit.target = 'backset';
      return uploadBackground(app, req);
    },
  });

  defineRoute(app, {
    api: 'background',
    handler: async ({ reply }) => {
      const image = await currentBackground(app);
      if (!image) throw Errors.notFound('file');
      return reply
        .header('content-type', mimeOfExtension(image.ext))
        .header('content-length', image.size)
        .header('cache-control', 'no-cache')
        .send(createReadStream(image.path));
    },
  });
}
