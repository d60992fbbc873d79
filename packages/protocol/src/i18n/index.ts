import { catalogs as enUS } from './en-US';
import { catalogs as zhCN } from './zh-CN';

/** Languages: zh-CN is canonical, en-US complete. */
export const LANGUAGES = ['zh-CN', 'en-US'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh-CN';
/** Header the console sends so that the server answers msg in the user's language. */
export const LANGUAGE_HEADER = 'x-lang';

/**
 * Catalogues shared by server and console: `validation` (schema messages), `errors` and
 * `success` (envelope msg texts), `export` (headers and names of server-made files), `console` (the
 * console service's error_reason texts) and `sdk` (realtime SDK code descriptions, `sdk.<code>`).
 * Area catalogues of the console live in apps/web.
 */
export const sharedCatalogs = { 'zh-CN': zhCN, 'en-US': enUS } as const;

/** Names of the shared catalogues (the keys of each language's `sharedCatalogs`). */
export const SHARED_NAMESPACES = ['validation', 'errors', 'success', 'export', 'console', 'sdk'] as const;

export function pickLanguage(header: string | undefined | null): Language {
  if (!header) return DEFAULT_LANGUAGE;
  const lower = header.toLowerCase();
  for (const part of lower.split(',')) {
    const tag = part.split(';')[0]!.trim();
    if (tag.startsWith('en')) return 'en-US';
    if (tag.startsWith('zh')) return 'zh-CN';
  }
  return DEFAULT_LANGUAGE;
}

/**
 * `validation.*` messages that are the predicate of a sentence about the field ("is required"):
 * with a field they read through `validation.fieldIs` ("Username is required."); every other
 * message through `validation.field` ("Field title: The title must be 1 to 17 characters.").
 */
export const FIELD_PREDICATES: ReadonlySet<string> = new Set([
  'validation.required',
  'validation.tooLong',
  'validation.tooShort',
  'validation.number',
  'validation.integer',
  'validation.range',
  'validation.between',
  'validation.choice',
  'validation.type',
  'validation.unknownField',
  'validation.invalid',
  'validation.path',
  'validation.datetime',
  'validation.module',
]);

/**
 * A field name as the subject of an English sentence: first letter upper case, underscores as
 * spaces (`username` -> `Username`, `login_fail_limit` -> `Login fail limit`); `fieldOfSubject`
 * reads the name back (wire names have no spaces and start lower case).
 */
export function fieldSubject(field: string): string {
  return (field.charAt(0).toUpperCase() + field.slice(1)).replace(/_/g, ' ');
}
/**
 * Whether a field names several things (`ids`, `uids`, `targets`, `device_ids`): its English
 * predicate then agrees with it (`validation.plural.*`: "Ids are required."). Words ending in
 * -ss, -us, -is, -ps, -as (`status`, `gps`, `alias`), `issos` (a flag: is SOS) and items of a list (`ids.0`) are not plurals.
 */
export function isPluralField(field: string): boolean {
  // `positions.6` is one item of a list: singular
  const word = field.split('.').pop()?.split('_').pop() ?? '';
  return /[a-z]s$/i.test(word) && !/(ss|us|is|ps|as)$|^issos$/i.test(word);
}
/** The predicate for a plural subject: `validation.required` -> `validation.plural.required`. */
export const pluralPredicate = (key: string): string => `validation.plural.${key.slice('validation.'.length)}`;

export function fieldOfSubject(subject: string): string {
  return (subject.charAt(0).toLowerCase() + subject.slice(1)).replace(/ /g, '_');
}

/** Look up `ns.a.b` in a catalogue and fill {{name}} placeholders; unknown keys come back as is. */
export function translate(lang: Language, key: string, params: Record<string, string | number> = {}): string {
  const [ns, ...rest] = key.split('.');
  let node: unknown = (sharedCatalogs[lang] as Record<string, unknown>)[ns ?? ''];
  for (const part of rest)
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  if (typeof node !== 'string') return key;
  return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
}
