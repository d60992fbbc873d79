import type { Page } from '@playwright/test';

/** One device marker as the dispatch map's GeoJSON source holds it (display coordinates). */
export interface MapFeature {
  id: number;
  state: string;
  coordinates: [number, number];
}

/** The device markers the dispatch map holds (source `bwc-devices`), only `ids` when given. */
export function mapFeatures(page: Page, ids?: number[]): Promise<MapFeature[]> {
  return page.evaluate(async (wanted) => {
    type Data = {
      features: { id: number; properties: { state: string }; geometry: { coordinates: [number, number] } }[];
    };
    const map = (
      window as unknown as { __bwcMap?: { getSource(id: string): { getData(): Promise<Data> } | undefined } }
    ).__bwcMap;
    const source = map?.getSource('bwc-devices');
    if (!source) return [];
    const data = await source.getData();
    return data.features
      .filter((f) => wanted === null || wanted.includes(Number(f.id)))
      .map((f) => ({ id: Number(f.id), state: f.properties.state, coordinates: f.geometry.coordinates }));
  }, ids ?? null);
}
