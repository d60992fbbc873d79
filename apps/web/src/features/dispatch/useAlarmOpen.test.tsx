import type { Alarm } from '@bwc/protocol';
import { act, render, screen } from '@testing-library/react';
import { App } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { MemoryRouter, useLocation } from 'react-router';
import { i18next } from '../../i18n';
import { DevicePointStore } from '../../map/pointStore';
import { point } from '../../map/test-points';
import { emitBellEvent } from '../alarms/bell/bellEvents';
import { useAlarmOpen, type LocateHow } from './useAlarmOpen';

function alarm(deviceId: number | null): Alarm {
  return { id: 9, device_id: deviceId, hostname: '张三', hostNameCode: '张三(1001)' } as Alarm;
}

function Probe({
  store,
  ready,
  locate,
}: {
  store: DevicePointStore;
  ready: boolean;
  locate: (id: number, how?: LocateHow) => void;
}) {
  useAlarmOpen(store, ready, locate);
  const location = useLocation();
  return <output data-testid="state">{JSON.stringify(location.state)}</output>;
}

function setup(state: unknown, ready = true) {
  const store = new DevicePointStore((flush) => flush());
  store.push([point(7)], true);
  const locate = vi.fn();
  const ui = (isReady: boolean) => (
    <App>
      <MemoryRouter initialEntries={[{ pathname: '/dispatch/emergency', state }]}>
        <Probe store={store} ready={isReady} locate={locate} />
      </MemoryRouter>
    </App>
  );
  const view = render(ui(ready));
  return { store, locate, rerender: (isReady: boolean) => view.rerender(ui(isReady)) };
}

describe("useAlarmOpen (the bell's see / live on the Emergency page)", () => {
  it('locates the device of an alarm passed as router state once the devices are loaded, then drops the state', async () => {
    await i18next.changeLanguage('en-US');
    const { locate, rerender } = setup({ info: alarm(7), isLive: true }, false);
    expect(locate).not.toHaveBeenCalled();
    // dropped from the history entry at once: a slow device load never navigates later (after the
    // user may have gone elsewhere)
    expect(screen.getByTestId('state').textContent).toBe('null');
    rerender(true);
    expect(locate).toHaveBeenCalledWith(7, undefined);
    expect(await screen.findByText(/Live video is not available in this console yet; 张三\(1001\)/)).toBeTruthy();
    expect(screen.getByTestId('state').textContent).toBe('null');
  });

  it("locates on the bell's open event and names a device this page does not have", async () => {
    await i18next.changeLanguage('zh-CN');
    const { locate } = setup(null);
    act(() => emitBellEvent('open', { info: alarm(7), isLive: false }));
    expect(locate).toHaveBeenCalledTimes(1);
    act(() => emitBellEvent('open', { info: alarm(8), isLive: false }));
    expect(locate).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('张三(1001) 不在本页设备中，无法定位')).toBeTruthy();
  });

  it("moves the map in one frame for an alarm that opened itself, with a flight for the user's own open", () => {
    const { locate } = setup(null);
    act(() => emitBellEvent('open', { info: alarm(7), isLive: true, automatic: true }));
    expect(locate).toHaveBeenLastCalledWith(7, { instant: true });
    act(() => emitBellEvent('open', { info: alarm(7), isLive: true }));
    expect(locate).toHaveBeenLastCalledWith(7, undefined);
  });

  it('ignores router state that is not an alarm', () => {
    const { locate } = setup({ from: '/x' });
    expect(locate).not.toHaveBeenCalled();
  });
});
