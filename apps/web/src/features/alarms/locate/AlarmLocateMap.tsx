import { ALARM_MAP_ZOOM, ALARM_MARKER_SIZE } from '@bwc/protocol';
import { useEffect } from 'react';
import { toDisplay, type MapCrs } from '../../../map/coords';
import { maplibregl } from '../../../map/maplibre';
import { MapView, useMap } from '../../../map/MapView';

/** Alarm pin, 65x65 (spec part 1: alarm marker icon). Static markup, no user text. */
const PIN_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 65 65" width="${ALARM_MARKER_SIZE}" height="${ALARM_MARKER_SIZE}" aria-hidden="true">
<path d="M32.5 63 C32.5 63 10 38 10 24 A22.5 22.5 0 0 1 55 24 C55 38 32.5 63 32.5 63 Z" fill="#e02424" stroke="#ffffff" stroke-width="3"/>
<circle cx="32.5" cy="24" r="13" fill="#ffffff"/>
<rect x="30" y="14" width="5" height="13" rx="2" fill="#e02424"/>
<circle cx="32.5" cy="32" r="3" fill="#e02424"/>
</svg>`;

/** The alarm marker: a MapLibre marker (anchor at the pin's tip) with the title below. */
function AlarmMarker({ lng, lat, title, label }: { lng: number; lat: number; title?: string; label: string }) {
  const { map, crs } = useMap();
  useEffect(() => {
    const element = document.createElement('div');
    element.className = 'bwc-alarm-marker';
    element.dataset.testid = 'alarm-locate-marker';
    element.setAttribute('role', 'img');
    element.setAttribute('aria-label', label);
    element.style.width = `${ALARM_MARKER_SIZE}px`;
    element.style.height = `${ALARM_MARKER_SIZE}px`;
    element.innerHTML = PIN_SVG;
    if (title) {
      const caption = document.createElement('span');
      caption.className = 'bwc-alarm-marker-title';
      caption.textContent = title;
      element.appendChild(caption);
    }
    const at = toDisplay(lng, lat, crs);
    const marker = new maplibregl.Marker({ element, anchor: 'bottom' }).setLngLat(at).addTo(map);
    map.jumpTo({ center: at, zoom: ALARM_MAP_ZOOM });
    return () => {
      marker.remove();
    };
  }, [map, crs, lng, lat, title, label]);
  return null;
}

export interface AlarmLocateMapProps {
  styleUrl: string;
  crs: MapCrs;
  /** WGS-84 [lng, lat] of the alarm */
  position: [number, number];
  title?: string;
  /** accessible name of the marker */
  label: string;
  onStyleError: (address: string) => void;
}

/**
 * The map of the locate dialog, a chunk of its own: the dialog lives in the navigation bar's bell,
 * and MapLibre loads only when a user first locates an alarm (the first-load budget, bench/bundle-size.ts).
 */
export function AlarmLocateMap({ styleUrl, crs, position, title, label, onStyleError }: AlarmLocateMapProps) {
  return (
    <MapView
      testId="alarm-locate-map"
      styleUrl={styleUrl}
      crs={crs}
      center={position}
      zoom={ALARM_MAP_ZOOM}
      onStyleError={onStyleError}
    >
      <AlarmMarker lng={position[0]} lat={position[1]} title={title} label={label} />
    </MapView>
  );
}
