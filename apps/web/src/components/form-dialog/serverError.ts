import { LANGUAGES } from '@bwc/protocol';
import { i18next } from '../../i18n';

/** An envelope error that names a field: the field (as the request spells it) and the message alone. */
export interface NamedFieldError {
  field: string;
  message: string;
}

const patterns = new Map<string, RegExp>();

/** `字段 {{field}}：{{message}}` -> a pattern with the two parts as groups. */
function patternOf(template: string): RegExp {
  let pattern = patterns.get(template);
  if (!pattern) {
    const escaped = template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const source = escaped
      .replace('\\{\\{field\\}\\}', '(?<field>[A-Za-z_][\\w.]*)')
      .replace('\\{\\{message\\}\\}', '(?<message>[\\s\\S]+)');
    pattern = new RegExp(`^${source}$`);
    patterns.set(template, pattern);
  }
  return pattern;
}

/**
 * The field an envelope error names. The server says which input was wrong in the msg, with the
 * shared `validation.field` text (`字段 title：标题长度为 1 到 17 个字符`), in the language the
 * console asked for; this reads it back with the same catalogue text. Null for any other msg.
 */
export function namedFieldError(msg: string): NamedFieldError | null {
  for (const lang of LANGUAGES) {
    const template: unknown = i18next.getResource(lang, 'validation', 'field');
    if (typeof template !== 'string') continue;
    const groups = patternOf(template).exec(msg)?.groups;
    if (groups?.field && groups.message) return { field: groups.field, message: groups.message };
  }
  return null;
}
