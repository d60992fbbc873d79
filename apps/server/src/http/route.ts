import { Api, envelope, type ApiName, type Language } from '@bwc/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../db/connection';
import { authorize, type AuthContext, type AuthUser } from './auth';
import { Errors, type MsgParams } from './errors';
import { requestLanguage, t } from './i18n';

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteContext<B, Q> {
  req: FastifyRequest;
  reply: FastifyReply;
  /** parsed body (zod output) */
  body: B;
  /** parsed query string (zod output) */
  query: Q;
  db: Db;
  /** the caller's session, null on a public route called without one */
  auth: AuthContext | null;
  /** the caller; throws 401 when there is none (public routes) */
  readonly user: AuthUser;
  lang: Language;
  t: (key: string, params?: MsgParams) => string;
}

export interface RouteSpec<
  BS extends z.ZodType | undefined,
  QS extends z.ZodType | undefined,
  DS extends z.ZodType | undefined,
> {
  /** endpoint of the protocol `Api` registry: gives method, path and auth rule */
  api: ApiName;
  body?: BS;
  query?: QS;
  /** schema of `data` in the success envelope (serialisation + OpenAPI) */
  data?: DS;
  /** success msg key, default `success.ok` */
  msg?: string;
  /** operation_log: default true for POST */
  audit?: boolean;
  /** skip the guard: the handler resolves the session itself (heartbeat) */
  selfAuth?: boolean;
  summary?: string;
  /**
   * Returns `data` of the success envelope. A file route sends on `reply` itself and returns it.
   */
  handler: (
    ctx: RouteContext<Out<BS>, Out<QS>>,
  ) => Promise<(DS extends z.ZodType ? z.input<DS> : unknown) | FastifyReply>;
}

/**
 * Declare one REST endpoint: zod validation of body/query, the auth rule of `Api[api]`, the
 * handler, the envelope `{code: 200, msg, data}`. Errors are thrown (http/errors.ts).
 */
export function defineRoute<
  BS extends z.ZodType | undefined = undefined,
  QS extends z.ZodType | undefined = undefined,
  DS extends z.ZodType | undefined = undefined,
>(app: FastifyInstance, spec: RouteSpec<BS, QS, DS>): void {
  const def = Api[spec.api];
  const file = 'file' in def && def.file === true;
  app.route({
    method: def.method,
    url: def.path,
    config: spec.audit === undefined ? {} : { audit: spec.audit },
    schema: {
      summary: spec.summary ?? spec.api,
      tags: [def.path.split('/')[2] ?? 'rest'],
      description: `auth: ${def.auth.kind}${def.auth.kind === 'menu' ? ` ${def.auth.menu} ${def.auth.action}` : ''}`,
      ...(spec.body ? { body: spec.body } : {}),
      ...(spec.query ? { querystring: spec.query } : {}),
      ...(spec.data && !file ? { response: { 200: envelope(spec.data) } } : {}),
    },
    // before the body is parsed and validated: a caller without the right learns nothing about
    // the input rules, and every refusal is logged with who asked
    onRequest: async (req) => {
      if (!spec.selfAuth) await authorize(app, req, def.auth);
    },
    handler: async (req, reply) => {
      const lang = requestLanguage(req);
      const ctx: RouteContext<Out<BS>, Out<QS>> = {
        req,
        reply,
        body: req.body as Out<BS>,
        query: req.query as Out<QS>,
        db: app.db,
        auth: req.auth,
        get user(): AuthUser {
          if (!req.auth) throw Errors.unauthenticated();
          return req.auth.user;
        },
        lang,
        t: (key, params) => t(lang, key, params),
      };
      const data = await spec.handler(ctx);
      if (data === reply || reply.sent) return reply;
      const msg = t(lang, spec.msg ?? 'success.ok');
      req.result = { code: 200, msg };
      return { code: 200, msg, data: data ?? null };
    },
  });
}
