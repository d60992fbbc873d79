import * as maplibregl from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';

// maplibre-gl 6 has no default export, and under Vite its worker is a separate file (TOOLCHAIN.md).
maplibregl.setWorkerUrl(workerUrl);

export { maplibregl };
export type { GeoJSONSource, Map as MapLibreMap, StyleSpecification } from 'maplibre-gl';
