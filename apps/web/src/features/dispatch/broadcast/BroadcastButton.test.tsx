import { Api, MenuId, type DevicePoint, type UserAuth } from '@bwc/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../../components/test-utils';
import { point } from '../../../map/test-points';
import { onOpenTalk, type OpenTalkRequest } from '../../talk/openTalk';
import { DeviceListDialog } from '../DeviceListDialog';
import { useDeviceActions } from '../deviceActions';

function Harness({ devices, onClose }: { devices: DevicePoint[]; onClose: () => void }) {
  const actions = useDeviceActions(() => undefined);
  return (
    <DeviceListDialog open broadcast devices={devices} actions={actions} onDetail={() => undefined} onClose={onClose} />
  );
}

let fetchMock: ReturnType<typeof vi.fn>;
let opened: OpenTalkRequest[];
let offTalk: () => void;
const pathOf = (url: unknown) => String(url).split('?')[0];
const answer = (data: unknown) =>
  new Response(JSON.stringify({ code: 200, msg: '', data }), { headers: { 'content-type': 'application/json' } });
const made = () =>
  fetchMock.mock.calls
    .filter(([url]) => pathOf(url) === Api.groupFromDevices.path)
    .map(([, init]) => JSON.parse(String((init as RequestInit).body)) as Record<string, unknown>);

beforeEach(() => {
  fetchMock = vi.fn(async (url: string) =>
    pathOf(url) === Api.groupFromDevices.path
      ? answer({ groupid: 42, tg_name: 'Temp202611241000003', expires: null, included: [], missing: [] })
      : answer(null),
  );
  vi.stubGlobal('fetch', fetchMock);
  opened = [];
  offTalk = onOpenTalk((request) => opened.push(request));
});
afterEach(() => {
  offTalk();
  vi.unstubAllGlobals();
});

const render = (devices: DevicePoint[], auth: UserAuth = { view: 1, add: 1 }) => {
  const onClose = vi.fn();
  return renderWidget(
    <App>
      <Harness devices={devices} onClose={onClose} />
    </App>,
    { language: 'en-US', permissions: { [MenuId.EMERGENCY]: auth } },
  ).then(() => onClose);
};

describe('voice broadcast from a drawn shape', () => {
  it('asks before leaving out devices without a cluster number, makes the group and opens its talk asking for the floor', async () => {
    const onClose = await render([point(1, { jq_hostcode: '8001' }), point(2, { hostname: 'Carol' })]);
    expect(screen.getByText(/makes a temporary group of the devices with a cluster number/)).toBeTruthy();
    fireEvent.click(screen.getByTestId('broadcast-start'));
    const confirm = await screen.findByText('Some devices have no cluster number', {
      selector: '.ant-modal-confirm-title',
    });
    expect(made()).toEqual([]);
    const dialog = confirm.closest('.ant-modal-confirm') as HTMLElement;
    expect(dialog.textContent).toContain('Carol(C2)');
    fireEvent.click(within(dialog).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(opened).toEqual([{ tgid: 42, start: true }]));
    expect(made()).toEqual([{ ids: [1, 2], confirm: 1 }]);
    expect(onClose).toHaveBeenCalled();
  });

  it('makes nothing and opens no talk when no device has a cluster number', async () => {
    const onClose = await render([point(3, { hostname: 'Dave' })]);
    fireEvent.click(screen.getByTestId('broadcast-start'));
    const warning = await screen.findByText(/^None of the selected devices has a cluster number/);
    expect(warning.textContent).toContain('Dave');
    expect(made()).toEqual([]);
    expect(opened).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('is not offered without the right to make groups', async () => {
    await render([point(1, { jq_hostcode: '8001' })], { view: 1 });
    expect(screen.queryByTestId('broadcast-start')).toBeNull();
  });
});
