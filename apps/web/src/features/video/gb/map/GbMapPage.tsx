import { PlayCircleOutlined } from '@ant-design/icons';
import { MAP_START_ZOOM, type GbPoint } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Input, Tag } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type Key } from 'react';
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
import { GbPointStore } from './gbPoints';
import { gbDeviceTree, matching, unitKey, unitKeys, unitPathOf } from './gbTree';
import { GbUnitTree } from './GbUnitTree';
import './gb-map.css';

export const GB_POINTS_KEY = ['gbDevicePoints'] as const;

/**
 * The emergency map in GB mode (spec part 1 section 4: clusters and the tree switch with the GB
 * flag): GB devices with a known position (gb_points), moved and restyled by gb_site_data
 * pushes; on the left the device tree (units, their devices, the devices' channels); a click on
 * a marker or a device row centres the map on it and shows the device with its channels, each of
 * which opens its live video in a floating player.
 */
export function GbMapPage() {
  const { t } = useTranslation('video');
  const store = useMemo(() => new GbPointStore(), []);
  const mapRef = useRef<MapHandle | null>(null);
  const rowsRef = useRef<HTMLDivElement | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  /** the tree's search: part of a name or GB id (the markers stay) */
  const [search, setSearch] = useState('');
  /** what the user opened; null until he opens or closes a row (the top units are open) */
  const [opened, setOpened] = useState<Key[] | null>(null);
  /** what is open while a search is on: every unit holding a match, then as the user opens rows */
  const [openedInSearch, setOpenedInSearch] = useState<Key[]>([]);
  const version = useSyncExternalStore(store.subscribe, store.snapshot);

  const points = useQuery({
    queryKey: GB_POINTS_KEY,
    queryFn: ({ signal }) => call('gbDevicePoints', {}, { signal }),
  });
  const { refetch } = points;
  useEffect(() => {
    if (points.data) store.replace(points.data);
  }, [points.data, store]);
  // a device not held yet (its first fix) or moved to another unit is read again
  usePush('gb_site_data', (message) => {
    if (store.push(message.data)) void refetch();
  });
  usePushReconnect(() => void refetch());

  // rebuilt when the store or the search changes, not when a row is opened or selected
  const { all, units, tree } = useMemo(() => {
    const list = version >= 0 ? store.all() : [];
    return { all: list, units: store.units(), tree: gbDeviceTree(store.units(), list, matching(search)) };
  }, [store, version, search]);
  const searching = search.trim() !== '';
  // clearing the search comes back to what was open before it
  const expanded = searching ? openedInSearch : (opened ?? tree.units.map((u) => u.key));

  const locate = useCallback(
    (devgbid: string) => {
      setSelected(devgbid);
      const p = store.get(devgbid);
      if (!p) return;
      // its unit's path and its channels open in the tree, with or without a search on
      const path = [...unitPathOf(store.units(), p.unit_id), devgbid];
      const withPath = (keys: readonly Key[]) => [...new Set<Key>([...keys, ...path])];
      const tops = () => store.units().flatMap((u) => (u.pid === 0 ? [unitKey(u.id)] : []));
      setOpened((keys) => withPath(keys ?? tops()));
      setOpenedInSearch(withPath);
      const handle = mapRef.current;
      if (!handle) return;
      const zoom = Math.max(handle.map.getZoom(), MAP_START_ZOOM);
      moveCamera(handle.map, { center: toDisplay(p.lng, p.lat, handle.crs), zoom }, false);
    },
    [store],
  );
  // the selected device's row in view (a marker click may select one far down the tree)
  useEffect(() => {
    if (!selected) return;
    const row = rowsRef.current?.querySelector(`[data-devgbid="${selected}"]`);
    // jsdom has no scrollIntoView
    row?.scrollIntoView?.({ block: 'nearest' });
  }, [selected, expanded]);

  const onSearch = (text: string) => {
    setSearch(text);
    // a search opens every unit that holds a match
    if (text.trim()) setOpenedInSearch(unitKeys(gbDeviceTree(units, all, matching(text)).units));
  };

  const online = all.filter((p) => p.lineon === 1).length;
  const current = selected ? store.get(selected) : undefined;
  const shownNone = tree.units.length === 0 && tree.loose.length === 0;

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
          <div className="bwc-gb-map-count">{t('gbMap.count', { total: all.length, online })}</div>
          <Input.Search
            allowClear
            placeholder={t('gbMap.search')}
            aria-label={t('gbMap.search')}
            onChange={(e) => onSearch(e.target.value)}
            className="bwc-gb-map-search"
            data-testid="gb-map-search"
          />
          {all.length === 0 && !points.isPending && <Empty description={t('gbMap.empty')} />}
          {all.length > 0 && shownNone && (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={t('gbMap.noMatch')}
              data-testid="gb-map-no-match"
            />
          )}
          <div className="bwc-gb-map-rows" ref={rowsRef}>
            {!shownNone && (
              <GbUnitTree
                tree={tree}
                expanded={expanded}
                onExpand={searching ? setOpenedInSearch : setOpened}
                selected={selected}
                onDevice={locate}
              />
            )}
          </div>
        </div>
      }
      layers={<GbDevicesLayer store={store} onDeviceClick={locate} />}
      overlay={current && <GbDeviceCard point={current} onClose={() => setSelected(null)} />}
    >
      <LiveDialogHost />
    </MapScreen>
  );
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
