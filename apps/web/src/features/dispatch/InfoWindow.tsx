import type { DevicePoint } from '@bwc/protocol';
import { Descriptions } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { AddressLocation } from '../../components/address-location';
import { toDisplay } from '../../map/coords';
import { maplibregl } from '../../map/maplibre';
import { useMap } from '../../map/MapView';
import { nameWithCode } from '../../map/points';
import { INFO_WINDOW_SIZE } from './constants';
import { DeviceActionsBar } from './DeviceActionsBar';
import { formatTime } from './DeviceDetailDialog';
import { CapabilityFlags, DeviceStateTag } from './DeviceState';
import { resolveAddress } from './address';
import type { useDeviceActions } from './deviceActions';

interface Props {
  point: DevicePoint;
  mapOn: boolean;
  actions: ReturnType<typeof useDeviceActions>;
  onDetail: (point: DevicePoint) => void;
  onClose: () => void;
  /** the device has an active SOS (map state) */
  sos?: boolean;
}

/** Info window (500x390) of a device on the map: a MapLibre popup whose content React renders. */
export function InfoWindow({ point, mapOn, actions, onDetail, onClose, sos = false }: Props) {
  const { t } = useTranslation('dispatch');
  const { map, crs } = useMap();
  const [container] = useState(() => document.createElement('div'));
  const popupRef = useRef<InstanceType<typeof maplibregl.Popup> | null>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  const at = useRef<[number, number] | null>(null);
  at.current = point.lat === null || point.lng === null ? null : toDisplay(point.lng, point.lat, crs);

  // one popup per mount; React renders its content into `container` through the portal below
  useEffect(() => {
    const popup = new maplibregl.Popup({
      closeOnClick: false,
      maxWidth: `${INFO_WINDOW_SIZE.width}px`,
      offset: 18,
    }).setDOMContent(container);
    if (at.current) popup.setLngLat(at.current).addTo(map);
    const close = () => closeRef.current();
    popup.on('close', close);
    popupRef.current = popup;
    return () => {
      popup.off('close', close);
      popup.remove();
      popupRef.current = null;
    };
  }, [map, container]);

  // follow the device
  useEffect(() => {
    const popup = popupRef.current;
    if (!popup || !at.current) return;
    popup.setLngLat(at.current);
    if (!popup.isOpen()) popup.addTo(map);
  }, [map, crs, point.lat, point.lng]);

  return createPortal(
    <div
      className="bwc-info-window"
      style={{ width: INFO_WINDOW_SIZE.width, height: INFO_WINDOW_SIZE.height }}
      data-testid="info-window"
    >
      <div className="bwc-info-window-title">{nameWithCode(point)}</div>
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label={t('host.hostbody')}>{point.did}</Descriptions.Item>
        <Descriptions.Item label="IMEI">{point.imei}</Descriptions.Item>
        <Descriptions.Item label={t('detail.state')}>
          <DeviceStateTag point={point} sos={sos} />
        </Descriptions.Item>
        <Descriptions.Item label={t('detail.flags')}>
          <CapabilityFlags typecate={point.typecate} />
        </Descriptions.Item>
        <Descriptions.Item label={t('detail.battery')}>
          {point.battery === null ? '-' : `${point.battery}%`}
        </Descriptions.Item>
        <Descriptions.Item label={t('detail.gpsTime')}>{formatTime(point.gps_time)}</Descriptions.Item>
        <Descriptions.Item label={t('detail.position')}>
          <AddressLocation lng={point.lng} lat={point.lat} mapOn={mapOn} resolve={resolveAddress} />
        </Descriptions.Item>
      </Descriptions>
      <div className="bwc-info-window-actions">
        <DeviceActionsBar point={point} actions={actions} onDetail={onDetail} />
      </div>
    </div>,
    container,
  );
}
