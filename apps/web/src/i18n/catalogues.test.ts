import { MODULES, sharedCatalogs } from '@bwc/protocol';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { SYSTEM_SUBPAGES } from '../app/routing/menu';

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

/**
 * Every key the console asks for is in the catalogue. Keys are static: a `t()` call names its key
 * as a string (or one of two strings), or takes it from a `keysOf(namespace, {...})` map or from the
 * menu catalogue (module keys); a key built at runtime (template string, concatenation) fails here,
 * because no search could tell whether it exists.
 */
const sources = import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

const zhCatalogue: Record<string, Record<string, string>> = {
  ...Object.fromEntries(
    Object.entries(sharedCatalogs['zh-CN']).map(([ns, tree]) => [ns, withoutPlurals(flatten(tree))]),
  ),
  ...catalogue('zh-CN'),
};

/** `ns:key`, or `key` in the caller's namespace; null when it names no catalogue entry. */
function missing(key: string, defaultNs: string | undefined): string | null {
  const colon = key.indexOf(':');
  const ns = colon > 0 ? key.slice(0, colon) : defaultNs;
  const path = colon > 0 ? key.slice(colon + 1) : key;
  if (!ns) return `${key} (namespace unknown)`;
  return zhCatalogue[ns]?.[path] !== undefined ? null : `${ns}:${path}`;
}

interface KeyUse {
  file: string;
  line: number;
  problem: string;
}

/** The string keys an argument may be; `runtime` when it is put together at runtime. */
function keysOfExpression(node: ts.Expression): { keys: string[]; runtime: boolean } {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
    return { keys: [node.text], runtime: false };
  if (ts.isParenthesizedExpression(node)) return keysOfExpression(node.expression);
  if (ts.isTemplateExpression(node)) return { keys: [], runtime: true };
  if (ts.isConditionalExpression(node)) return merge(keysOfExpression(node.whenTrue), keysOfExpression(node.whenFalse));
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    if (op === ts.SyntaxKind.PlusToken) return { keys: [], runtime: true };
    if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken)
      return merge(keysOfExpression(node.left), keysOfExpression(node.right));
  }
  // a map entry, a function result, a parameter: their keys are checked where they are written
  return { keys: [], runtime: false };
}
function merge(a: { keys: string[]; runtime: boolean }, b: { keys: string[]; runtime: boolean }) {
  return { keys: [...a.keys, ...b.keys], runtime: a.runtime || b.runtime };
}

/** The namespace a `useTranslation(...)` call gives its `t` (the first one; `common` by default). */
function namespaceOf(call: ts.CallExpression): string {
  const first = call.arguments[0];
  if (first && ts.isStringLiteral(first)) return first.text;
  if (first && ts.isArrayLiteralExpression(first) && first.elements[0] && ts.isStringLiteral(first.elements[0]))
    return first.elements[0].text;
  return 'common';
}

function checkSource(file: string, text: string): KeyUse[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const problems: KeyUse[] = [];
  const report = (node: ts.Node, problem: string) =>
    problems.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, problem });
  // the translate functions of the file: `const { t } = useTranslation('ns')`, `{ t: tc }`, ...
  const bindings: { name: string; ns: string; at: number }[] = [];

  const visit = (node: ts.Node) => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isObjectBindingPattern(node.name) &&
      node.initializer &&
      ts.isCallExpression(node.initializer) &&
      node.initializer.expression.getText(source) === 'useTranslation'
    ) {
      for (const element of node.name.elements) {
        const property = (element.propertyName ?? element.name).getText(source);
        if (property === 't')
          bindings.push({ name: element.name.getText(source), ns: namespaceOf(node.initializer), at: node.getStart() });
      }
    }
    if (ts.isCallExpression(node)) {
      const callee = node.expression.getText(source);
      const argument = node.arguments[0];
      if (callee === 'keysOf' && argument && ts.isStringLiteral(argument)) {
        let map = node.arguments[1];
        // `{...} satisfies Record<Rule, string>`, `({...})`
        while (map && (ts.isSatisfiesExpression(map) || ts.isAsExpression(map) || ts.isParenthesizedExpression(map)))
          map = map.expression;
        if (!map || !ts.isObjectLiteralExpression(map)) report(node, 'keysOf: the map is written out as an object');
        for (const entry of map && ts.isObjectLiteralExpression(map) ? map.properties : []) {
          if (!ts.isPropertyAssignment(entry) || !ts.isStringLiteral(entry.initializer))
            report(entry, 'keysOf: every value is a written-out key');
          else {
            const absent = missing(entry.initializer.text, argument.text);
            if (absent) report(entry, `no catalogue entry ${absent}`);
          }
        }
      }
      const binding = [...bindings].reverse().find((b) => b.name === callee && b.at < node.getStart());
      if (callee === 't' && !binding) report(node, 't() of no useTranslation: its namespace is unknown');
      const translator =
        binding !== undefined || callee === 'i18next.t' || callee === 'i18n.t' || callee === 'translateKey';
      if (translator && argument) {
        const { keys, runtime } = keysOfExpression(argument);
        if (runtime) report(node, `key built at runtime: ${argument.getText(source)}`);
        for (const key of keys) {
          // translateKey takes the protocol's `ns.key` form
          const absent =
            callee === 'translateKey'
              ? missing(key.replace('.', ':'), undefined)
              : missing(key, binding ? binding.ns : 'common');
          if (absent) report(node, `no catalogue entry ${absent}`);
        }
      }
    }
    // protocol message keys written out in the console (`validation.file.size`)
    if (ts.isStringLiteral(node) && /^(validation|errors|success)\.[A-Za-z][\w.]*$/.test(node.text)) {
      const absent = missing(node.text.replace('.', ':'), undefined);
      if (absent) report(node, `no catalogue entry ${absent}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return problems;
}

describe('keys the console uses', () => {
  it('are static and in the zh-CN catalogue (and so in en-US, see above)', () => {
    const problems = Object.entries(sources).flatMap(([file, text]) => checkSource(file, text));
    expect(problems.map((p) => `${p.file.replace(/^\.\.\//, '')}:${p.line} ${p.problem}`)).toEqual([]);
  });

  it('have a menu label for every module of the catalogue, every fixed settings page and home', () => {
    const keys = ['home', ...MODULES.map((m) => m.key), ...Object.values(SYSTEM_SUBPAGES).flat()];
    expect(keys.filter((key) => missing(key, 'menu'))).toEqual([]);
  });

  it('are found: a key missing from the catalogue or built at runtime is reported', () => {
    const probe = [
      "const { t } = useTranslation('map');",
      "t('geo.save');",
      "t('geo.noSuchKey');",
      "t(open ? 'geo.edit' : 'geo.nothingHere');",
      't(`geo.rules.${rule}`);',
      "t('geo.rules.' + rule);",
      "const LABELS = keysOf('map', { a: 'geo.tool.pan', b: 'geo.tool.hexagon' } satisfies Record<string, string>);",
      "i18next.t('common:nope');",
      "translateKey('validation.nope');",
    ].join('\n');
    expect(checkSource('probe.tsx', probe).map((p) => p.problem)).toEqual([
      'no catalogue entry map:geo.noSuchKey',
      'no catalogue entry map:geo.nothingHere',
      'key built at runtime: `geo.rules.${rule}`',
      "key built at runtime: 'geo.rules.' + rule",
      'no catalogue entry map:geo.tool.hexagon',
      'no catalogue entry common:nope',
      'no catalogue entry validation:nope',
      'no catalogue entry validation:nope',
    ]);
  });
});
