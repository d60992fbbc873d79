import type { MapLibreMap } from './maplibre';

/**
 * The map handle that end-to-end checks and the map benchmark read (`window.__bwcMap`). Only a
 * console built for them has it (`vite build --mode e2e`: scripts/lib/setup.mjs builds e2e/dist
 * so); Vite replaces `import.meta.env.MODE` at build time, so any other build drops this code and
 * carries no handle.
 */
export function exposeMapForTests(map: MapLibreMap): void {
  if (import.meta.env.MODE === 'e2e') (window as unknown as { __bwcMap?: MapLibreMap }).__bwcMap = map;
}
