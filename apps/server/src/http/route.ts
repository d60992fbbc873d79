import {
  Api,
  envelope,
  isAudited,
  type ApiBody,
  type ApiDataInput,
  type ApiName,
  type ApiQuery,
  type EndpointDef,
  type Language,
} from '@bwc/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/connection';
import { authorize, type AuthContext, type AuthUser } from './auth';
import { Errors, type MsgParams } from './errors';
import { requestLanguage, t } from './i18n';

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

export interface RouteSpec<N extends ApiName> {
  /**
   * endpoint of the protocol `Api` registry: gives method, path, auth rule, the body and query
   * schemas the input is validated with and the schema the answer's `data` is serialised with
   */
  api: N;
  /** success msg key, default `success.ok` */
  msg?: string;
  /** skip the guard: the handler resolves the session itself (heartbeat) */
  selfAuth?: boolean;
  summary?: string;
  /**
   * Returns `data` of the success envelope. A file route sends on `reply` itself and returns it.
   */
  handler: (ctx: RouteContext<ApiBody<N>, ApiQuery<N>>) => Promise<ApiDataInput<N> | FastifyReply>;
}

/**
 * Declare one REST endpoint of the `Api` registry: zod validation of body/query with the
 * registry's schemas, its auth rule, the handler, the envelope `{code: 200, msg, data}` serialised
 * with the registry's answer schema. Errors are thrown (http/errors.ts).
 */
export function defineRoute<N extends ApiName>(app: FastifyInstance, spec: RouteSpec<N>): void {
  // indexed by the name's union, not by N: through N, TypeScript would pair any route with any endpoint's schemas
  const name: ApiName = spec.api;
  const def: EndpointDef = Api[name];
  const { auth } = def;
  app.route({
    method: def.method,
    url: def.path,
    config: { audit: isAudited(spec.api) },
    schema: {
      summary: spec.summary ?? spec.api,
      tags: [def.path.split('/')[2] ?? 'rest'],
      description: `auth: ${describeAuth(def)}`,
      ...(def.body ? { body: def.body } : {}),
      ...(def.query ? { querystring: def.query } : {}),
      ...(def.data ? { response: { 200: envelope(def.data) } } : {}),
    },
    // before the body is parsed and validated: a caller without the right learns nothing about
    // the input rules, and every refusal is logged with who asked
    onRequest: async (req) => {
      if (!spec.selfAuth) await authorize(app, req, auth);
    },
    handler: async (req, reply) => {
      const lang = requestLanguage(req);
      const ctx: RouteContext<ApiBody<N>, ApiQuery<N>> = {
        req,
        reply,
        body: req.body as ApiBody<N>,
        query: req.query as ApiQuery<N>,
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
      req.result = { code: 200, msg, key: spec.msg ?? 'success.ok' };
      return { code: 200, msg, data: data ?? null };
    },
  });
}

function describeAuth({ auth }: EndpointDef): string {
  if (auth.kind === 'menu') return `menu ${auth.menu} ${auth.action}`;
  if (auth.kind === 'anyMenu') return `${auth.action} on any of menus ${auth.menus.join(', ')}`;
  return auth.kind;
}
