import { ALARM_MAP_SIZE, ALARM_MAP_ZOOM, ALARM_MARKER_SIZE } from '@bwc/protocol';
import { Modal, Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toDisplay } from '../../../map/coords';
import { maplibregl } from '../../../map/maplibre';
import { MapView, useMap } from '../../../map/MapView';
import { useMapSetup } from '../../../map/mapSetup';
import { markerPosition, type Coordinate } from './position';
import './locate.css';

export interface AlarmLocateDialogProps {
  open: boolean;
  /** WGS-84 longitude of the alarm (missing: 'marker position not found') */
  lng: Coordinate;
  /** WGS-84 latitude of the alarm */
  lat: Coordinate;
  /** shown under the marker (e.g. hostNameCode of the alarm) */
  title?: string;
  onClose: () => void;
}

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

/**
 * The 'locate' map dialog of an alarm (spec part 1 section 2): a 750x300 map centred on the alarm,
 * zoom 12, a 65x65 marker; 'marker position not found' when lng or lat is missing. Coordinates
 * are WGS-84 and shifted for a GCJ-02 base map like every layer of `map/`.
 */
export function AlarmLocateDialog({ open, lng, lat, title, onClose }: AlarmLocateDialogProps) {
  const { t } = useTranslation('alarm');
  const position = markerPosition(lng, lat);
  const [styleError, setStyleError] = useState<string | null>(null);
  const setup = useMapSetup({ enabled: open && position !== null });

  let body: React.ReactNode;
  if (!position) {
    body = (
      <div data-testid="alarm-locate-not-found">
        <Result status="warning" title={t('locate.notFound')} />
      </div>
    );
  } else if (styleError || setup.isError) {
    body = (
      <div data-testid="alarm-locate-map-failed">
        <Result status="warning" title={t('locate.mapFailed')} subTitle={styleError ?? undefined} />
      </div>
    );
  } else if (!setup.data) {
    body = <Spin className="bwc-alarm-locate-loading" />;
  } else {
    body = (
      <MapView
        testId="alarm-locate-map"
        styleUrl={setup.data.styleUrl}
        crs={setup.data.crs}
        center={position}
        zoom={ALARM_MAP_ZOOM}
        onStyleError={setStyleError}
      >
        <AlarmMarker lng={position[0]} lat={position[1]} title={title} label={t('locate.marker')} />
      </MapView>
    );
  }

  return (
    <Modal
      open={open}
      title={t('locate.title')}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
      width={ALARM_MAP_SIZE.width + 48}
      centered
    >
      <div
        className="bwc-alarm-locate"
        style={{ width: ALARM_MAP_SIZE.width, height: ALARM_MAP_SIZE.height }}
        data-testid="alarm-locate"
      >
        {body}
      </div>
    </Modal>
  );
}
