import { MAP_START_ZOOM } from '@bwc/protocol';
import { Result, Spin } from 'antd';
import { useState, type ReactNode, type RefObject } from 'react';
import { BasemapNotice } from './BasemapNotice';
import type { MapCrs } from './coords';
import type { MapLibreMap } from './maplibre';
import { useMapSetup } from './mapSetup';
import { MapView } from './MapView';
import { exposeMapForTests } from './testHandle';
import './map-screen.css';

/** Width of the panel left of the map (spec part 2 sections 2.3 and 9). */
export const LEFT_PANEL_WIDTH = 340;

/** The map of a screen, once its style has loaded: to move it from the screen's panel and tools. */
export interface MapHandle {
  map: MapLibreMap;
  crs: MapCrs;
}

export interface MapScreenProps {
  /** data-testid of the screen */
  testId: string;
  /** data-testid of the map */
  mapTestId: string;
  /**
   * `fill`: the screen fills the page under the navigation bar (dispatch); `area`: it sits in an
   * area page's padding, beside the side menu.
   */
  layout: 'fill' | 'area';
  /** a map config that cannot be read sends the user to Login (spec part 2 section 7.4); otherwise the screen says so */
  loginOnError?: boolean;
  /** title of the warning when the map cannot start (its style address below it) */
  failedTitle: string;
  failedTestId?: string;
  /** filled in when the map is ready */
  mapRef?: RefObject<MapHandle | null>;
  /** called once the map is ready (after `mapRef` is filled) */
  onMapReady?: (handle: MapHandle) => void;
  /** the panel left of the map */
  panel: ReactNode;
  /** the map's layers: components that own their sources and layers (`map/*Layer.tsx`) */
  layers?: ReactNode;
  /** over the map: tool bars, the replay bar */
  overlay?: ReactNode;
  /** right of the map (the face-alarm column) */
  aside?: ReactNode;
  /** the screen's dialogs */
  children?: ReactNode;
}

/**
 * One map screen (emergency dispatch, history track, fences and zones): the shared map setup
 * (config, style, coordinate system) read once, a panel on the left, the map with the screen's
 * layers and tools, the loading and failure states.
 */
export function MapScreen({
  testId,
  mapTestId,
  layout,
  loginOnError = false,
  failedTitle,
  failedTestId,
  mapRef,
  onMapReady,
  panel,
  layers,
  overlay,
  aside,
  children,
}: MapScreenProps) {
  const setup = useMapSetup({ loginOnError });
  const [styleError, setStyleError] = useState<string | null>(null);

  // on the way to Login there is nothing to show; otherwise the screen says the map failed
  if (setup.isError) return loginOnError ? null : <Result status="warning" title={failedTitle} />;
  if (!setup.data) return <Spin className="bwc-map-screen-loading" />;
  const { config, styleUrl, crs, mode } = setup.data;

  return (
    <div className={`bwc-map-screen bwc-map-screen-${layout}`} data-testid={testId}>
      <aside className="bwc-map-screen-panel" style={{ width: LEFT_PANEL_WIDTH }}>
        {panel}
      </aside>
      <main className="bwc-map-screen-map">
        {styleError ? (
          <Result status="warning" title={failedTitle} subTitle={styleError} data-testid={failedTestId} />
        ) : (
          <MapView
            testId={mapTestId}
            styleUrl={styleUrl}
            crs={crs}
            center={[config.gpscenter_lon, config.gpscenter_lat]}
            zoom={MAP_START_ZOOM}
            onStyleError={setStyleError}
            onReady={(map, mapCrs) => {
              if (mapRef) mapRef.current = { map, crs: mapCrs };
              exposeMapForTests(map);
              onMapReady?.({ map, crs: mapCrs });
            }}
          >
            {layers}
          </MapView>
        )}
        {!styleError && mode === 'builtin' && <BasemapNotice />}
        {overlay}
      </main>
      {aside}
      {children}
    </div>
  );
}
