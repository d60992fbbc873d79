import type { FastifyInstance, FastifyRequest } from 'fastify';
import { now } from '../db/connection';

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
    /** write this request to operation_log; default true for POST, false otherwise */
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
 * Every state-changing request of a declared route is written to operation_log before the
 * answer leaves: who, unit, endpoint, target, source address, result code and msg.
 */
export function installAuditHook(app: FastifyInstance): void {
  app.decorateRequest('audit', null as unknown as AuditInfo);
  app.addHook('onRequest', async (req) => {
    req.audit = {};
  });
  app.addHook('onSend', async (req, reply, payload) => {
    const configured = req.routeOptions.config?.audit;
    const wanted = configured ?? req.method === 'POST';
    if (!wanted || !req.routeOptions.url || !req.result) return payload;
    const user = req.auth?.user;
    const actor = user
      ? { id: user.id, username: user.username, unit_id: user.unit_id, unit_name: user.unit_name }
      : req.audit.actor;
    try {
      await app.db
        .insertInto('operation_log')
        .values({
          user_id: actor?.id ?? null,
          username: actor?.username ?? '',
          unit_id: actor?.unit_id ?? null,
          unit_name: actor?.unit_name ?? '',
          action: req.routeOptions.url,
          target: targetOf(req),
          ip: req.ip,
          result_code: req.result.code,
          msg: req.result.msg.slice(0, 1000),
          created: now(),
        })
        .execute();
    } catch (err) {
      req.log.error({ err }, 'audit write failed');
    }
    return payload;
  });
}
