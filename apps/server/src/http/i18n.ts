import { LANGUAGE_HEADER, pickLanguage, translate, type Language } from '@bwc/protocol';
import type { FastifyRequest } from 'fastify';
import type { MsgParams } from './errors';

const CATALOGUE_KEY = /^(errors|validation|success|console)\.[\w.]+$/;

/** The request's language: header x-lang, else Accept-Language, else zh-CN. */
export function requestLanguage(req: FastifyRequest): Language {
  const header = req.headers[LANGUAGE_HEADER] ?? req.headers['accept-language'];
  return pickLanguage(Array.isArray(header) ? header[0] : header);
}

/** translate() that also translates params which are catalogue keys. */
export function t(lang: Language, key: string, params: MsgParams = {}): string {
  const resolved: MsgParams = {};
  for (const [name, value] of Object.entries(params)) {
    // a nested key gets the same params (`validation.field` + `validation.file.size` with {mb})
    resolved[name] = typeof value === 'string' && CATALOGUE_KEY.test(value) ? translate(lang, value, params) : value;
  }
  return translate(lang, key, resolved);
}
