import type { Socket } from 'node:net';
import { DEFAULT_LANGUAGE, ResultCode, translate } from '@bwc/protocol';
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError, Errors } from './errors';
import { sendError } from './envelope';

function clientError(err: FastifyError): AppError | null {
  if (err instanceof AppError) return err;
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return Errors.badJson();
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return Errors.tooLarge();
    default:
  }
  if (err instanceof SyntaxError && err.statusCode === 400) return Errors.badJson();
  if (err.statusCode === 413) return Errors.tooLarge();
  // any other 4xx raised by Fastify or a plugin (bad media type, malformed multipart, ...)
  if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) return Errors.badBody();
  return null;
}

/** The one place that turns errors into envelopes; unexpected ones are logged with the request id. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    const known = clientError(err);
    if (known) return sendError(reply, known);
    req.log.error({ err }, 'unexpected error');
    return sendError(reply, Errors.server(String(req.id)));
  });
}

/**
 * Errors Node's HTTP parser raises before a request reaches Fastify (an address or headers past
 * the header limit, a malformed request line): answered with the envelope like every other
 * error, instead of Fastify's own body. The request's language is unknown here: the default.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
  const body = JSON.stringify({
    code: ResultCode.INVALID,
    msg: translate(DEFAULT_LANGUAGE, tooLarge ? 'errors.headersTooLarge' : 'errors.badRequest'),
    data: null,
  });
  socket.end(
    `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
