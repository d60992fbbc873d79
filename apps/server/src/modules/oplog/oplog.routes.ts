import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../http/route';
import { unitScope } from '../../http/scope';
import { contentDisposition } from '../system/file-store';
import * as oplog from './oplog.service';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** OperationLog (menu 10431): the audit trail within the caller's unit scope, and its export. */
export async function registerOplogRoutes(app: FastifyInstance): Promise<void> {
  defineRoute(app, {
    api: 'logList',
    handler: async ({ db, user, query, lang }) => oplog.listLog(db, await unitScope(db, user), query, lang),
  });

  defineRoute(app, {
    api: 'logExport',
    // an export is itself an auditable act
    handler: async ({ db, user, query, reply, req, t, lang }) => {
      const file = await oplog.exportLog(db, await unitScope(db, user), query, (key) => t(key), lang);
      req.result = { code: 200, msg: file.fileName };
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', contentDisposition(file.fileName))
        .header('cache-control', 'no-store')
        .send(file.content);
    },
  });
}
