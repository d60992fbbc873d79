import { Api, type GbPoint } from '@bwc/protocol';
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
const answerPoints: GbPoint[] = [
  {
    devgbid: DEV,
    name: '广场摄像机',
    unit_id: 3,
    lineon: 1,
    lng: 114.05,
    lat: 22.54,
    position_time: '2026-11-27 10:00:00',
    channels: [
      { devgbid: CH1, name: 'CH1', lineon: 1 },
      { devgbid: CH2, name: 'CH2', lineon: 0 },
    ],
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
      if (path === Api.gbDevicePoints.path) return answer({ units: [], points: answerPoints });
      return answer(null);
    }),
  );
  return asked;
}
afterEach(() => {
  vi.unstubAllGlobals();
  opened.length = 0;
});

const markers = () =>
  (fake.state.data?.features ?? []).map((f) => ({
    ...f.properties,
    at: (f.geometry as { coordinates: number[] }).coordinates,
  }));

describe('GbMapPage', () => {
  it('shows the GB devices of gb_points as markers and in the list, and moves them with gb_site_data', async () => {
    const asked = serve();
    await renderWidget(<GbMapPage />);
    await waitFor(() =>
      expect(markers()).toEqual([{ devgbid: DEV, state: 'online', label: '广场摄像机', at: [114.05, 22.54] }]),
    );
    expect(fake.state.data).not.toBeNull();
    expect(GB_SOURCE).toBe('bwc-gb-devices');
    const list = screen.getByTestId('gb-map-list');
    expect(list.textContent).toContain('国标设备 1 个（在线 1）');
    expect(within(list).getByTestId('gb-map-row').textContent).toContain(DEV);
    // the list's search: by part of the GB id, then a name that no device has
    fireEvent.change(screen.getByTestId('gb-map-search'), { target: { value: DEV.slice(-4) } });
    expect(within(list).getAllByTestId('gb-map-row')).toHaveLength(1);
    fireEvent.change(screen.getByTestId('gb-map-search'), { target: { value: '没有这台' } });
    expect(within(list).queryAllByTestId('gb-map-row')).toHaveLength(0);
    expect(screen.getByTestId('gb-map-no-match').textContent).toContain('没有符合条件的国标设备');
    // the markers stay
    expect(markers()).toHaveLength(1);
    fireEvent.change(screen.getByTestId('gb-map-search'), { target: { value: '' } });
    expect(within(list).getAllByTestId('gb-map-row')).toHaveLength(1);

    const { channels: _c, ...site } = answerPoints[0]!;
    // a pushed fix moves the marker; the device going offline greys it
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
    expect(list.textContent).toContain('国标设备 1 个（在线 0）');
    // a device it did not have: drawn at once, and gb_points read again for its channels
    const before = asked.filter((p) => p === Api.gbDevicePoints.path).length;
    act(
      () =>
        void pushChannel.dispatch({
          type: 'gb_site_data',
          data: [{ ...site, devgbid: '34020000001320000071', name: 'New', lng: 114.1, lat: 22.6 }],
        }),
    );
    await waitFor(() => expect(markers()).toHaveLength(2));
    await waitFor(() => expect(asked.filter((p) => p === Api.gbDevicePoints.path).length).toBe(before + 1));
  });

  it('a click on a marker shows the device with its channels; live opens an online channel', async () => {
    serve();
    await renderWidget(<GbMapPage />, { language: 'en-US' });
    await waitFor(() => expect(markers()).toHaveLength(1));
    act(() => fake.clicks.get(GB_LAYER)!({ features: [{ properties: { devgbid: DEV } }] }));
    const card = await screen.findByTestId('gb-map-card');
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
