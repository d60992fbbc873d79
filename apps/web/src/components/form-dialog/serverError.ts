import { FIELD_PREDICATES, LANGUAGES, fieldOfSubject, pluralPredicate } from '@bwc/protocol';
import { i18next } from '../../i18n';

/** An envelope error that names a field: the field (as the request spells it) and the message to show under it. */
export interface NamedFieldError {
  field: string;
  message: string;
}

const FIELD = '[A-Za-z_][\\w.]*';
/** `Login fail limit`: a field name as the subject of an English sentence (`fieldSubject`). */
const SUBJECT = '[A-Z][\\w.]*(?: [\\w.]+)*?';
const patterns = new Map<string, RegExp>();

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A catalogue text as a pattern: {{field}} / {{Field}} and {{message}} as groups, other placeholders as anything. */
function patternOf(template: string, message?: string): RegExp {
  const cacheKey = `${template}\u0000${message ?? ''}`;
  let pattern = patterns.get(cacheKey);
  if (!pattern) {
    const messagePart =
      message === undefined ? '(?<message>[\\s\\S]+)' : escape(message).replace(/\\\{\\\{\w+\\\}\\\}/g, '.+?');
    const source = escape(template)
      .replace('\\{\\{field\\}\\}', `(?<field>${FIELD})`)
      .replace('\\{\\{Field\\}\\}', `(?<subject>${SUBJECT})`)
      .replace('\\{\\{message\\}\\}', messagePart);
    pattern = new RegExp(`^${source}$`);
    patterns.set(cacheKey, pattern);
  }
  return pattern;
}

/**
 * The field an envelope error names. The server says which input was wrong in the msg, with the
 * shared texts in the language the console asked for: `validation.field` (`字段 title：标题长度为 1
 * 到 17 个字符`, `Field title: The title must be ...`), or for the predicates ("is required")
 * `validation.fieldIs` (`Username is required.`, shown whole under the field). This reads them back
 * with the same catalogue texts. Null for any other msg.
 */
export function namedFieldError(msg: string): NamedFieldError | null {
  for (const lang of LANGUAGES) {
    const fieldIs: unknown = i18next.getResource(lang, 'validation', 'fieldIs');
    if (typeof fieldIs === 'string') {
      predicates: for (const key of FIELD_PREDICATES)
        for (const form of [key, pluralPredicate(key)]) {
          const predicate: unknown = i18next.getResource(lang, 'validation', form.slice('validation.'.length));
          if (typeof predicate !== 'string') continue;
          const groups = patternOf(fieldIs, predicate).exec(msg)?.groups;
          if (groups?.subject) return { field: fieldOfSubject(groups.subject), message: msg };
          if (groups?.field) break predicates; // the same shape as validation.field: read below
        }
    }
    const template: unknown = i18next.getResource(lang, 'validation', 'field');
    if (typeof template !== 'string') continue;
    const groups = patternOf(template).exec(msg)?.groups;
    if (groups?.field && groups.message) return { field: groups.field, message: groups.message };
  }
  return null;
}
