import {
  DEFAULT_LANGUAGE,
  FIELD_PREDICATES,
  LANGUAGES,
  PRODUCT_PREFIX,
  SHARED_NAMESPACES,
  type Language,
} from '@bwc/protocol';
import type { Locale } from 'antd/es/locale';
// the ES build: the CommonJS entry (antd/locale/*) reaches Vite's dev server as {default: locale}
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { FIRST_NAMESPACES } from './first';

/**
 * Console i18n. Namespaces:
 * - `validation`, `errors`, `success`: the protocol's shared catalogues (schema messages, envelope texts);
 * - one namespace per area, one JSON file per language: `locales/<lang>/<ns>.json`, found by glob,
 *   so adding a file is all it takes to add a namespace.
 * zh-CN is canonical; en-US is complete, so no language falls back on another.
 *
 * A console loads the catalogues of its language only (`loadLanguage`, before the first render and
 * on a switch): both languages together were 32 KB of gzip in the first load (the first-load budget, bench/bundle-size.ts).
 */
const areaFiles = import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/*.json');

const SHARED_CATALOGS: Record<Language, () => Promise<{ catalogs: Record<string, unknown> }>> = {
  'zh-CN': () => import('@bwc/protocol/i18n/zh-CN'),
  'en-US': () => import('@bwc/protocol/i18n/en-US'),
};

function areaOf(path: string): { lang: string; ns: string } | null {
  const match = /\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
  return match ? { lang: match[1]!, ns: match[2]! } : null;
}

export const LANGUAGE_STORAGE_KEY = `${PRODUCT_PREFIX}language`;

export const ANTD_LOCALES: Record<Language, Locale> = { 'zh-CN': zhCN, 'en-US': enUS };
const DAYJS_LOCALES: Record<Language, string> = { 'zh-CN': 'zh-cn', 'en-US': 'en' };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function storedLanguage(): Language {
  try {
    const value = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(value) ? value : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

export function currentLanguage(): Language {
  return isLanguage(i18next.language) ? i18next.language : DEFAULT_LANGUAGE;
}

export const NAMESPACES = [
  ...new Set([
    ...SHARED_NAMESPACES,
    ...Object.keys(areaFiles).flatMap((path) => {
      const area = areaOf(path);
      return area ? [area.ns] : [];
    }),
  ]),
];

const loading = new Map<string, Promise<void>>();
const isFirst = (ns: string) => (FIRST_NAMESPACES as readonly string[]).includes(ns);

/**
 * Loads a language's shared catalogues and its first namespaces (FIRST_NAMESPACES; `all`: every
 * area, as the tests do) into i18next once; later calls wait for the same load. The other areas
 * come through `lazyAreas`, with the page that uses them (`loadNamespaces`, `lazyPage`).
 */
export function loadLanguage(lang: Language, which: 'first' | 'all' = 'first'): Promise<void> {
  const key = `${lang}:${which}`;
  let load = loading.get(key);
  if (!load) {
    load = (async () => {
      const areas = Object.entries(areaFiles).filter(([path]) => {
        const area = areaOf(path);
        return area?.lang === lang && (which === 'all' || isFirst(area.ns));
      });
      const [shared, ...files] = await Promise.all([SHARED_CATALOGS[lang](), ...areas.map(([, file]) => file())]);
      for (const [ns, catalog] of Object.entries(shared.catalogs)) i18next.addResourceBundle(lang, ns, catalog);
      areas.forEach(([path], i) => i18next.addResourceBundle(lang, areaOf(path)!.ns, files[i]!.default));
    })();
    load.catch(() => loading.delete(key));
    loading.set(key, load);
  }
  return load;
}

/**
 * The i18next backend of the areas outside FIRST_NAMESPACES: a namespace is read from its catalogue
 * chunk when a page's chunk loads (`loadNamespaces`, through `lazyPage`), or else when a component
 * first uses it (react-i18next then suspends to the nearest Suspense boundary meanwhile).
 */
const lazyAreas = {
  type: 'backend' as const,
  init() {},
  read(lang: string, ns: string, done: (err: unknown, data: Record<string, unknown> | null) => void) {
    const file = areaFiles[`./locales/${lang}/${ns}.json`];
    if (!file) return done(null, {});
    file().then(
      (module) => done(null, module.default),
      (err: unknown) => done(err, null),
    );
  },
};

const initial = storedLanguage();
void i18next
  .use(lazyAreas)
  .use(initReactI18next)
  .init({
    resources: {},
    lng: initial,
    // no fallback language: en-US is complete (catalogues.test.ts checks every key and placeholder),
    // so a page in English fetches its English catalogues only, not the Chinese ones beside them
    fallbackLng: false,
    supportedLngs: [...LANGUAGES],
    ns: [...SHARED_NAMESPACES, ...FIRST_NAMESPACES],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
    partialBundledLanguages: true,
  });
dayjs.locale(DAYJS_LOCALES[initial]);
document.documentElement.lang = initial;

/** The stored language's catalogues, before the console's first render (main.tsx). */
export function loadInitialLanguage(): Promise<void> {
  return loadLanguage(initial);
}

/**
 * Loads namespaces of the current language that are not in yet; a page's lazy
 * chunk waits for its namespaces with it (`lazyPage`). i18next remembers them (`options.ns`), so a
 * language switch loads them in the new language before it shows any text in it.
 */
export function loadNamespaces(namespaces: readonly string[]): Promise<void> {
  return namespaces.length > 0 ? i18next.loadNamespaces([...namespaces]) : Promise.resolve();
}

/** Switches the language everywhere (i18next, dayjs, antd through the provider) and remembers it. */
export async function setLanguage(lang: Language): Promise<void> {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
  } catch {
    // private mode: the choice lasts for this page only
  }
  await loadLanguage(lang);
  dayjs.locale(DAYJS_LOCALES[lang]);
  document.documentElement.lang = lang;
  await i18next.changeLanguage(lang);
}

/**
 * Translates a protocol message key such as `validation.password.length` (namespace first, as the
 * shared schemas write them). Anything that is not a known key comes back unchanged, so a text
 * the server already translated passes through.
 */
export function translateKey(key: string, params?: Record<string, unknown>): string {
  const dot = key.indexOf('.');
  if (dot <= 0) return key;
  const ns = key.slice(0, dot);
  if (!NAMESPACES.includes(ns)) return key;
  const rest = key.slice(dot + 1);
  if (!i18next.exists(rest, { ns })) return key;
  const text = i18next.t(rest, { ns, ...params });
  // a predicate ("is required") shown on its own, under its field: a sentence ("This field is required.")
  return FIELD_PREDICATES.has(key) ? i18next.t('validation:valueIs', { message: text }) : text;
}

export { i18next };
