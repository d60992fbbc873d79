import type { Alarm } from '@bwc/protocol';
import { act, render, screen } from '@testing-library/react';
import { App } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { MemoryRouter, useLocation } from 'react-router';
import { i18next } from '../../i18n';
import { DevicePointStore } from '../../map/pointStore';
import { point } from '../../map/test-points';
import { emitBellEvent, onBellEvent } from '../alarms/bell/bellEvents';
import { useAlarmOpen, type LocateHow } from './useAlarmOpen';

const lives = vi.hoisted(() => ({ opened: [] as { id: number }[], sos: 0 }));
vi.mock('../video/openLive', () => ({
  openLive: (device: { id: number }) => {
    lives.opened.push(device);
    return true;
  },
  openSosLives: () => lives.sos,
}));
const VIDEO = { getvideo_switch: 1, getvideo_time: 60, getvideo_num: 2, getvideo_path: 'v', getpic_path: 'p' };

function alarm(deviceId: number | null, type = '1'): Alarm {
  return { id: 9, device_id: deviceId, hostname: '张三', hostNameCode: '张三(1001)', type } as Alarm;
}

function Probe({
  store,
  ready,
  locate,
  video,
}: {
  store: DevicePointStore;
  ready: boolean;
  locate: (id: number, how?: LocateHow) => void;
  video?: typeof VIDEO;
}) {
  useAlarmOpen(store, ready, locate, video);
  const location = useLocation();
  return <output data-testid="state">{JSON.stringify(location.state)}</output>;
}

function setup(state: unknown, ready = true, video: typeof VIDEO = VIDEO) {
  const store = new DevicePointStore((flush) => flush());
  store.push([point(7)], true);
  const locate = vi.fn();
  const ui = (isReady: boolean) => (
    <App>
      <MemoryRouter initialEntries={[{ pathname: '/dispatch/emergency', state }]}>
        <Probe store={store} ready={isReady} locate={locate} video={video} />
      </MemoryRouter>
    </App>
  );
  const view = render(ui(ready));
  return { store, locate, rerender: (isReady: boolean) => view.rerender(ui(isReady)) };
}

describe("useAlarmOpen (the bell's see / live on the Emergency page)", () => {
  it('locates the device of an alarm passed as router state once the devices are loaded, opens its live view and silences the bell', async () => {
    await i18next.changeLanguage('en-US');
    lives.opened = [];
    let silenced = 0;
    const off = onBellEvent('liveOpened', () => (silenced += 1));
    const { locate, rerender } = setup({ info: alarm(7), isLive: true }, false);
    expect(locate).not.toHaveBeenCalled();
    // dropped from the history entry at once: a slow device load never navigates later (after the
    // user may have gone elsewhere)
    expect(screen.getByTestId('state').textContent).toBe('null');
    rerender(true);
    expect(locate).toHaveBeenCalledWith(7, undefined);
    expect(lives.opened).toEqual([expect.objectContaining({ id: 7, sos: { alarmId: 9, isSos: true } })]);
    expect(silenced).toBe(1);
    expect(screen.getByTestId('state').textContent).toBe('null');
    off();
  });

  it('an SOS opens its live view SOS_LIVE_DELAY_MS after it came, only with getvideo_switch on and within getvideo_num', async () => {
    vi.useFakeTimers();
    try {
      await i18next.changeLanguage('en-US');
      lives.opened = [];
      lives.sos = 0;
      setup(null);
      act(() => emitBellEvent('open', { info: alarm(7), isLive: true, automatic: true }));
      act(() => vi.advanceTimersByTime(2_900));
      expect(lives.opened).toEqual([]);
      act(() => vi.advanceTimersByTime(200));
      expect(lives.opened.map((d) => d.id)).toEqual([7]);

      lives.sos = 2;
      act(() => emitBellEvent('open', { info: alarm(7), isLive: true, automatic: true }));
      act(() => vi.advanceTimersByTime(3_100));
      expect(lives.opened).toHaveLength(1);
      expect(document.body.textContent).toContain('2 alarm videos are open already');
    } finally {
      vi.useRealTimers();
    }
  });

  it('another critical alarm (a fence, a device offline) is located but not filmed by itself', () => {
    vi.useFakeTimers();
    try {
      lives.opened = [];
      lives.sos = 0;
      const { locate } = setup(null);
      act(() => emitBellEvent('open', { info: alarm(7, '5'), isLive: true, automatic: true }));
      act(() => vi.advanceTimersByTime(5_000));
      expect(locate).toHaveBeenLastCalledWith(7, { instant: true });
      expect(lives.opened).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('with getvideo_switch off an SOS does not open video by itself; the user still can', () => {
    vi.useFakeTimers();
    try {
      lives.opened = [];
      lives.sos = 0;
      setup(null, true, { ...VIDEO, getvideo_switch: 0 });
      act(() => emitBellEvent('open', { info: alarm(7), isLive: true, automatic: true }));
      act(() => vi.advanceTimersByTime(5_000));
      expect(lives.opened).toEqual([]);
      act(() => emitBellEvent('open', { info: alarm(7), isLive: true }));
      expect(lives.opened.map((d) => d.id)).toEqual([7]);
    } finally {
      vi.useRealTimers();
    }
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
