import { Api } from '@bwc/protocol';
import { screen, waitFor } from '@testing-library/react';
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
function serve(config: 'ok' | 'fails') {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const path = String(url).split('?')[0];
      if (path === Api.mapConfig.path)
        return config === 'ok'
          ? answer({ gpscenter_lon: 114.05, gpscenter_lat: 22.54, map_crs: 'WGS84' })
          : answer(null, 500);
      if (path === Api.mapInfo.path) return answer({ crs: 'GCJ02', style_url: '/styles/city.json' });
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
