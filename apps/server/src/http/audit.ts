import type { FastifyInstance, FastifyRequest } from 'fastify';
import { now } from '../db/connection';
import { insertOperation } from '../modules/oplog/oplog.repository';

export interface AuditInfo {
  /** target id when the handler knows it better than `body.id` / `query.id` */
  target?: string | number;
  /** who acted when there is no session yet (login attempts) */
  actor?: { id?: number; username: string; unit_id?: number; unit_name?: string };
}

declare module 'fastify' {
  interface FastifyRequest {
    audit: AuditInfo;
  }
  interface FastifyContextConfig {
    /** write this request to operation_log (defineRoute: the protocol's AUDITED_ENDPOINTS) */
    audit?: boolean;
  }
}

function targetOf(req: FastifyRequest): string {
  if (req.audit.target !== undefined) return String(req.audit.target);
  for (const source of [req.body, req.query]) {
    if (source && typeof source === 'object' && 'id' in source) {
      const id = (source as { id: unknown }).id;
      if (typeof id === 'string' || typeof id === 'number') return String(id).slice(0, 255);
    }
  }
  return '';
}

/**
 * Every operation (a route of the protocol's AUDITED_ENDPOINTS) is written to operation_log
 * before the answer leaves: who, unit, endpoint, target, source address, result code, and the
 * result msg with its catalogue key and params, so that the log reads in each viewer's language.
 */
export function installAuditHook(app: FastifyInstance): void {
  app.decorateRequest('audit', null as unknown as AuditInfo);
  app.addHook('onRequest', async (req) => {
    req.audit = {};
  });
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.routeOptions.config?.audit !== true || !req.routeOptions.url || !req.result) return payload;
    const user = req.auth?.user;
    const actor = user
      ? { id: user.id, username: user.username, unit_id: user.unit_id, unit_name: user.unit_name }
      : req.audit.actor;
    try {
      await insertOperation(app.db, {
        user_id: actor?.id ?? null,
        username: actor?.username ?? '',
        unit_id: actor?.unit_id ?? null,
        unit_name: actor?.unit_name ?? '',
        action: req.routeOptions.url,
        target: targetOf(req),
        ip: req.ip,
        result_code: req.result.code,
        msg: req.result.msg.slice(0, 1000),
        msg_key: req.result.key ?? '',
        msg_params: req.result.key && req.result.params ? JSON.stringify(req.result.params).slice(0, 2000) : '',
        created: now(),
      });
    } catch (err) {
      req.log.error({ err }, 'audit write failed');
    }
    return payload;
  });
}
