import type { FenceShape } from '@bwc/protocol';

/** A small square near the demo map centre, for tests that save a fence or zone. */
export const SQUARE: FenceShape = {
  type: 'polygon',
  points: [
    { lng: 114.0, lat: 22.5 },
    { lng: 114.01, lat: 22.5 },
    { lng: 114.01, lat: 22.51 },
    { lng: 114.0, lat: 22.51 },
  ],
  holes: [],
};
