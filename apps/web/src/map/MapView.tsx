import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { maplibregl, type MapLibreMap } from './maplibre';
import { normaliseCrs, type MapCrs } from './coords';
import './map.css';

interface MapContextValue {
  map: MapLibreMap;
  crs: MapCrs;
}

const MapContext = createContext<MapContextValue | null>(null);

/** The map and the base map's coordinate system, for layers rendered inside `<MapView>`. */
export function useMap(): MapContextValue {
  const value = useContext(MapContext);
  if (!value) throw new Error('useMap outside <MapView>');
  return value;
}

export interface MapViewProps {
  /** style URL (GET /rest/map/style) */
  styleUrl: string;
  /** [lng, lat] WGS-84 */
  center: [number, number];
  zoom: number;
  /** the base map's coordinate system when the style does not say it (`bwc:crs`) */
  crs?: MapCrs;
  /** the style could not be loaded: the address that failed */
  onStyleError?: (address: string) => void;
  onReady?: (map: MapLibreMap, crs: MapCrs) => void;
  children?: ReactNode;
  testId?: string;
}

/**
 * One MapLibre map. Layers are children that own their sources and layers in an effect and
 * render nothing (traccar-web style); they mount once the style has loaded.
 */
export function MapView({
  styleUrl,
  center,
  zoom,
  crs: fallbackCrs = 'WGS84',
  onStyleError,
  onReady,
  children,
  testId,
}: MapViewProps) {
  const container = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState<MapContextValue | null>(null);
  const callbacks = useRef({ onStyleError, onReady });
  callbacks.current = { onStyleError, onReady };
  const initial = useRef({ center, zoom, fallbackCrs });
  const { i18n } = useTranslation();
  const language = useRef(i18n.language);
  language.current = i18n.language;
  // labels follow a language switch without a new map
  useEffect(() => {
    if (ready) labelLanguage(ready.map, i18n.language);
  }, [ready, i18n.language]);

  useEffect(() => {
    if (!container.current) return;
    let failed = false;
    const { fallbackCrs: crs0 } = initial.current;
    let map: MapLibreMap;
    try {
      map = new maplibregl.Map({
        container: container.current,
        style: styleUrl,
        center: initial.current.center,
        zoom: initial.current.zoom,
        attributionControl: false,
        // labels are drawn by the console (canvas images), no glyph server needed
        localIdeographFontFamily: 'sans-serif',
        // no symbol fade: with live data every update would otherwise repaint for 300 ms more
        // (software WebGL here: each frame costs)
        fadeDuration: 0,
      });
    } catch {
      callbacks.current.onStyleError?.(styleUrl);
      return;
    }
    map.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'bottom-right');
    map.addControl(new maplibregl.ScaleControl({}), 'bottom-left');
    // the sources' attributions (the built-in basemap's open data asks for it), folded to an (i)
    map.addControl(new maplibregl.AttributionControl({ compact: true }), 'bottom-right');
    map.on('error', (event) => {
      const source = (event as unknown as { sourceId?: string }).sourceId;
      if (!map.isStyleLoaded() && !source && !failed) {
        failed = true;
        callbacks.current.onStyleError?.(styleUrl);
      }
    });
    // layers need the style, not every tile: 'style.load' (in headless Chromium 'load' may wait
    // for a frame that never comes while nothing moves)
    map.once('style.load', () => {
      const metadata = (map.getStyle().metadata ?? {}) as Record<string, unknown>;
      const crs = metadata['bwc:crs'] !== undefined ? normaliseCrs(metadata['bwc:crs']) : crs0;
      labelLanguage(map, language.current);
      const value = { map, crs };
      setReady(value);
      callbacks.current.onReady?.(map, crs);
    });
    return () => {
      setReady(null);
      map.remove();
    };
  }, [styleUrl]);

  return (
    <div className="bwc-map" data-testid={testId}>
      <div ref={container} className="bwc-map-canvas" />
      {ready && <MapContext.Provider value={ready}>{children}</MapContext.Provider>}
    </div>
  );
}

/**
 * Label layers that name their text per language (`metadata['bwc:text-field-<language>']`, the
 * built-in basemap's place names) get the text of the console's language.
 */
export function labelLanguage(map: MapLibreMap, language: string): void {
  for (const layer of map.getStyle().layers ?? []) {
    const metadata = (layer as { metadata?: Record<string, unknown> }).metadata;
    const field = metadata?.[`bwc:text-field-${language}`];
    if (field !== undefined && field !== null) map.setLayoutProperty(layer.id, 'text-field', field as never);
  }
}
