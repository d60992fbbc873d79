import { useEffect, useRef } from 'react';
import { toDisplay, type MapCrs } from '../../map/coords';
import { maplibregl } from '../../map/maplibre';
import { MapView, useMap } from '../../map/MapView';

const LINE = 'bwc-evidence-gps-line';

export interface GpsPoint {
  lng: number;
  lat: number;
}

function Track({ points, at, label }: { points: GpsPoint[]; at: GpsPoint | null; label: string }) {
  const { map, crs } = useMap();
  const marker = useRef<maplibregl.Marker | null>(null);

  useEffect(() => {
    const coordinates = points.map((p) => toDisplay(p.lng, p.lat, crs));
    map.addSource(LINE, {
      type: 'geojson',
      data: { type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates } },
    });
    map.addLayer({
      id: LINE,
      type: 'line',
      source: LINE,
      paint: { 'line-color': '#1677ff', 'line-width': 4, 'line-opacity': 0.85 },
      layout: { 'line-cap': 'round', 'line-join': 'round' },
    });
    if (coordinates.length > 1) {
      const bounds = new maplibregl.LngLatBounds(coordinates[0]!, coordinates[0]!);
      for (const c of coordinates) bounds.extend(c);
      map.fitBounds(bounds, { padding: 40, duration: 0, maxZoom: 17 });
    } else if (coordinates[0]) map.jumpTo({ center: coordinates[0], zoom: 16 });
    const element = document.createElement('div');
    element.className = 'bwc-data-gps-marker';
    element.dataset.testid = 'gps-marker';
    element.setAttribute('role', 'img');
    element.setAttribute('aria-label', label);
    marker.current = new maplibregl.Marker({ element }).setLngLat(coordinates[0] ?? [0, 0]).addTo(map);
    return () => {
      marker.current?.remove();
      marker.current = null;
      if (map.getLayer(LINE)) map.removeLayer(LINE);
      if (map.getSource(LINE)) map.removeSource(LINE);
    };
  }, [map, crs, points, label]);

  // the marker follows the playback position
  useEffect(() => {
    if (at && marker.current) marker.current.setLngLat(toDisplay(at.lng, at.lat, crs));
  }, [at, crs]);
  return null;
}

export interface GpsTrackMapProps {
  styleUrl: string;
  crs: MapCrs;
  points: GpsPoint[];
  /** where the recording is at the playback position */
  at: GpsPoint | null;
  label: string;
  onStyleError: (address: string) => void;
}

/** The recording's GPS track with a marker at the playback position; a chunk of its own (MapLibre). */
export function GpsTrackMap({ styleUrl, crs, points, at, label, onStyleError }: GpsTrackMapProps) {
  const first = points[0];
  return (
    <MapView
      testId="gps-map"
      styleUrl={styleUrl}
      crs={crs}
      center={first ? [first.lng, first.lat] : [116.397, 39.909]}
      zoom={15}
      onStyleError={onStyleError}
    >
      <Track points={points} at={at} label={label} />
    </MapView>
  );
}
