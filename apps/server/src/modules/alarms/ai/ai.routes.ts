import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { ALARM_TYPE, ResultCode } from '@bwc/protocol';
import type { FastifyInstance } from 'fastify';
import { AppError, Errors } from '../../../http/errors';
import { defineRoute } from '../../../http/route';
import { unitScope } from '../../../http/scope';
import * as repo from '../alarms.repository';
import type { AlarmService } from '../alarms.service';
import type { AiEngineToken } from './ai-engine-token';
import { ALARM_PIC_WEB_ROOT, type PictureStore } from './picture-store';

const notFound = () => new AppError(ResultCode.NOT_FOUND, 'errors.notFound', { what: 'errors.what.alarm' });

/**
 * The AI engine's side of the alarms: its face and plate results with pictures (`aiAlarm`,
 * authorised by the engine token), the pictures of face alarms (`alarmPic`) and their files.
 * The token and the picture store are this folder's (`ai-engine-token.ts`, `picture-store.ts`).
 */
export async function registerAiRoutes(
  app: FastifyInstance,
  { service, token, pictures }: { service: AlarmService; token: AiEngineToken; pictures: PictureStore },
): Promise<void> {
  defineRoute(app, {
    api: 'alarmPic',
    handler: async ({ db, user, query }) => {
      const rows = await repo.listPictures(db, await unitScope(db, user), [ALARM_TYPE.FACE], query.limit);
      const pics = rows.map((r) => ({ ...JSON.parse(r.picture), id: Number(r.id), eid: r.eid, type: r.type }));
      return { alarm_pic: pics, web_root: ALARM_PIC_WEB_ROOT };
    },
  });

  defineRoute(app, {
    api: 'alarmPicFile',
    handler: async ({ req, reply }) => {
      const name = (req.params as { name?: string }).name ?? '';
      if (!/^[0-9a-f]{24}_[a-z0-9]{1,8}\.(jpg|png)$/.test(name)) throw notFound();
      const file = join(pictures.dir, name);
      if (!existsSync(file)) throw notFound();
      return reply
        .header('content-type', name.endsWith('.png') ? 'image/png' : 'image/jpeg')
        .header('cache-control', 'private, max-age=86400')
        .send(createReadStream(file));
    },
  });

  defineRoute(app, {
    api: 'aiAlarm',
    handler: async ({ db, req, body }) => {
      token.assert(req);
      const eid = `ai:${body.event_id}`;
      const existing = await repo.findAlarmByEid(db, eid);
      if (existing) return { id: Number(existing.id), eid, created: 0 as const };
      const device = await repo.deviceByHostbody(db, body.deviceid);
      if (!device) throw Errors.field('deviceid', 'errors.alarm.unknownDevice', { device: body.deviceid });
      const imgfile = pictures.save(eid, 'scene', body.imgfile);
      const picture = {
        imgfile,
        imgfile_big: body.imgfile_big ? pictures.save(eid, 'big', body.imgfile_big) : imgfile,
        imgfile_small: body.imgfile_small ? pictures.save(eid, 'small', body.imgfile_small) : imgfile,
        compare_result: pictures.compareResults(eid, body.compare_result),
        hostname: body.hostname || device.hostname,
        deviceid: device.hostbody,
        shottime: body.shottime,
        lat: body.lat ?? null,
        lng: body.lng ?? null,
      };
      const best = [...body.compare_result].sort((a, b) => b.similarity - a.similarity)[0];
      const r = await service.ingest({
        eid,
        type: body.kind === 'face' ? ALARM_TYPE.FACE : ALARM_TYPE.PLATE,
        device_id: device.id,
        unit_id: device.unit_id,
        hostname: picture.hostname,
        hostcode: device.hostcode,
        hostbody: device.hostbody,
        alarm_time: body.shottime,
        lat: picture.lat,
        lng: picture.lng,
        message: best ? `${best.name} ${best.comparison} ${best.similarity}` : '',
        picture,
      });
      return { id: Number(r.alarm.id), eid, created: r.created ? (1 as const) : (0 as const) };
    },
  });
}
