import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../components/test-utils';
import { DeviceActionsBar } from './DeviceActionsBar';
import { point as devicePoint } from '../../map/test-points';
import type { useDeviceActions } from './deviceActions';

const point = devicePoint(7, { jq_hostcode: '97' });
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
