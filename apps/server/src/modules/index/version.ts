import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../config';

let cached: string | undefined;

/** Software version: the root package.json's version. */
export function productVersion(): string {
  cached ??= (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  return cached;
}

/**
 * Build id the console compares every VERSION_CHECK_INTERVAL_MS to offer a reload: the built
 * console's index.html time when one is served, else the version itself.
 */
export function buildId(webDist: string | null): string {
  if (webDist) {
    try {
      return `${productVersion()}+${statSync(join(webDist, 'index.html')).mtimeMs.toFixed(0)}`;
    } catch {
      // console removed while running: fall through
    }
  }
  return productVersion();
}
