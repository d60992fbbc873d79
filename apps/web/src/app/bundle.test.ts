import { join, resolve } from 'node:path';
import type { Rolldown } from 'vite';
import { build } from 'vite';
import { describe, expect, it } from 'vitest';
import { SCREEN_LANGUAGES, screenFiles, screenSources, type FirstScreen, type Manifest } from '../../bundle-budget';

const WEB_ROOT = resolve(import.meta.dirname, '../..');

/**
 * Modules the first screens load only after their first render (the first-load budget,
 * bench/bundle-size.ts): the map library with the first map page, the console-service SDK and the
 * service's message schemas beside the shell's first page (app/shell/ConsoleService.tsx).
 */
const LATER_MODULES = [
  '/node_modules/maplibre-gl/',
  '/node_modules/terra-draw/',
  '/apps/web/src/realtime/sdk/',
  '/packages/protocol/src/console/codes.ts',
];

/** The production build in memory: its chunks by file name and its manifest. */
async function buildInMemory() {
  const result = await build({
    root: WEB_ROOT,
    configFile: join(WEB_ROOT, 'vite.config.ts'),
    logLevel: 'silent',
    build: { write: false, manifest: true },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const files = outputs.flatMap((output) => output.output);
  const manifestAsset = files.find((file) => file.fileName === '.vite/manifest.json');
  if (!manifestAsset || manifestAsset.type !== 'asset') throw new Error('the build wrote no manifest');
  const manifest = JSON.parse(String(manifestAsset.source)) as Manifest;
  const modulesOf = new Map<string, string[]>();
  for (const file of files) if (file.type === 'chunk') modulesOf.set(file.fileName, file.moduleIds);
  return { manifest, modulesOf };
}

describe('first load', () => {
  it('the login page and the shell reach neither the map library nor the console-service SDK through static imports', async () => {
    const { manifest, modulesOf } = await buildInMemory();
    const reached = (screen: FirstScreen) =>
      SCREEN_LANGUAGES.flatMap((language) => screenFiles(manifest, screenSources(manifest, screen, language)))
        .flatMap((file) => modulesOf.get(file) ?? [])
        .filter((id) => LATER_MODULES.some((part) => id.includes(part)));
    expect(reached('login')).toEqual([]);
    expect(reached('shell')).toEqual([]);
    // the check sees each of them where it is: in the lazy chunks
    const all = [...modulesOf.values()].flat();
    expect(LATER_MODULES.filter((part) => !all.some((id) => id.includes(part)))).toEqual([]);
  }, 300_000);
});
