import type { Envelope } from '@bwc/protocol';
import type { FastifyReply } from 'fastify';
import type { AppError, MsgParams } from './errors';
import { requestLanguage, t } from './i18n';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * code and msg of the envelope answered, for the audit log, with the catalogue key and params
     * of the msg when it has one (the log shows it in each viewer's language)
     */
    result: { code: number; msg: string; key?: string; params?: MsgParams } | null;
  }
}

export function envelopeOf<T>(code: number, msg: string, data: T): Envelope<T> {
  return { code, msg, data };
}

/**
 * Send an envelope pre-serialised (a string bypasses the route's response schema, which only
 * describes the success shape). Used for every error answer.
 */
export function sendEnvelope(
  reply: FastifyReply,
  env: Envelope<unknown>,
  httpStatus = 200,
  msgKey?: { key: string; params?: MsgParams },
): FastifyReply {
  reply.request.result = { code: env.code, msg: env.msg, ...msgKey };
  return reply.code(httpStatus).type('application/json; charset=utf-8').send(JSON.stringify(env));
}

export function sendError(reply: FastifyReply, err: AppError): FastifyReply {
  const lang = requestLanguage(reply.request);
  return sendEnvelope(reply, envelopeOf(err.code, t(lang, err.key, err.params), null), err.httpStatus, {
    key: err.key,
    params: err.params,
  });
}
