import type { DevicePoint } from '@bwc/protocol';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../components/test-utils';
import { DeviceActionsBar } from './DeviceActionsBar';
import type { useDeviceActions } from './deviceActions';

const point: DevicePoint = {
  id: 7,
  did: 'HB7',
  hostbody: 'HB7',
  imei: '',
  hostname: 'Officer 7',
  hostcode: '',
  jq_hostcode: '97',
  unit_id: 1,
  lineon: 1,
  remote_kill: 0,
  typecate: [1, 1, 1, 1],
  lat: 22.5,
  lng: 114,
  speed: null,
  course: null,
  battery: null,
  gps_time: null,
  sos: 0,
};
const actions = { restart: vi.fn(), remote: vi.fn() } as unknown as ReturnType<typeof useDeviceActions>;

describe('device actions of the info window', () => {
  it('offers a message button that opens the device conversation', async () => {
    const onMessage = vi.fn();
    await renderWidget(<DeviceActionsBar point={point} actions={actions} onDetail={vi.fn()} onMessage={onMessage} />);
    const button = screen.getByTestId('info-message');
    expect(button.textContent).toBe('消息');
    fireEvent.click(button);
    expect(onMessage).toHaveBeenCalledWith(point);
  });

  it('reads Message in English and is absent where no conversation can be opened', async () => {
    const { unmount } = await renderWidget(
      <DeviceActionsBar point={point} actions={actions} onDetail={vi.fn()} onMessage={vi.fn()} />,
      { language: 'en-US' },
    );
    expect(screen.getByTestId('info-message').textContent).toBe('Message');
    unmount();
    await renderWidget(<DeviceActionsBar point={point} actions={actions} onDetail={vi.fn()} />);
    expect(screen.queryByTestId('info-message')).toBeNull();
  });
});
