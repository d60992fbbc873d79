import { Api, type ApiName, type Envelope } from '@bwc/protocol';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Session } from './helpers';

/**
 * Call a protocol endpoint by name as the console does: GET input goes to the query string, POST
 * input is the JSON body. `session` null calls without credentials.
 */
export async function callApi(
  app: FastifyInstance,
  name: ApiName,
  session: Session | null,
  input: Record<string, unknown> = {},
  lang: 'zh-CN' | 'en-US' = 'zh-CN',
): Promise<LightMyRequestResponse> {
  const def = Api[name];
  const headers = { ...(session?.headers ?? {}), 'x-lang': lang };
  if (def.method === 'GET') {
    const query = Object.fromEntries(Object.entries(input).map(([k, v]) => [k, String(v)]));
    return app.inject({ method: 'GET', url: def.path, query, headers });
  }
  return app.inject({ method: 'POST', url: def.path, payload: input, headers });
}

/** callApi and parse the envelope. */
export async function api<T = unknown>(
  app: FastifyInstance,
  name: ApiName,
  session: Session | null,
  input: Record<string, unknown> = {},
  lang: 'zh-CN' | 'en-US' = 'zh-CN',
): Promise<Envelope<T>> {
  return (await callApi(app, name, session, input, lang)).json() as Envelope<T>;
}
