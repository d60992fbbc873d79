import { issueParams } from '@bwc/protocol';
import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { FieldError } from './errors';

type Issue = z.core.$ZodIssue & { input?: unknown };

/** Name of the request part as the msg shows it when an issue has no path. */
const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'params', headers: 'headers' };

/** Map one zod issue to the field it concerns and a `validation.*` catalogue key. */
export function issueToFieldError(issue: Issue, part: string): FieldError {
  const path = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    return new FieldError(path ? `${path}.${key}` : key, 'validation.unknownField');
  }
  const field = path || PART_NAMES[part] || part;
  if (issue.message.startsWith('validation.') && !(isRequiredKey(issue.message) && !isMissing(issue)))
    return new FieldError(field, issue.message, issueParams(issue));
  return new FieldError(field, defaultKey(issue));
}

/**
 * Schemas often carry a "required" message at schema level (`z.string({ error: 'validation.required' })`),
 * which zod then reports for every issue of that schema. It is only true when the value is missing or empty.
 */
const isRequiredKey = (key: string) => /required$/i.test(key);
function isMissing(issue: Issue): boolean {
  if (issue.code === 'invalid_type') return issue.input === undefined || issue.input === null;
  if (issue.code === 'too_small') return issue.input === '' || (Array.isArray(issue.input) && issue.input.length === 0);
  return false;
}

function defaultKey(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined || issue.input === null) return 'validation.required';
      return issue.expected === 'number' || issue.expected === 'int' || issue.expected === 'bigint'
        ? 'validation.number'
        : 'validation.type';
    case 'too_big':
      return issue.origin === 'string' || issue.origin === 'array' ? 'validation.tooLong' : 'validation.range';
    case 'too_small':
      if (issue.origin === 'string' || issue.origin === 'array')
        return issue.input === '' ? 'validation.required' : 'validation.tooShort';
      return 'validation.range';
    case 'invalid_value':
    case 'invalid_union':
      return 'validation.choice';
    case 'not_multiple_of':
      return 'validation.integer';
    default:
      return 'validation.invalid';
  }
}

/**
 * Validator compiler for zod schemas: the first issue becomes a FieldError (msg names the field).
 * A missing body validates as `{}` so that the first missing field is named, not "body".
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data: unknown) => {
    const part = httpPart ?? 'body';
    const input = data === null && part === 'body' ? {} : data;
    const result = schema.safeParse(input, { reportInput: true });
    if (result.success) return { value: result.data };
    return { error: issueToFieldError(result.error.issues[0] as Issue, part) };
  };
