import type { FenceShape } from '@bwc/protocol';
import { useEffect } from 'react';
import { useMap } from './MapView';
import { shapeToRings } from './shapes';

export interface MapShape {
  id: number;
  shape: FenceShape;
  /** drawn highlighted */
  selected?: boolean;
  /** drawn faded (e.g. a disabled fence) */
  muted?: boolean;
}

const SOURCE = 'bwc-shapes';

/** Fences or zones as filled outlines; renders nothing. */
export function ShapesLayer({ shapes, color = '#1677ff' }: { shapes: MapShape[]; color?: string }) {
  const { map, crs } = useMap();
  useEffect(() => {
    map.addSource(SOURCE, {
      type: 'geojson',
      data: {
        type: 'FeatureCollection',
        features: shapes.map((s) => ({
          type: 'Feature',
          id: s.id,
          properties: { selected: s.selected ? 1 : 0, muted: s.muted ? 1 : 0 },
          geometry: { type: 'Polygon', coordinates: shapeToRings(s.shape, crs) },
        })),
      },
    });
    map.addLayer({
      id: `${SOURCE}-fill`,
      type: 'fill',
      source: SOURCE,
      paint: {
        'fill-color': ['case', ['==', ['get', 'selected'], 1], '#fa8c16', color],
        'fill-opacity': ['case', ['==', ['get', 'muted'], 1], 0.06, 0.18],
      },
    });
    map.addLayer({
      id: `${SOURCE}-line`,
      type: 'line',
      source: SOURCE,
      paint: {
        'line-color': ['case', ['==', ['get', 'selected'], 1], '#fa8c16', color],
        'line-width': 2,
        'line-opacity': ['case', ['==', ['get', 'muted'], 1], 0.4, 1],
      },
    });
    return () => {
      if (!map.style) return;
      for (const id of [`${SOURCE}-line`, `${SOURCE}-fill`]) if (map.getLayer(id)) map.removeLayer(id);
      if (map.getSource(SOURCE)) map.removeSource(SOURCE);
    };
  }, [map, crs, shapes, color]);
  return null;
}
