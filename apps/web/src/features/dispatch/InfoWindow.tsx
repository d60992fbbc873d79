import type { DevicePoint } from '@bwc/protocol';
import { HistoryOutlined } from '@ant-design/icons';
import { Button, Descriptions } from 'antd';
import { Suspense, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { lazyPage } from '../../app/routing/lazyPage';
import { AddressLocation } from '../../components/address-location';
import { toDisplay } from '../../map/coords';
import { maplibregl } from '../../map/maplibre';
import { useMap } from '../../map/MapView';
import { nameWithCode } from '../../map/points';
import { INFO_WINDOW_MARGIN, INFO_WINDOW_SIZE } from './constants';
import { DeviceActionsBar } from './DeviceActionsBar';
import { formatTime } from './DeviceDetailDialog';
import { CapabilityFlags, DeviceStateTag } from './DeviceState';
import { resolveAddress } from './address';
import type { useDeviceActions } from './deviceActions';
import { panToFit, visibleBox } from './popupFit';

/** the device's recordings on a timeline (features/playback), loaded when opened */
const DeviceReplayDialog = lazyPage(() => import('../playback/DeviceReplayDialog'), 'DeviceReplayDialog');

interface Props {
  point: DevicePoint;
  mapOn: boolean;
  actions: ReturnType<typeof useDeviceActions>;
  onDetail: (point: DevicePoint) => void;
  /** opens the device's conversation in the messages tab */
  onMessage?: (point: DevicePoint) => void;
  onClose: () => void;
  /** the device has an active SOS (map state) */
  sos?: boolean;
}

/** Info window (500x390) of a device on the map: a MapLibre popup whose content React renders. */
export function InfoWindow({ point, mapOn, actions, onDetail, onMessage, onClose, sos = false }: Props) {
  const { t } = useTranslation('dispatch');
  const { t: tp } = useTranslation('playback');
  const [replay, setReplay] = useState(false);
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
      padding: {
        top: INFO_WINDOW_MARGIN,
        right: INFO_WINDOW_MARGIN,
        bottom: INFO_WINDOW_MARGIN,
        left: INFO_WINDOW_MARGIN,
      },
      className: 'bwc-info-popup',
      // focused before it is fitted into the map, the window's first button would scroll the page
      // to itself; the fit below focuses it once it is in view
      focusAfterOpen: false,
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

  // Keep the window inside the part of the map the user sees, where it opens and when the map's size
  // changes: MapLibre puts it above or below the device, but a map less than twice its height leaves
  // a band where neither fits, and a page scrolled under the window cuts it too. The map pans (the
  // window runs past an edge), and a map lower than the window shortens it (its details scroll).
  // A device the user follows may still leave the view: moving the map then would fight the user.
  useEffect(() => {
    const popup = popupRef.current;
    if (!popup) return;
    const fit = () => {
      const element = popup.getElement();
      const content = container.firstElementChild;
      if (!popup.isOpen() || !element || !(content instanceof HTMLElement)) return;
      const view = visibleBox(map.getContainer().getBoundingClientRect(), {
        width: window.innerWidth,
        height: window.innerHeight,
      });
      const tip = element.getBoundingClientRect().height - content.offsetHeight;
      const room = Math.max(view.bottom - view.top - 2 * INFO_WINDOW_MARGIN - tip, 0);
      container.style.setProperty('--bwc-info-window-room', `${room}px`);
      // a pan can move the device across MapLibre's line between 'above' and 'below': measure again
      for (let turn = 0; turn < 3; turn++) {
        const [dx, dy] = panToFit(element.getBoundingClientRect(), view, INFO_WINDOW_MARGIN);
        if (dx === 0 && dy === 0) break;
        map.panBy([dx, dy], { animate: false });
      }
    };
    const open = () => {
      fit();
      // the first device action (the title's replay link comes before it in the document)
      container
        .querySelector<HTMLElement>('.bwc-info-window-actions button:not([disabled])')
        ?.focus({ preventScroll: true });
    };
    // the page's locate flies the map to the device: fit where the flight ends
    if (map.isMoving()) map.once('moveend', open);
    else open();
    map.on('resize', fit);
    return () => {
      map.off('moveend', open);
      map.off('resize', fit);
    };
  }, [map, container, point.id]);

  return createPortal(
    <div
      className="bwc-info-window"
      style={{ width: INFO_WINDOW_SIZE.width, height: INFO_WINDOW_SIZE.height }}
      data-testid="info-window"
    >
      <div className="bwc-info-window-title" data-testid="info-window-title">
        {nameWithCode(point)}
        <Button
          size="small"
          type="link"
          icon={<HistoryOutlined />}
          onClick={() => setReplay(true)}
          data-testid="info-window-replay"
        >
          {tp('open')}
        </Button>
      </div>
      <div className="bwc-info-window-body">
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
      </div>
      <div className="bwc-info-window-actions">
        <DeviceActionsBar point={point} actions={actions} onDetail={onDetail} onMessage={onMessage} />
      </div>
      {replay && (
        <Suspense fallback={null}>
          <DeviceReplayDialog device={{ id: point.id, name: nameWithCode(point) }} onClose={() => setReplay(false)} />
        </Suspense>
      )}
    </div>,
    container,
  );
}
