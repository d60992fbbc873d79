import { createReadStream } from 'node:fs';

import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../http/route';
import { auditIds } from '../system/search';
import { contentDisposition } from '../system/file-store';
import { parseRange } from './range';
import * as downloads from './download.service';

/** rest/system/download/*: download-center entries and their files. */
export async function registerDownloadRoutes(app: FastifyInstance): Promise<void> {
  defineRoute(app, {
    api: 'downloadList',
    handler: async ({ db, query }) => downloads.list(db, query),
  });

  defineRoute(app, {
    api: 'downloadCenter',
    handler: async ({ db }) => downloads.center(db),
  });

  defineRoute(app, {
    api: 'downloadFile',
    handler: async ({ req, reply, query }) => {
      const { row, path, size } = await downloads.openFile(app, query.id);
      reply
        .header('content-type', 'application/octet-stream')
        .header('content-disposition', contentDisposition(row.file_name))
        .header('accept-ranges', 'bytes')
        .header('x-content-type-options', 'nosniff');
      const range = parseRange(req.headers.range, size);
      if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${size}`).send();
      if (range) {
        return reply
          .code(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
          .header('content-length', range.end - range.start + 1)
          .send(createReadStream(path, { start: range.start, end: range.end }));
      }
      return reply.header('content-length', size).send(createReadStream(path));
    },
  });

  defineRoute(app, {
    api: 'downloadAdd',
    msg: 'success.added',
    handler: async ({ req, user }) => downloads.add(app, req, user),
  });

  defineRoute(app, {
    api: 'downloadUpdate',
    msg: 'success.updated',
    handler: async ({ req }) => downloads.update(app, req),
  });

  defineRoute(app, {
    api: 'downloadDelete',
    msg: 'success.deleted',
    handler: async ({ req, body }) => {
      req.audit.target = auditIds(body.ids);
      await downloads.remove(app, body.ids);
      return null;
    },
  });

  defineRoute(app, {
    api: 'downloadIsIndex',
    msg: 'success.saved',
    handler: async ({ db, body }) => downloads.setIsIndex(db, body.id, body.is_index),
  });
}
