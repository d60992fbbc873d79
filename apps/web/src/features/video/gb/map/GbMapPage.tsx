import { EnvironmentOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { MAP_START_ZOOM, type GbPoint } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Input, Tag } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../../api/http';
import { toDisplay } from '../../../../map/coords';
import { MapScreen, type MapHandle } from '../../../../map/MapScreen';
import { moveCamera } from '../../../../map/moveCamera';
import { usePush, usePushReconnect } from '../../../../realtime/session/pushChannel';
import { LiveDialogHost, openLive } from '../../openLive';
import { liveDeviceOfGbChannel } from '../gbLive';
import { gbLocalTime } from '../gbTime';
import { GbDevicesLayer } from './GbDevicesLayer';
import { GbPointStore, sortedPoints } from './gbPoints';
import './gb-map.css';

export const GB_POINTS_KEY = ['gbDevicePoints'] as const;

/**
 * The emergency map in GB mode (spec part 1 section 4: clusters and the tree switch with the GB
 * flag): GB devices with a known position (gb_points), moved and restyled by gb_site_data
 * pushes; a device list on the left; a click on a marker or a list row shows the device with
 * its channels, each of which opens its live video in a floating player.
 */
export function GbMapPage() {
  const { t } = useTranslation('video');
  const store = useMemo(() => new GbPointStore(), []);
  const mapRef = useRef<MapHandle | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  /** the list's search: part of a name or GB id (the markers stay) */
  const [search, setSearch] = useState('');
  useSyncExternalStore(store.subscribe, store.snapshot);

  const points = useQuery({
    queryKey: GB_POINTS_KEY,
    queryFn: ({ signal }) => call('gbDevicePoints', {}, { signal }),
  });
  const { refetch } = points;
  useEffect(() => {
    if (points.data) store.replace(points.data.points);
  }, [points.data, store]);
  // a device not held yet (its first fix) is read again with its channels
  usePush('gb_site_data', (message) => {
    if (store.push(message.data)) void refetch();
  });
  usePushReconnect(() => void refetch());

  const locate = useCallback(
    (devgbid: string) => {
      setSelected(devgbid);
      const p = store.get(devgbid);
      const handle = mapRef.current;
      if (!p || !handle) return;
      const zoom = Math.max(handle.map.getZoom(), MAP_START_ZOOM);
      moveCamera(handle.map, { center: toDisplay(p.lng, p.lat, handle.crs), zoom }, false);
    },
    [store],
  );

  const list = sortedPoints(store.all());
  const online = list.filter((p) => p.lineon === 1).length;
  const shown = matching(list, search);
  const current = selected ? store.get(selected) : undefined;

  return (
    <MapScreen
      testId="gb-map-page"
      mapTestId="gb-map"
      layout="fill"
      loginOnError
      failedTitle={t('gbMap.initFailed')}
      mapRef={mapRef}
      panel={
        <div className="bwc-gb-map-panel" data-testid="gb-map-list">
          <div className="bwc-gb-map-count">{t('gbMap.count', { total: list.length, online })}</div>
          <Input.Search
            allowClear
            placeholder={t('gbMap.search')}
            aria-label={t('gbMap.search')}
            onChange={(e) => setSearch(e.target.value)}
            className="bwc-gb-map-search"
            data-testid="gb-map-search"
          />
          {list.length === 0 && !points.isPending && <Empty description={t('gbMap.empty')} />}
          {list.length > 0 && shown.length === 0 && (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={t('gbMap.noMatch')}
              data-testid="gb-map-no-match"
            />
          )}
          <ul className="bwc-gb-map-rows">
            {shown.map((p) => (
              <li key={p.devgbid}>
                <button
                  type="button"
                  className={`bwc-gb-map-row${p.devgbid === selected ? ' bwc-gb-map-row-selected' : ''}`}
                  onClick={() => locate(p.devgbid)}
                  data-testid="gb-map-row"
                  data-devgbid={p.devgbid}
                >
                  <EnvironmentOutlined className={p.lineon === 1 ? 'bwc-gb-map-on' : 'bwc-gb-map-off'} />
                  <span className="bwc-gb-map-name">{p.name}</span>
                  <span className="bwc-gb-map-id">{p.devgbid}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      }
      layers={<GbDevicesLayer store={store} onDeviceClick={locate} />}
      overlay={current && <GbDeviceCard point={current} onClose={() => setSelected(null)} />}
    >
      <LiveDialogHost />
    </MapScreen>
  );
}

/** The devices whose name or GB id contains `search` (any case); all for an empty search. */
export function matching(points: readonly GbPoint[], search: string): GbPoint[] {
  const q = search.trim().toLowerCase();
  if (!q) return [...points];
  return points.filter((p) => p.name.toLowerCase().includes(q) || p.devgbid.includes(q));
}

/** The clicked device: state, GB id, last position and its time, its channels with live buttons. */
export function GbDeviceCard({ point, onClose }: { point: GbPoint; onClose: () => void }) {
  const { t } = useTranslation('video');
  const on = point.lineon === 1;
  return (
    <Card
      size="small"
      className="bwc-gb-map-card"
      data-testid="gb-map-card"
      title={point.name}
      extra={
        <Button size="small" type="text" onClick={onClose} aria-label={t('gbMap.close')}>
          ×
        </Button>
      }
    >
      <dl className="bwc-gb-map-facts">
        <dt>{t('gbMap.gbid')}</dt>
        <dd>{point.devgbid}</dd>
        <dt>{t('gbMap.state')}</dt>
        <dd>
          <Tag color={on ? 'green' : 'default'} data-testid="gb-map-state">
            {on ? t('gb.tree.online') : t('gb.tree.offline')}
          </Tag>
        </dd>
        <dt>{t('gbMap.positionTime')}</dt>
        <dd data-testid="gb-map-time">{point.position_time ? gbLocalTime(point.position_time) : '-'}</dd>
        <dt>{t('gbMap.position')}</dt>
        <dd>
          {point.lng.toFixed(6)}, {point.lat.toFixed(6)}
        </dd>
      </dl>
      <div className="bwc-gb-map-channels-title">{t('gbMap.channels', { count: point.channels.length })}</div>
      <ul className="bwc-gb-map-channels">
        {point.channels.map((c) => (
          <li key={c.devgbid}>
            <span className="bwc-gb-map-name" title={c.devgbid}>
              {c.name}
            </span>
            <Button
              size="small"
              icon={<PlayCircleOutlined />}
              disabled={c.lineon !== 1}
              title={c.lineon === 1 ? undefined : t('gbMap.channelOffline')}
              onClick={() =>
                openLive(liveDeviceOfGbChannel({ devgbid: c.devgbid, device: point.devgbid, name: c.name }))
              }
              data-testid="gb-map-live"
            >
              {t('gbMap.live')}
            </Button>
          </li>
        ))}
      </ul>
    </Card>
  );
}
