import { Api, type GbPoint, type GbPointUnit } from '@bwc/protocol';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../../../components/test-utils';
import { pushChannel } from '../../../../realtime/session/pushChannel';
import { GB_LAYER, GB_SOURCE } from './GbDevicesLayer';
import { GbMapPage } from './GbMapPage';

/** MapLibre needs WebGL: a stand-in map keeping the GB source's data and the layers' click handlers. */
const fake = vi.hoisted(() => {
  const clicks = new Map<string, (e: unknown) => void>();
  const state = { data: null as null | { features: { properties: Record<string, unknown>; geometry: unknown }[] } };
  const source = { setData: (d: typeof state.data) => void (state.data = d), getClusterExpansionZoom: async () => 16 };
  const map = {
    style: {},
    addSource: (_id: string, s: { data: typeof state.data }) => void (state.data = s.data),
    addLayer: () => undefined,
    getSource: () => source,
    getLayer: () => true,
    removeLayer: () => undefined,
    removeSource: () => undefined,
    setMissingStyleImageResolver: () => undefined,
    hasImage: () => false,
    on: (type: string, layer: string, fn: (e: unknown) => void) => {
      if (type === 'click') clicks.set(layer, fn);
    },
    off: () => undefined,
    getCanvas: () => ({ style: {} }),
    getZoom: () => 12,
    isMoving: () => false,
    flyTo: vi.fn(),
    easeTo: vi.fn(),
    once: () => undefined,
  };
  return { map, clicks, state };
});
vi.mock('../../../../map/MapView', async () => {
  const { createElement, useEffect } = await import('react');
  return {
    useMap: () => ({ map: fake.map, crs: 'WGS84' }),
    MapView: ({
      testId,
      onReady,
      children,
    }: {
      testId: string;
      onReady?: (m: unknown, c: string) => void;
      children?: ReactNode;
    }) => {
      useEffect(() => onReady?.(fake.map, 'WGS84'), [onReady]);
      return createElement('div', { 'data-testid': testId }, children);
    },
  };
});
const opened = vi.hoisted(() => [] as unknown[]);
vi.mock('../../openLive', () => ({
  openLive: (device: unknown) => void opened.push(device),
  LiveDialogHost: () => null,
}));

const DEV = '34020000001320000061';
const CH1 = '34020000001310000062';
const CH2 = '34020000001310000063';
const DEV2 = '34020000001320000051';
// a branch (the caller's top unit) with a station under it
const BRANCH = 2;
const STATION = 3;
const answerUnits: GbPointUnit[] = [
  { id: BRANCH, pid: 0, name: '罗湖分局' },
  { id: STATION, pid: BRANCH, name: '东门派出所' },
];
const answerPoints: GbPoint[] = [
  {
    devgbid: DEV,
    name: '广场摄像机',
    unit_id: STATION,
    lineon: 1,
    lng: 114.05,
    lat: 22.54,
    position_time: '2026-11-27 10:00:00',
    channels: [
      { devgbid: CH1, name: 'CH1', lineon: 1 },
      { devgbid: CH2, name: 'CH2', lineon: 0 },
    ],
  },
  {
    devgbid: DEV2,
    name: '分局门口',
    unit_id: BRANCH,
    lineon: 0,
    lng: 114.07,
    lat: 22.55,
    position_time: '2026-11-27 09:00:00',
    channels: [],
  },
];

function answer(data: unknown) {
  return new Response(JSON.stringify({ code: 200, msg: '', data }), {
    headers: { 'content-type': 'application/json' },
  });
}
function serve() {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const path = String(url).split('?')[0]!;
      asked.push(path);
      if (path === Api.mapConfig.path) return answer({ gpscenter_lon: 114.05, gpscenter_lat: 22.54, map_crs: 'WGS84' });
      if (path === Api.mapInfo.path) return answer({ mode: 'offline', crs: 'WGS84', style_url: '/s.json', file: null });
      if (path === Api.gbDevicePoints.path) return answer({ units: answerUnits, points: answerPoints });
      return answer(null);
    }),
  );
  return asked;
}
afterEach(() => {
  vi.unstubAllGlobals();
  opened.length = 0;
  // the next page draws its own source and handlers (waiting for markers must not see these)
  fake.state.data = null;
  fake.clicks.clear();
});

const markers = () =>
  (fake.state.data?.features ?? []).map((f) => ({
    ...f.properties,
    at: (f.geometry as { coordinates: number[] }).coordinates,
  }));

/** the tree's rows now shown: units as 'name count', devices by GB id, channels by name */
function treeRows(): string[] {
  const tree = screen.getByTestId('gb-map-list');
  return [
    ...tree.querySelectorAll('[data-testid="gb-map-unit"], [data-testid="gb-map-row"], [data-testid="gb-map-channel"]'),
  ].map((el) => {
    const kind = el.getAttribute('data-testid');
    if (kind === 'gb-map-unit') return el.textContent!;
    if (kind === 'gb-map-row') return el.getAttribute('data-devgbid')!;
    return `  ${el.querySelector('.bwc-gb-map-name')!.textContent!}`;
  });
}

describe('GbMapPage', () => {
  it('shows the GB devices as markers and in the unit tree, filters the tree, and follows gb_site_data', async () => {
    const asked = serve();
    await renderWidget(<GbMapPage />);
    await waitFor(() => expect(markers()).toHaveLength(2));
    expect(markers()[0]).toEqual({ devgbid: DEV, state: 'online', label: '广场摄像机', at: [114.05, 22.54] });
    expect(GB_SOURCE).toBe('bwc-gb-devices');
    const list = screen.getByTestId('gb-map-list');
    expect(list.textContent).toContain('国标设备 2 个（在线 1）');
    // the top unit open: its station (online count of its devices) and its own device
    expect(treeRows()).toEqual(['罗湖分局在线 1', '东门派出所在线 1', DEV2]);
    // the search, by part of the GB id: the station opens on its match, the other device goes
    fireEvent.change(screen.getByTestId('gb-map-search'), { target: { value: DEV.slice(-4) } });
    expect(treeRows()).toEqual(['罗湖分局在线 1', '东门派出所在线 1', DEV]);
    fireEvent.change(screen.getByTestId('gb-map-search'), { target: { value: '没有这台' } });
    expect(treeRows()).toEqual([]);
    expect(screen.getByTestId('gb-map-no-match').textContent).toContain('没有符合条件的国标设备');
    // the markers stay
    expect(markers()).toHaveLength(2);
    // cleared: the tree as it was open before the search
    fireEvent.change(screen.getByTestId('gb-map-search'), { target: { value: '' } });
    expect(treeRows()).toEqual(['罗湖分局在线 1', '东门派出所在线 1', DEV2]);
    fireEvent.click(screen.getByText('东门派出所'));
    expect(screen.queryByTestId('gb-map-no-match')).toBeNull();

    const { channels: _c, ...site } = answerPoints[0]!;
    // a pushed fix moves the marker; the device going offline greys it and the units count it off
    act(() => {
      expect(
        pushChannel.dispatch({
          type: 'gb_site_data',
          data: [{ ...site, lng: 114.06, position_time: '2026-11-27 10:00:05' }],
        }),
      ).toBe(true);
    });
    await waitFor(() => expect(markers()[0]).toMatchObject({ state: 'online', at: [114.06, 22.54] }));
    act(
      () =>
        void pushChannel.dispatch({
          type: 'gb_site_data',
          data: [{ ...site, lineon: 0, lng: 114.06, position_time: '2026-11-27 10:00:06' }],
        }),
    );
    await waitFor(() => expect(markers()[0]).toMatchObject({ state: 'offline' }));
    expect(list.textContent).toContain('国标设备 2 个（在线 0）');
    expect(treeRows()).toEqual(['罗湖分局在线 0', '东门派出所在线 0', DEV, DEV2]);
    expect(within(list).getAllByTestId('gb-map-row')[0]!.getAttribute('data-online')).toBe('0');
    // a device it did not have: drawn at once, and gb_points read again for its channels
    const before = asked.filter((p) => p === Api.gbDevicePoints.path).length;
    act(
      () =>
        void pushChannel.dispatch({
          type: 'gb_site_data',
          data: [{ ...site, devgbid: '34020000001320000071', name: 'New', lng: 114.1, lat: 22.6 }],
        }),
    );
    await waitFor(() => expect(markers()).toHaveLength(3));
    await waitFor(() => expect(asked.filter((p) => p === Api.gbDevicePoints.path).length).toBe(before + 1));
  });

  it('a click on a device row centres the map on it and shows its card; its channels have live', async () => {
    serve();
    await renderWidget(<GbMapPage />, { language: 'en-US' });
    await waitFor(() => expect(treeRows()).toEqual(['罗湖分局1 online', '东门派出所1 online', DEV2]));
    // a unit's row opens it
    fireEvent.click(screen.getByText('东门派出所'));
    expect(treeRows()).toEqual(['罗湖分局1 online', '东门派出所1 online', DEV, DEV2]);
    fireEvent.click(screen.getByText('广场摄像机'));
    const card = await screen.findByTestId('gb-map-card');
    expect(card.textContent).toContain(DEV);
    expect(fake.map.flyTo).toHaveBeenLastCalledWith({ center: [114.05, 22.54], zoom: 15 });
    // the device's row opens on its channels; an offline channel has no live
    expect(treeRows()).toEqual(['罗湖分局1 online', '东门派出所1 online', DEV, '  CH1', '  CH2', DEV2]);
    const [live1, live2] = within(screen.getByTestId('gb-map-list')).getAllByTestId(
      'gb-map-channel-live',
    ) as HTMLButtonElement[];
    expect(live2!.disabled).toBe(true);
    fireEvent.click(live1!);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ name: 'CH1', hostbody: CH1, gb: { device: DEV, channel: CH1 } });
    // the other device: the card follows
    fireEvent.click(screen.getByText('分局门口'));
    await waitFor(() => expect(screen.getByTestId('gb-map-card').textContent).toContain(DEV2));
    expect(fake.map.flyTo).toHaveBeenLastCalledWith({ center: [114.07, 22.55], zoom: 15 });
  });

  it('a click on a marker shows the device with its channels; live opens an online channel', async () => {
    serve();
    await renderWidget(<GbMapPage />, { language: 'en-US' });
    await waitFor(() => expect(markers()).toHaveLength(2));
    act(() => fake.clicks.get(GB_LAYER)!({ features: [{ properties: { devgbid: DEV } }] }));
    const card = await screen.findByTestId('gb-map-card');
    // the tree opens on the device (its station was closed) and marks it selected
    const row = within(screen.getByTestId('gb-map-list'))
      .getAllByTestId('gb-map-row')
      .find((r) => r.getAttribute('data-devgbid') === DEV)!;
    expect(row.closest('.ant-tree-treenode')!.className).toContain('ant-tree-treenode-selected');
    expect(card.textContent).toContain('广场摄像机');
    expect(card.textContent).toContain(DEV);
    // the device's GB time (+08:00) in the browser's local time
    expect(card.textContent).toContain(dayjs(Date.parse('2026-11-27T10:00:00+08:00')).format('YYYY-MM-DD HH:mm:ss'));
    expect(card.textContent).toContain('Channels (2)');
    expect(within(card).getByTestId('gb-map-state').textContent).toBe('Online');
    expect(fake.map.flyTo).toHaveBeenCalledWith({ center: [114.05, 22.54], zoom: 15 });
    const [live1, live2] = within(card).getAllByTestId('gb-map-live') as HTMLButtonElement[];
    expect(live2!.disabled).toBe(true);
    fireEvent.click(live1!);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ name: 'CH1', hostbody: CH1, gb: { device: DEV, channel: CH1 } });
    expect((opened[0] as { id: number }).id).toBeLessThan(0);
  });
});
