import { IdInput, MB, UPLOAD_LIMIT_MB } from '@bwc/protocol';
import type { FastifyInstance } from 'fastify';
import { Errors } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { unitScope } from '../../http/scope';
import * as devices from './devices.service';
import { checkWorkbookFile, importDevices, importTemplate } from './import';
import { readDeviceSettings, writeDeviceSettings } from './settings';

/** Ops centre: recorders (recorderAdmin 10311), their models (recorderModel 10314), device settings. */
export async function registerDeviceAdminRoutes(app: FastifyInstance, licence: devices.LicenceGate): Promise<void> {
  defineRoute(app, {
    api: 'deviceList',
    handler: async ({ db, user, query }) => devices.listDevices(db, await unitScope(db, user), query),
  });

  defineRoute(app, {
    api: 'deviceAdd',
    msg: 'success.added',
    handler: async ({ db, user, body, req }) => {
      const out = await devices.addDevice(app, licence, await unitScope(db, user), body);
      req.audit.target = out.device.id;
      return out;
    },
  });

  defineRoute(app, {
    api: 'deviceUpdate',
    msg: 'success.updated',
    handler: async ({ db, user, body }) => devices.updateDevice(app, await unitScope(db, user), body),
  });

  defineRoute(app, {
    api: 'deviceDelete',
    msg: 'success.deleted',
    handler: async ({ db, user, body }) => {
      await devices.deleteDevice(app, await unitScope(db, user), body.id);
      return null;
    },
  });

  defineRoute(app, {
    api: 'deviceResetSecret',
    msg: 'success.device.secretReset',
    handler: async ({ db, user, body }) => devices.resetSecret(app, await unitScope(db, user), body.id),
  });

  defineRoute(app, {
    api: 'deviceImport',
    msg: 'success.device.imported',
    handler: async ({ db, user, req, lang }) => {
      if (!req.isMultipart()) throw Errors.field('file', 'validation.file.required');
      const limitMb = UPLOAD_LIMIT_MB.excelImport;
      let buffer: Buffer | null = null;
      let fileName = '';
      const fields: Record<string, string> = {};
      try {
        for await (const part of req.parts({ limits: { fileSize: limitMb * MB, files: 1 } })) {
          if (part.type === 'file') {
            fileName = part.filename ?? '';
            buffer = await part.toBuffer();
            if (part.file.truncated) throw Errors.field('file', 'validation.file.size', { mb: limitMb });
          } else if (typeof part.value === 'string') {
            fields[part.fieldname] = part.value;
          }
        }
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
          throw Errors.field('file', 'validation.file.size', { mb: limitMb });
        throw err;
      }
      if (!buffer || !buffer.length) throw Errors.field('file', 'validation.file.required');
      checkWorkbookFile(fileName, buffer.subarray(0, 8));
      let unitId: number | undefined;
      if (fields.unit_id) {
        const parsed = IdInput.safeParse({ id: fields.unit_id });
        if (!parsed.success) throw Errors.field('unit_id', 'validation.number');
        unitId = parsed.data.id;
      }
      return importDevices(app, licence, await unitScope(db, user), lang, buffer, unitId);
    },
  });

  defineRoute(app, {
    api: 'deviceImportTemplate',
    handler: async ({ reply, lang }) => {
      const file = await importTemplate(lang);
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', 'attachment; filename="device-import-template.xlsx"')
        .send(file);
    },
  });

  defineRoute(app, {
    api: 'deviceSettingsGet',
    handler: async ({ db }) => readDeviceSettings(db),
  });

  defineRoute(app, {
    api: 'deviceSettingsUpdate',
    msg: 'success.saved',
    handler: async ({ db, body }) => {
      await writeDeviceSettings(db, body);
      return body;
    },
  });

  // ---- recorder models ----
  defineRoute(app, {
    api: 'modelList',
    handler: async ({ db, query }) => devices.listModels(db, query.keyword),
  });

  defineRoute(app, {
    api: 'modelAdd',
    msg: 'success.added',
    handler: async ({ db, body, req }) => {
      const id = await devices.addModel(db, body);
      req.audit.target = id;
      return { id };
    },
  });

  defineRoute(app, {
    api: 'modelUpdate',
    msg: 'success.updated',
    handler: async ({ db, body }) => {
      await devices.updateModel(db, body);
      return null;
    },
  });

  defineRoute(app, {
    api: 'modelDelete',
    msg: 'success.deleted',
    handler: async ({ db, body }) => {
      await devices.deleteModel(db, body.id);
      return null;
    },
  });
}
