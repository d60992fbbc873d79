// What the console's first screens load, read from Vite's build manifest (the first-load budget): the
// login page and the shell before any map page must load with at most FIRST_LOAD_BUDGET_BYTES of
// gzipped JavaScript. Used by `bench/bundle-size.ts` (prints the figures) and by
// `src/app/bundle.test.ts` (fails when the login page's static graph reaches the map library).
import { gzipSync } from 'node:zlib';
import { FIRST_NAMESPACES } from './src/i18n/first';

/** The first-load limit: 400 KB of gzipped JavaScript for the login page and for the shell. */
export const FIRST_LOAD_BUDGET_BYTES = 400 * 1024;

/**
 * Source modules each first screen loads besides the entry (`index.html`), as lazy chunks when
 * they are split off; a module bundled into the entry's static graph adds nothing. The shell is
 * what a user has after logging in, before opening any page of an area: the navigation bar with
 * the bell and the home page (/menu).
 */
export const FIRST_SCREENS = {
  login: ['src/features/auth/LoginPage.tsx'],
  shell: ['src/features/auth/LoginPage.tsx', 'src/app/shell/ShellLayout.tsx', 'src/features/home/HomePage.tsx'],
} as const;

export type FirstScreen = keyof typeof FIRST_SCREENS;

/** The console's languages (`LANGUAGES` of the protocol); each screen loads one language's catalogues. */
export const SCREEN_LANGUAGES = ['zh-CN', 'en-US'] as const;

/**
 * The modules a screen loads in one language: its own modules and the catalogues that
 * `loadLanguage` fetches before the first render (the FIRST_NAMESPACES areas and the protocol's
 * shared ones; the other areas load with their pages).
 */
export function screenSources(manifest: Manifest, screen: FirstScreen, language: string): string[] {
  const first = (key: string) =>
    (FIRST_NAMESPACES as readonly string[]).some((ns) => key.endsWith(`/i18n/locales/${language}/${ns}.json`));
  const catalogues = Object.keys(manifest).filter((key) => first(key) || key.endsWith(`/i18n/${language}.ts`));
  if (catalogues.length === 0) throw new Error(`the manifest has no catalogue of ${language}`);
  return [...FIRST_SCREENS[screen], ...catalogues];
}

/** The part of a manifest chunk this reads (vite.dev/guide/backend-integration). */
export interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

export type Manifest = Record<string, ManifestChunk>;

/** The HTML entry of the build: `index.html`, whose script and modulepreload links load first. */
export function entryKey(manifest: Manifest): string {
  const key = Object.keys(manifest).find((k) => manifest[k]!.isEntry && k.endsWith('index.html'));
  if (!key) throw new Error('the manifest has no index.html entry');
  return key;
}

/**
 * The JavaScript files a screen loads: the entry and every chunk it imports statically (these are
 * the page's modulepreload links), then each of the screen's modules that is a lazy chunk with
 * its own static imports. Dynamic imports are not followed: they load when first used.
 */
export function screenFiles(manifest: Manifest, sources: readonly string[]): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the manifest has no chunk ${key}`);
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entryKey(manifest));
  for (const source of sources) if (manifest[source]) visit(source);
  return [...files];
}

export interface ScreenSize {
  files: string[];
  rawBytes: number;
  gzipBytes: number;
}

/** Raw and gzip sizes (level 9, what a static server's precompressed files would hold) of a screen's files. */
export function screenSize(
  manifest: Manifest,
  sources: readonly string[],
  read: (file: string) => Uint8Array,
): ScreenSize {
  const files = screenFiles(manifest, sources);
  let rawBytes = 0;
  let gzipBytes = 0;
  for (const file of files) {
    const bytes = read(file);
    rawBytes += bytes.length;
    gzipBytes += gzipSync(bytes, { level: 9 }).length;
  }
  return { files, rawBytes, gzipBytes };
}
