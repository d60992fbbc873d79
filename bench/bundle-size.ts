// Gzipped JavaScript of the console's first screens beside the 400 KB limit (the first-load budget, bench/bundle-size.ts).
//   npx tsx bench/bundle-size.ts [--out DIR]
// Builds apps/web with Vite into a temporary folder (apps/web/dist is left alone), reads the
// build manifest and follows the entry's static imports (its modulepreload links) plus each
// screen's lazy chunk (apps/web/bundle-budget.ts): the login page, and the shell after login
// before any map page. Also prints the largest chunks of each screen and the map library's chunk.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import {
  FIRST_LOAD_BUDGET_BYTES,
  FIRST_SCREENS,
  SCREEN_LANGUAGES,
  screenSize,
  screenSources,
  type FirstScreen,
  type Manifest,
} from '../apps/web/bundle-budget';
import { ROOT } from './support';

const { values } = parseArgs({ options: { out: { type: 'string' } } });
const webRoot = join(ROOT, 'apps/web');
const outDir = values.out ?? mkdtempSync(join(tmpdir(), 'bwc-bundle-'));

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

try {
  const started = Date.now();
  await build({
    root: webRoot,
    configFile: join(webRoot, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, manifest: true },
  });
  console.log(`built apps/web in ${((Date.now() - started) / 1000).toFixed(1)} s into ${outDir}`);
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const read = (file: string) => readFileSync(join(outDir, file));
  const gzip = (file: string) => gzipSync(read(file), { level: 9 }).length;

  let over = false;
  for (const screen of Object.keys(FIRST_SCREENS) as FirstScreen[]) {
    for (const language of SCREEN_LANGUAGES) {
      const size = screenSize(manifest, screenSources(manifest, screen, language), read);
      const verdict = size.gzipBytes <= FIRST_LOAD_BUDGET_BYTES ? 'within' : 'OVER';
      over ||= verdict === 'OVER';
      console.log(
        `\n${screen} (${language}): ${kb(size.gzipBytes)} gzip (${kb(size.rawBytes)} raw) in ${size.files.length} files; ` +
          `limit ${kb(FIRST_LOAD_BUDGET_BYTES)}: ${verdict}`,
      );
      const largest = size.files.map((file) => ({ file, gzip: gzip(file) })).sort((a, b) => b.gzip - a.gzip);
      for (const { file, gzip: bytes } of largest.slice(0, 5)) console.log(`  ${kb(bytes).padStart(9)}  ${file}`);
    }
  }
  // where the map library went: the lazy chunk that holds MapLibre (found by its class name)
  const mapChunks = Object.values(manifest).filter((chunk) => chunk.file.endsWith('.js') && read(chunk.file).includes('maplibregl-map'));
  for (const chunk of new Set(mapChunks)) console.log(`\nmap library: ${chunk.file}, ${kb(gzip(chunk.file))} gzip, loaded when a map first shows`);
  process.exitCode = over ? 1 : 0;
} finally {
  if (!values.out) rmSync(outDir, { recursive: true, force: true });
}
