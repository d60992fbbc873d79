import { call } from '../../api/http';
import {
  BorderOutlined,
  DragOutlined,
  EnvironmentOutlined,
  EyeInvisibleOutlined,
  EyeOutlined,
  GatewayOutlined,
  SoundOutlined,
  StopOutlined,
} from '@ant-design/icons';
import { GROUP_TREE_LOAD_DELAY_MS, ImTargetType, MAP_START_ZOOM, MenuId, type DevicePoint } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { App, Badge, Button, Dropdown, Input, Tabs, Tooltip } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { usePermission } from '../../app/session/Permission';
import { useUserContext } from '../../app/session/queries';
import {
  UnitTree,
  isTerminal,
  loadDeviceLevel,
  type LiveOnline,
  type UnitTreeLoader,
} from '../../components/unit-tree';
import { FaceAlarmColumn } from '../alarms/face/FaceAlarmColumn';
import { toDisplay } from '../../map/coords';
import { DevicesLayer } from '../../map/DevicesLayer';
import { DrawControl, type DrawShape } from '../../map/DrawControl';
import { MapScreen, type MapHandle } from '../../map/MapScreen';
import { moveCamera } from '../../map/moveCamera';
import { DevicePointStore } from '../../map/pointStore';
import { hasPosition, nameWithCode } from '../../map/points';
import { devicesInRing } from '../../map/selection';
import { INFO_WINDOW_SIZE } from './constants';
import { DeviceDetailDialog } from './DeviceDetailDialog';
import { DeviceListDialog } from './DeviceListDialog';
import { useAlarmOpen, type LocateHow } from './useAlarmOpen';
import { useDeviceActions } from './deviceActions';
import { GroupTab } from './GroupTab';
import { HostList } from './HostList';
import { ImPanel } from './ImPanel';
import { InfoWindow } from './InfoWindow';
import { LiveDialogHost } from '../video/openLive';
import { consoleIm, consoleSdk } from '../../realtime/sdk/groupLogin';
import { dataAreas, useMapSetup } from '../../map/mapSetup';
import { useLivePoints } from './useLivePoints';
import { SiteFilterLayer } from './siteFilter';
import { usePointRefresh } from './usePointRefresh';
import './dispatch.css';

type Tool = 'pan' | DrawShape;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Device tree: units with online counts and their devices, one level at a time (150 ms a loaded node). */
const loadDeviceTree: UnitTreeLoader = async (parent) => {
  const nodes = await loadDeviceLevel(parent);
  if (parent) await delay(GROUP_TREE_LOAD_DELAY_MS);
  return nodes;
};

const noVersion = () => 0;

/** online/total counts above the tree, following the store on their own (no page render per change) */
function DeviceCounts({ store }: { store: DevicePointStore }) {
  const { t } = useTranslation('dispatch');
  const online = useSyncExternalStore(store.subscribe, store.onlineCount);
  const total = useSyncExternalStore(store.subscribe, () => store.size);
  return (
    <div className="bwc-emergency-counts" data-testid="device-counts">
      {t('tree.counts', { online, total })}
    </div>
  );
}

function CircleIcon() {
  return <span className="bwc-tool-circle" aria-hidden />;
}

/** Emergency dispatch screen (/dispatch/emergency, spec part 2 section 2.2). */
export function EmergencyPage() {
  const { t } = useTranslation('dispatch');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const location = useLocation();
  const context = useUserContext();
  // map config (MapScreen) or user context failing sends the user to Login (the http layer shows the error)
  const setup = useMapSetup();
  useEffect(() => {
    if (context.isError) {
      const redirect = location.pathname + location.search;
      navigate(`/login?redirect=${encodeURIComponent(redirect)}`, { replace: true, state: { from: redirect } });
    }
  }, [context.isError, navigate, location.pathname, location.search]);

  const store = useMemo(() => new DevicePointStore(), []);
  // React follows the roster (devices, names), not every position: the map layer takes those
  const roster = useSyncExternalStore(store.subscribe, store.rosterVersion);
  // the person tree's terminals take their online state from the live store
  const liveOnline = useMemo<LiveOnline>(
    () => ({
      subscribe: store.subscribe,
      online: (id) => {
        const point = store.get(id);
        return point ? point.lineon === 1 : undefined;
      },
    }),
    [store],
  );
  const mapRef = useRef<MapHandle | null>(null);

  const [tool, setTool] = useState<Tool>('pan');
  // voice broadcast: the next shape drawn (any of the three) goes to the broadcast dialog
  const [broadcasting, setBroadcasting] = useState(false);
  const [locating, setLocating] = useState(false);
  const [tracked, setTracked] = useState<ReadonlySet<number>>(new Set());
  const [infoId, setInfoId] = useState<number | null>(null);
  const [detailId, setDetailId] = useState<number | null>(null);
  const [selection, setSelection] = useState<number[]>([]);
  const [dialog, setDialog] = useState<'none' | 'selection' | 'broadcast'>('none');
  const [search, setSearch] = useState('');
  const [unitId, setUnitId] = useState<number | null>(null);
  const [tab, setTab] = useState('person');
  const imUnread = useSyncExternalStore(consoleIm.subscribe, () => consoleIm.getSnapshot().unread);
  const openGroupIm = useCallback(
    (tgid: number, name: string) => {
      setTab('im');
      consoleIm
        .open(tgid, ImTargetType.GROUP, name)
        .catch((error: unknown) =>
          message.error(t('im.loadFailed', { reason: error instanceof Error ? error.message : String(error) })),
        );
    },
    [message, t],
  );
  const openIm = useCallback(
    (point: DevicePoint) => {
      setTab('im');
      consoleIm
        .open(point.id, ImTargetType.USER, nameWithCode(point))
        .catch((error: unknown) =>
          message.error(t('im.loadFailed', { reason: error instanceof Error ? error.message : String(error) })),
        );
    },
    [message, t],
  );

  // every points answer carries the SOS state; live pushes fill the time in between
  const sosSnapshot = useRef<(points: DevicePoint[], full: boolean, asked: number) => void>(() => undefined);
  const { refreshIds, refreshAll } = usePointRefresh(store, {
    locating,
    tracked,
    paused: infoId !== null || tool !== 'pan',
    onPoints: (points, full, asked) => sosSnapshot.current(points, full, asked),
  });
  const alarmsAllowed = usePermission(MenuId.DISPATCH_ALARM);
  sosSnapshot.current = useLivePoints(store, { alarms: alarmsAllowed, refreshIds, refreshAll }).applySnapshot;
  const actions = useDeviceActions((ids) => void refreshIds(ids).catch(() => undefined));

  const all = useMemo(() => (roster >= 0 ? store.all().sort((a, b) => a.id - b.id) : []), [store, roster]);
  const unitDevices = useQuery({
    queryKey: ['dispatch', 'unitDevices', unitId],
    queryFn: ({ signal }) => call('gisUnitDevicePoint', { unit_id: unitId }, { signal }),
    enabled: unitId !== null,
  });
  const hosts = useMemo(() => {
    const ids = unitId !== null && unitDevices.data ? new Set(unitDevices.data.map((d) => d.id)) : null;
    const needle = search.trim().toLowerCase();
    return all.filter(
      (p) =>
        (!ids || ids.has(p.id)) &&
        (!needle || nameWithCode(p).toLowerCase().includes(needle) || p.did.toLowerCase().includes(needle)),
    );
  }, [all, unitId, unitDevices.data, search]);

  const locate = useCallback(
    (id: number, how?: LocateHow) => {
      const point = store.get(id);
      if (!point) return void message.info(t('locate.unknown'));
      if (!hasPosition(point)) return void message.info(t('locate.noFix', { name: nameWithCode(point) }));
      setTracked((set) => new Set(set).add(id));
      // its position may be old (the session channel sends the positions of the view and of the
      // tracked devices only): read it now, the marker follows
      void refreshIds([id]).catch(() => undefined);
      const current = mapRef.current;
      if (current)
        moveCamera(
          current.map,
          {
            center: toDisplay(point.lng as number, point.lat as number, current.crs),
            zoom: Math.max(current.map.getZoom(), MAP_START_ZOOM),
            // the marker below the centre, so that the info window above it fits on the map
            offset: [0, INFO_WINDOW_SIZE.height / 2],
          },
          how?.instant === true,
        );
      setInfoId(id);
    },
    [store, message, t, refreshIds],
  );

  const onShape = useCallback(
    (ring: number[][]) => {
      const crs = mapRef.current?.crs ?? 'WGS84';
      const visible = locating ? store.all().filter((p) => tracked.has(p.id)) : store.all();
      const inside = devicesInRing(ring, crs, visible);
      // one selection per tool click: back to dragging (and to the auto refresh)
      setTool('pan');
      setBroadcasting(false);
      if (inside.length === 0) {
        message.info(t('selection.empty'));
        return;
      }
      setSelection(inside.map((p) => p.id));
      setDialog(broadcasting ? 'broadcast' : 'selection');
    },
    [store, locating, tracked, broadcasting, message, t],
  );

  // the device dialog's states stay live while it is open
  const live = useSyncExternalStore(store.subscribe, dialog !== 'none' ? store.version : noVersion);
  const selected = useMemo(
    () => (live >= 0 ? selection.map((id) => store.get(id)).filter((p): p is DevicePoint => p !== undefined) : []),
    [selection, store, live],
  );
  const infoPoint = useSyncExternalStore(store.subscribe, () => (infoId === null ? undefined : store.get(infoId)));
  const infoSos = useSyncExternalStore(store.subscribe, () => infoId !== null && store.isSos(infoId));
  // the bell's see / live: locate the alarm's device once the devices are loaded
  useAlarmOpen(store, roster > 0 && store.size > 0, locate, setup.data?.config.video);
  const locateRow = useCallback((p: DevicePoint) => locate(p.id), [locate]);
  const closeInfo = useCallback(() => setInfoId(null), []);
  const areas = useMemo(() => (setup.data ? dataAreas(setup.data.config) : []), [setup.data]);
  // positions followed wherever the devices are: tracked, the info window's, the open dialogs'
  const followed = useMemo(
    () =>
      [
        ...new Set([
          ...tracked,
          ...(infoId !== null ? [infoId] : []),
          ...(detailId !== null ? [detailId] : []),
          ...(dialog !== 'none' ? selection : []),
        ]),
      ].sort((a, b) => a - b),
    [tracked, infoId, detailId, dialog, selection],
  );
  const followAll = useCallback(() => void refreshAll().catch(() => undefined), [refreshAll]);
  const config = setup.data?.config;
  const mapOn = config?.mapinfo === 1;

  if (context.isError) return null;

  const toolButton = (key: string, label: string, icon: React.ReactNode, onClick: () => void, active = false) => (
    <Tooltip title={label} placement="bottom" key={key}>
      <Button
        aria-label={label}
        data-testid={`tool-${key}`}
        type={active ? 'primary' : 'default'}
        icon={icon}
        onClick={onClick}
      />
    </Tooltip>
  );

  return (
    <MapScreen
      testId="emergency-page"
      mapTestId="dispatch-map"
      layout="fill"
      loginOnError
      failedTitle={t('map.initFailed')}
      failedTestId="map-init-failed"
      mapRef={mapRef}
      panel={
        <Tabs
          size="small"
          activeKey={tab}
          onChange={setTab}
          items={[
            {
              key: 'person',
              label: t('tab.person'),
              children: (
                <div className="bwc-emergency-person">
                  <Input.Search
                    allowClear
                    placeholder={t('search.placeholder')}
                    enterButton={t('search.button')}
                    onSearch={setSearch}
                    data-testid="host-search"
                  />
                  <div className="bwc-emergency-tree">
                    <UnitTree
                      loader={loadDeviceTree}
                      height={260}
                      header={() => <DeviceCounts store={store} />}
                      live={liveOnline}
                      onSelect={(node) => {
                        if (isTerminal(node)) locate(Number(node.id));
                        else setUnitId(Number(node.id));
                      }}
                    />
                  </div>
                  {unitId !== null && (
                    <Button size="small" type="link" onClick={() => setUnitId(null)}>
                      {t('host.allUnits')}
                    </Button>
                  )}
                  <HostList
                    devices={hosts}
                    loading={unitDevices.isFetching}
                    gb={context.data?.gb === 1}
                    onLocate={locateRow}
                    onMessage={openIm}
                  />
                </div>
              ),
            },
            ...(config?.group_api && Number((config.group_api as { switch?: unknown }).switch) === 1
              ? [
                  {
                    key: 'group',
                    label: t('tab.group'),
                    children: <GroupTab store={store} onLocate={locate} onMessage={openGroupIm} />,
                  },
                ]
              : []),
            {
              key: 'im',
              label: (
                <span data-testid="im-tab" data-unread={imUnread}>
                  <Badge count={imUnread} size="small" offset={[8, -2]}>
                    {t('tab.im')}
                  </Badge>
                </span>
              ),
              children: <ImPanel store={consoleIm} me={consoleSdk.login?.login_uid ?? 0} />,
            },
          ]}
        />
      }
      layers={
        <>
          <DevicesLayer store={store} visibleIds={locating ? tracked : null} onDeviceClick={(p) => setInfoId(p.id)} />
          <SiteFilterLayer locating={locating} ids={followed} onStale={followAll} />
          <DrawControl mode={tool === 'pan' ? null : tool} onFinish={onShape} />
          {infoPoint && (
            <InfoWindow
              point={infoPoint}
              mapOn={mapOn}
              actions={actions}
              onDetail={(p) => setDetailId(p.id)}
              onMessage={openIm}
              onClose={closeInfo}
              sos={infoSos}
            />
          )}
        </>
      }
      overlay={
        <div className="bwc-map-toolbar" role="toolbar" aria-label={t('tools.label')}>
          {toolButton(
            'points',
            locating ? t('tools.showPoints') : t('tools.hidePoints'),
            locating ? <EyeOutlined /> : <EyeInvisibleOutlined />,
            () => setLocating((on) => !on),
            locating,
          )}
          {toolButton(
            'pan',
            t('tools.pan'),
            <DragOutlined />,
            () => {
              setTool('pan');
              setBroadcasting(false);
            },
            tool === 'pan',
          )}
          {toolButton('polygon', t('tools.polygon'), <GatewayOutlined />, () => setTool('polygon'), tool === 'polygon')}
          {toolButton('circle', t('tools.circle'), <CircleIcon />, () => setTool('circle'), tool === 'circle')}
          {toolButton(
            'rectangle',
            t('tools.rectangle'),
            <BorderOutlined />,
            () => setTool('rectangle'),
            tool === 'rectangle',
          )}
          {toolButton(
            'broadcast',
            t('tools.broadcast'),
            <SoundOutlined />,
            () => {
              if (broadcasting) {
                setBroadcasting(false);
                setTool('pan');
                return;
              }
              setBroadcasting(true);
              if (tool === 'pan') setTool('rectangle');
              message.info(t('broadcast.drawShape'));
            },
            broadcasting,
          )}
          <Dropdown
            trigger={['click']}
            disabled={areas.length === 0}
            menu={{
              items: areas.map((area, index) => ({ key: String(index), label: area.name })),
              onClick: ({ key }) => {
                const area = areas[Number(key)];
                const current = mapRef.current;
                if (area && current)
                  current.map.flyTo({ center: toDisplay(area.lng, area.lat, current.crs), zoom: MAP_START_ZOOM });
              },
            }}
          >
            <Tooltip title={areas.length === 0 ? t('tools.noAreas') : t('tools.area')} placement="bottom">
              <Button
                aria-label={t('tools.area')}
                data-testid="tool-area"
                icon={areas.length === 0 ? <StopOutlined /> : <EnvironmentOutlined />}
              />
            </Tooltip>
          </Dropdown>
          {locating && <span className="bwc-map-toolbar-note">{t('tools.locatingNote', { count: tracked.size })}</span>}
        </div>
      }
      aside={<FaceAlarmColumn />}
    >
      <DeviceListDialog
        open={dialog !== 'none'}
        broadcast={dialog === 'broadcast'}
        devices={selected}
        actions={actions}
        onDetail={(p) => setDetailId(p.id)}
        onClose={() => setDialog('none')}
      />
      <DeviceDetailDialog id={detailId} mapOn={mapOn} onClose={() => setDetailId(null)} />
      {/* the floating live players of the info window, the device dialog and the bell's live */}
      <LiveDialogHost />
    </MapScreen>
  );
}
