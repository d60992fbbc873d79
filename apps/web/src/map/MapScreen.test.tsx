import { Api, MenuId } from '@bwc/protocol';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createRef, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../components/test-utils';
import { MapScreen, type MapHandle } from './MapScreen';
import type { MapViewProps } from './MapView';

const FAKE_MAP = { fake: 'map' };
// MapLibre needs WebGL: the stand-in shows what it was given and reports ready at once
vi.mock('./MapView', async () => {
  const { useEffect } = await import('react');
  return {
    MapView: ({ testId, styleUrl, center, zoom, crs, onReady, children }: MapViewProps & { children?: ReactNode }) => {
      useEffect(() => onReady?.(FAKE_MAP as never, crs ?? 'WGS84'), [onReady, crs]);
      return (
        <div data-testid={testId} data-style={styleUrl} data-center={center.join(',')} data-zoom={zoom}>
          {children}
        </div>
      );
    },
  };
});

function answer(data: unknown, code = 200) {
  return new Response(JSON.stringify({ code, msg: code === 200 ? '' : 'map config unreadable', data }), {
    headers: { 'content-type': 'application/json' },
  });
}
function serve(config: 'ok' | 'fails', mode: 'builtin' | 'offline' | 'online' = 'offline') {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const path = String(url).split('?')[0];
      if (path === Api.mapConfig.path)
        return config === 'ok'
          ? answer({ gpscenter_lon: 114.05, gpscenter_lat: 22.54, map_crs: 'WGS84' })
          : answer(null, 500);
      if (path === Api.mapInfo.path) return answer({ mode, crs: 'GCJ02', style_url: '/styles/city.json', file: null });
      return answer(null);
    }),
  );
}
afterEach(() => vi.unstubAllGlobals());

function Path() {
  return <output data-testid="path">{useLocation().pathname}</output>;
}

const screenOf = (props: Partial<Parameters<typeof MapScreen>[0]> = {}) => (
  <MapScreen
    testId="the-screen"
    mapTestId="the-map"
    layout="area"
    failedTitle="The map cannot start"
    panel={<div>the panel</div>}
    layers={<div>a layer</div>}
    overlay={<div>the tools</div>}
    aside={<div>the column</div>}
    {...props}
  >
    <div>a dialog</div>
  </MapScreen>
);

describe('MapScreen', () => {
  it('composes panel, map with its layers, tools, column and dialogs around the shared map setup', async () => {
    serve('ok');
    const mapRef = createRef<MapHandle | null>() as { current: MapHandle | null };
    await renderWidget(screenOf({ mapRef }));
    const map = await screen.findByTestId('the-map');
    expect(map.dataset.style).toBe('/styles/city.json');
    expect(map.dataset.center).toBe('114.05,22.54');
    expect(map.textContent).toBe('a layer');
    const root = screen.getByTestId('the-screen');
    expect(root.className).toContain('bwc-map-screen-area');
    for (const text of ['the panel', 'the tools', 'the column', 'a dialog']) expect(root.textContent).toContain(text);
    await waitFor(() => expect(mapRef.current).toEqual({ map: FAKE_MAP, crs: 'GCJ02' }));
    // no test handle outside the e2e build
    expect((window as { __bwcMap?: unknown }).__bwcMap).toBeUndefined();
    // a street-level source is configured: no notice
    expect(screen.queryByTestId('basemap-notice')).toBeNull();
  });

  it('on the built-in basemap says there are no streets, with the way to the map settings for those allowed', async () => {
    serve('ok', 'builtin');
    // an administrator of the dispatch configuration: a link to System -> electronic map
    await renderWidget(
      <>
        {screenOf()}
        <Path />
      </>,
      { language: 'en-US', permissions: { [MenuId.DISPATCH_CONFIG]: { view: 1, edit: 1 } } },
    );
    const notice = await screen.findByTestId('basemap-notice');
    expect(notice.textContent).toContain('Built-in map: places and boundaries only, no streets.');
    const link = screen.getByTestId('basemap-notice-link');
    expect(link.textContent).toBe('Upload an offline map file (PMTiles/MBTiles) or set an online map source');
    fireEvent.click(link);
    await waitFor(() => expect(screen.getByTestId('path').textContent).toBe('/system/player/digitailmap'));
  });

  it('a dispatcher without the map settings gets the notice without the link, in Chinese', async () => {
    serve('ok', 'builtin');
    await renderWidget(screenOf(), { permissions: { [MenuId.DISPATCH_CONFIG]: { view: 1 } } });
    const notice = await screen.findByTestId('basemap-notice');
    expect(notice.textContent).toContain('当前为内置底图：只有地名和行政区划，没有街道。');
    expect(notice.textContent).toContain('管理员可在 系统设置 > 调度配置 > 电子地图 中添加街道地图。');
    expect(screen.queryByTestId('basemap-notice-link')).toBeNull();
  });

  it('says the map failed when its config cannot be read, or leaves for Login where the spec wants it', async () => {
    serve('fails');
    await renderWidget(screenOf());
    expect(await screen.findByText('The map cannot start')).toBeTruthy();
    expect(screen.queryByText('the panel')).toBeNull();

    await renderWidget(
      <>
        {screenOf({ loginOnError: true, testId: 'track' })}
        <Path />
      </>,
      { url: '/monitor/track' },
    );
    await waitFor(() => expect(screen.getByTestId('path').textContent).toBe('/login'));
    expect(screen.queryByTestId('track')).toBeNull();
  });
});
