import { readFileSync } from 'node:fs';

/**
 * The console's own catalogues (apps/web area namespaces, plus the protocol's shared `validation`,
 * `errors` and `success`), so that specs find elements by the texts a user sees (zh-CN first)
 * without copying them.
 */
export type Lang = 'zh-CN' | 'en-US';

const SHARED = ['validation', 'errors', 'success'];
const cache = new Map<string, Record<string, unknown>>();

function catalogue(lang: Lang, ns: string): Record<string, unknown> {
  const key = `${lang}/${ns}`;
  let value = cache.get(key);
  if (!value) {
    const file = SHARED.includes(ns) ? `../../packages/protocol/src/i18n/${key}.json` : `../../apps/web/src/i18n/locales/${key}.json`;
    value = JSON.parse(readFileSync(new URL(file, import.meta.url), 'utf8')) as Record<string, unknown>;
    cache.set(key, value);
  }
  return value;
}

/** `text('zh-CN', 'login:form.username')`; {{params}} are filled in. Throws on an unknown key. */
export function text(lang: Lang, key: string, params: Record<string, string | number> = {}): string {
  const [ns, path] = key.split(':') as [string, string];
  let node: unknown = catalogue(lang, ns);
  for (const part of path.split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no text ${lang} ${key}`);
  return node.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
}
