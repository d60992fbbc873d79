import { describe, expect, it } from 'vitest';

/** zh-CN is canonical and en-US complete: same keys, same {{placeholders}}, no empty text. */
const files = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/*.json', { eager: true });

function flatten(node: unknown, prefix = '', out: Record<string, string> = {}): Record<string, string> {
  if (typeof node === 'string') out[prefix] = node;
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  return out;
}

function catalogue(lang: string): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const [path, mod] of Object.entries(files)) {
    const match = /\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (match?.[1] === lang) out[match[2]!] = withoutPlurals(flatten(mod.default));
  }
  return out;
}

/** i18next plural forms (`key_one`, `key_other`) count as the key itself: languages differ in forms. */
function withoutPlurals(entries: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, text] of Object.entries(entries)) out[key.replace(/_(zero|one|two|few|many|other)$/, '')] ??= text;
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('console catalogues', () => {
  const zh = catalogue('zh-CN');
  const en = catalogue('en-US');

  it('have the same namespaces in both languages', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(zh).sort());
  });

  for (const ns of Object.keys(zh)) {
    it(`${ns}: en-US has every zh-CN key and no extra one, with the same placeholders`, () => {
      const zhKeys = Object.keys(zh[ns]!);
      const enKeys = Object.keys(en[ns] ?? {});
      expect(zhKeys.filter((k) => !enKeys.includes(k))).toEqual([]);
      expect(enKeys.filter((k) => !zhKeys.includes(k))).toEqual([]);
      for (const key of zhKeys) {
        expect(placeholders(en[ns]![key] ?? ''), `${ns}:${key}`).toEqual(placeholders(zh[ns]![key]!));
        expect(zh[ns]![key]!.trim(), `${ns}:${key} (zh-CN)`).not.toBe('');
        expect((en[ns]![key] ?? '').trim(), `${ns}:${key} (en-US)`).not.toBe('');
      }
    });
  }
});
