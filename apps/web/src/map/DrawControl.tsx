import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { TerraDraw, TerraDrawCircleMode, TerraDrawPolygonMode, TerraDrawRectangleMode } from 'terra-draw';
import { TerraDrawMapLibreGLAdapter } from 'terra-draw-maplibre-gl-adapter';
import { notify } from '../api/notify';
import { edgesDoNotCross } from './drawValidation';
import { useMap } from './MapView';

export type DrawShape = 'polygon' | 'circle' | 'rectangle';

export interface DrawControlProps {
  /** the shape being drawn; null stops drawing */
  mode: DrawShape | null;
  /** the finished shape's outer ring, in the base map's coordinates */
  onFinish: (ring: number[][], shape: DrawShape) => void;
}

/** Terra-draw on the map for the selection tools; one shape at a time, cleared after each. */
export function DrawControl({ mode, onFinish }: DrawControlProps) {
  const { map } = useMap();
  const { t } = useTranslation('map');
  const finish = useRef(onFinish);
  finish.current = onFinish;
  const refused = useRef(() => {});
  // one toast for repeated refusals (its key), in the current language
  refused.current = () => notify.warning(t('draw.edgesCross'), 'draw-edges-cross');

  useEffect(() => {
    if (!mode) return;
    const draw = new TerraDraw({
      adapter: new TerraDrawMapLibreGLAdapter({ map }),
      modes: [
        new TerraDrawPolygonMode({
          validation: (feature, { updateType }) => edgesDoNotCross(feature, updateType, () => refused.current()),
        }),
        new TerraDrawCircleMode(),
        new TerraDrawRectangleMode(),
      ],
    });
    draw.start();
    draw.setMode(mode);
    draw.on('finish', (id) => {
      const feature = draw.getSnapshotFeature(id);
      const geometry = feature?.geometry;
      if (geometry?.type === 'Polygon') finish.current((geometry.coordinates[0] ?? []) as number[][], mode);
      // keep the shape visible until the next one starts
      setTimeout(() => {
        try {
          draw.clear();
          draw.setMode(mode);
        } catch {
          // stopped meanwhile
        }
      }, 0);
    });
    return () => {
      try {
        draw.stop();
      } catch {
        // map already removed
      }
    };
  }, [map, mode]);

  return null;
}
