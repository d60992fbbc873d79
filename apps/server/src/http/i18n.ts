import {
  FIELD_PREDICATES,
  LANGUAGE_HEADER,
  fieldSubject,
  isPluralField,
  pickLanguage,
  pluralPredicate,
  translate,
  type Language,
} from '@bwc/protocol';
import type { FastifyRequest } from 'fastify';
import type { MsgParams } from './errors';

const CATALOGUE_KEY = /^(errors|validation|success|console)\.[\w.]+$/;
const FIELD_TEMPLATE = 'validation.field';

/** The request's language: header x-lang, else Accept-Language, else zh-CN. */
export function requestLanguage(req: FastifyRequest): Language {
  const header = req.headers[LANGUAGE_HEADER] ?? req.headers['accept-language'];
  return pickLanguage(Array.isArray(header) ? header[0] : header);
}

/** English messages after "Field x: " are sentences: capital first letter, closing full stop. */
function asSentence(lang: Language, text: string): string {
  if (lang !== 'en-US' || !text) return text;
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/**
 * translate() that also translates params which are catalogue keys. A field error
 * (`validation.field` with `{field, message}`) whose message is a predicate ("is required") reads
 * as one sentence about the field, `validation.fieldIs` ("Username is required."); any other
 * message follows the field's name as a sentence of its own ("Field title: The title must ...").
 */
export function t(lang: Language, key: string, params: MsgParams = {}): string {
  let template = key;
  let all = params;
  if (key === FIELD_TEMPLATE && typeof params.message === 'string' && FIELD_PREDICATES.has(params.message)) {
    template = 'validation.fieldIs';
    const field = String(params.field ?? '');
    // "Ids are required.": a plural field takes the plural predicate
    all = {
      ...params,
      Field: fieldSubject(field),
      ...(isPluralField(field) ? { message: pluralPredicate(params.message) } : {}),
    };
  }
  const resolved: MsgParams = {};
  for (const [name, value] of Object.entries(all)) {
    // a nested key gets the same params (`validation.field` + `validation.file.size` with {mb})
    resolved[name] = typeof value === 'string' && CATALOGUE_KEY.test(value) ? translate(lang, value, all) : value;
  }
  if (template === FIELD_TEMPLATE && typeof resolved.message === 'string')
    resolved.message = asSentence(lang, resolved.message);
  return translate(lang, template, resolved);
}
