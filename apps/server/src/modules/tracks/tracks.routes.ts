import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../http/route';
import { contentDisposition } from '../system/file-store';
import { toGpx, toKml } from './track-export';
import * as tracks from './tracks.service';

const TYPES = {
  gpx: 'application/gpx+xml; charset=utf-8',
  kml: 'application/vnd.google-earth.kml+xml; charset=utf-8',
} as const;

/** History track (monitor/track, menu 10153): gismoni history and history_mark, GPX/KML export. */
export async function registerTrackRoutes(app: FastifyInstance): Promise<void> {
  defineRoute(app, {
    api: 'trackHistory',
    // a read: not an operation to log
    handler: async ({ db, user, body }) => tracks.history(db, user, body),
  });
  defineRoute(app, {
    api: 'trackMarks',
    handler: async ({ db, user, body }) => tracks.marks(db, user, body),
  });
  defineRoute(app, {
    api: 'trackExport',
    handler: async ({ db, user, query, reply, req, t }) => {
      const list = await tracks.exportTracks(db, user, query);
      const texts = { name: t('export.track.name'), stop: (minutes: number) => t('export.track.stop', { minutes }) };
      const body = query.format === 'gpx' ? toGpx(list, texts, new Date().toISOString()) : toKml(list, texts);
      const fileName = `${t('export.track.file')}-${query.start.slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}.${query.format}`;
      req.result = { code: 200, msg: fileName };
      return reply
        .header('content-type', TYPES[query.format])
        .header('content-disposition', contentDisposition(fileName))
        .header('cache-control', 'no-store')
        .send(body);
    },
  });
}
