import { SHARED_NAMESPACES } from '@bwc/protocol';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { NAMESPACES } from '../../i18n';
import { FIRST_NAMESPACES } from '../../i18n/first';

/**
 * A page's catalogues load with its chunk (`lazyPage(load, name, namespaces)`), so that nothing
 * rendered after the page is shown suspends to the route boundary (which would hide the whole
 * page). This reads the sources: every module a route page reaches (static and dynamic imports,
 * its dialogs' chunks included) may use only the namespaces its route declares, the first ones
 * (loaded before the first render) and the protocol's shared ones; the shell (what main.tsx
 * reaches without entering a route page) only the first and shared ones.
 */
const sources = import.meta.glob<string>(['../../**/*.{ts,tsx}', '!../../**/*.test.{ts,tsx}', '!../../test/**'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** `src/...` from a glob key (relative to this folder: `../../features/x.tsx`, `./menu.ts`). */
const fromKey = (key: string) => new URL(key, 'file:///src/app/routing/').pathname.slice(1);

function resolvePath(from: string, specifier: string, files: ReadonlySet<string>): string | null {
  if (!specifier.startsWith('.')) return null;
  const parts = from.split('/').slice(0, -1);
  for (const part of specifier.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  const base = parts.join('/');
  const found = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`].find((f) => files.has(f));
  return found ?? null;
}

/** A `lazyPage(() => import('./Page'), 'Page', ['ns', ...])` call: its chunk and declared namespaces (null: none). */
interface LazyChunk {
  target: string;
  declared: string[] | null;
}

interface ModuleFacts {
  namespaces: Set<string>;
  imports: string[];
  /** `import()` targets that are not lazyPage calls with namespaces */
  dynamicImports: string[];
  lazyChunks: LazyChunk[];
}

const known = new Set<string>(NAMESPACES);

/** The namespaces a module can translate with, its imports and its lazy chunks. */
function readModule(file: string, text: string, files: ReadonlySet<string>): ModuleFacts {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const facts: ModuleFacts = { namespaces: new Set(), imports: [], dynamicImports: [], lazyChunks: [] };
  const literal = (node: ts.Node | undefined): string | null =>
    node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : null;
  const resolveOrFail = (specifier: string) => resolvePath(file, specifier, files);
  const importOf = (node: ts.Node | undefined): string | null => {
    // () => import('./Page')
    if (!node || !ts.isArrowFunction(node) || !ts.isCallExpression(node.body)) return null;
    if (node.body.expression.kind !== ts.SyntaxKind.ImportKeyword) return null;
    return literal(node.body.arguments[0]);
  };

  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      const isTypeOnly = ts.isImportDeclaration(node) ? node.importClause?.isTypeOnly : node.isTypeOnly;
      const target = resolveOrFail(literal(node.moduleSpecifier) ?? '');
      if (target && !isTypeOnly) facts.imports.push(target);
    }
    if (ts.isCallExpression(node)) {
      const callee = node.expression.getText(source);
      const first = node.arguments[0];
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const target = resolveOrFail(literal(first) ?? '');
        if (target) facts.dynamicImports.push(target);
      }
      if (callee === 'useTranslation') {
        // a namespace this cannot read (a variable) is reported as one that no route loads
        const names = !first ? [] : ts.isArrayLiteralExpression(first) ? [...first.elements] : [first];
        if (!first) facts.namespaces.add('common');
        for (const name of names) facts.namespaces.add(literal(name) ?? `(not a string: ${name.getText(source)})`);
      }
      if (callee === 'keysOf' && literal(first)) facts.namespaces.add(literal(first)!);
      if (callee === 'lazyPage') {
        const specifier = importOf(first);
        const target = specifier ? resolveOrFail(specifier) : null;
        const list = node.arguments[2];
        if (target)
          facts.lazyChunks.push({
            target,
            declared:
              list && ts.isArrayLiteralExpression(list)
                ? list.elements.map((e) => literal(e) ?? `(not a string: ${e.getText(source)})`)
                : null,
          });
      }
    }
    // `t('ns:key')`, `i18next.t('ns:key')`, a label key such as 'menu:home'
    const text = literal(node);
    const prefix = text ? /^([A-Za-z]+):[A-Za-z]/.exec(text) : null;
    if (prefix && known.has(prefix[1]!)) facts.namespaces.add(prefix[1]!);
    // `{ ns: 'alarm' }`
    if (ts.isPropertyAssignment(node) && node.name.getText(source) === 'ns' && literal(node.initializer))
      facts.namespaces.add(literal(node.initializer)!);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return facts;
}

const files = new Set(Object.keys(sources).map(fromKey));
const modules = new Map(
  Object.entries(sources).map(([key, text]) => [fromKey(key), readModule(fromKey(key), text, files)]),
);

/** Route pages (and any other chunk that names its namespaces): the lazy chunks that declare them. */
const pages = [...modules.values()].flatMap((m) => m.lazyChunks).filter((c) => c.declared !== null);

/** Where a walk stops: a chunk that loads its own namespaces. */
const boundaries = new Set(pages.map((p) => p.target));

/** The namespaces of each module `start` reaches through static and dynamic imports, up to the boundaries. */
function namespacesReached(start: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const walk = (file: string) => {
    const facts = modules.get(file);
    if (out.has(file) || !facts) return;
    out.set(file, facts.namespaces);
    for (const next of [...facts.imports, ...facts.dynamicImports]) if (!boundaries.has(next)) walk(next);
  };
  walk(start);
  return out;
}

const always = new Set<string>([...FIRST_NAMESPACES, ...SHARED_NAMESPACES]);

/** `file: ns` for every namespace used and not loaded with the chunk (nor before the first render). */
function unloaded(start: string, declared: readonly string[]): string[] {
  const loaded = new Set([...always, ...declared]);
  return [...namespacesReached(start)].flatMap(([file, used]) =>
    [...used].filter((ns) => !loaded.has(ns)).map((ns) => `${file}: ${ns}`),
  );
}

describe('catalogues loaded with the page', () => {
  it('finds the route pages and the namespaces they use', () => {
    expect(pages.length).toBeGreaterThan(40);
    const emergency = pages.find((p) => p.target === 'src/features/dispatch/EmergencyPage.tsx');
    expect(emergency?.declared).toContain('dispatch');
    // the info window's replay dialog, a chunk of its own, counts for the page
    const reached = namespacesReached('src/features/dispatch/EmergencyPage.tsx');
    expect(reached.get('src/features/playback/DeviceReplayDialog.tsx')).toBeDefined();
  });

  it('every lazy chunk of a route declares its namespaces, and only ones that exist', () => {
    const routeFiles = [...modules].filter(
      ([file]) => file.endsWith('/routes.tsx') || file.startsWith('src/app/routing/'),
    );
    const undeclared = routeFiles.flatMap(([file, facts]) =>
      facts.lazyChunks.filter((c) => c.declared === null).map((c) => `${file}: ${c.target}`),
    );
    expect(undeclared).toEqual([]);
    expect(pages.flatMap((p) => p.declared!.filter((ns) => !known.has(ns)).map((ns) => `${p.target}: ${ns}`))).toEqual(
      [],
    );
  });

  it.each(pages.map((p) => [p.target, p.declared!] as const))(
    '%s: its tree uses only namespaces loaded with it',
    (target, declared) => {
      expect(unloaded(target, declared)).toEqual([]);
    },
  );

  it('the shell (login page, navigation bar and its dialogs, bell and its panel) uses only the first namespaces', () => {
    expect(unloaded('src/main.tsx', [])).toEqual([]);
  });

  it('a page using a namespace its route does not declare is reported', () => {
    const probe = new Set(['src/x/routes.tsx', 'src/x/Page.tsx', 'src/x/Dialog.tsx']);
    const route = readModule(
      'src/x/routes.tsx',
      "const P = lazyPage(() => import('./Page'), 'Page', ['dispatch']);",
      probe,
    );
    const page = readModule(
      'src/x/Page.tsx',
      "import { D } from './Dialog'; const { t } = useTranslation('dispatch'); const L = keysOf('map', {});",
      probe,
    );
    const dialog = readModule(
      'src/x/Dialog.tsx',
      "const a = t('playback:replay.title', { ns: 'video' }); useTranslation(area);",
      probe,
    );
    expect(route.lazyChunks).toEqual([{ target: 'src/x/Page.tsx', declared: ['dispatch'] }]);
    expect([...page.namespaces]).toEqual(['dispatch', 'map']);
    expect(page.imports).toEqual(['src/x/Dialog.tsx']);
    expect([...dialog.namespaces].sort()).toEqual(['(not a string: area)', 'playback', 'video']);
  });
});
