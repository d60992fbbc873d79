import { MenuId, type FenceShape } from '@bwc/protocol';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { call } from '../../api/http';
import { renderWidget } from '../../components/test-utils';
import { GeoFormDialog, type GeoKind } from './GeoAdminPage';
import { SQUARE } from './testShapes';

vi.mock('../../api/http', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  call: vi.fn(),
}));

/** antd renders asynchronously; the machine running CI may be slow */
const WAIT = { timeout: 15_000 };

/** drawn as a bow tie: its edges cross */
const BOW_TIE: FenceShape = {
  type: 'polygon',
  points: [
    { lng: 114.0, lat: 22.5 },
    { lng: 114.01, lat: 22.51 },
    { lng: 114.01, lat: 22.5 },
    { lng: 114.0, lat: 22.51 },
  ],
  holes: [],
};

const callMock = vi.mocked(call);

beforeEach(() => {
  callMock.mockReset().mockImplementation(async (endpoint: unknown) => {
    if (endpoint === 'unitTree' || endpoint === 'unitTreeDevices') return [];
    return null;
  });
});

const sent = (endpoint: string) => callMock.mock.calls.filter(([e]) => e === endpoint).map(([, body]) => body);

async function addWith(kind: GeoKind, shape: FenceShape) {
  await renderWidget(
    <App>
      <GeoFormDialog kind={kind} shape={shape} target="new" onClose={() => undefined} onSaved={() => undefined} />
    </App>,
    {
      permissions: { [MenuId.ELECTRONIC_FENCE]: { view: 1, add: 1 }, [MenuId.ZONES]: { view: 1, add: 1 } },
      language: 'en-US',
    },
  );
  const dialog = await screen.findByRole('dialog', undefined, WAIT);
  await act(async () => {
    fireEvent.change(within(dialog).getByLabelText('Name'), { target: { value: 'School gate' } });
  });
  await act(async () => {
    fireEvent.click(within(dialog).getByRole('button', { name: /Save/ }));
  });
  return dialog;
}

describe('fence and zone form', { timeout: 60_000 }, () => {
  it('a new fence is sent with the drawn shape and its targets (no test saved this form before)', async () => {
    await addWith('fence', SQUARE);
    await waitFor(() => expect(sent('fenceAdd')).toHaveLength(1), WAIT);
    expect(sent('fenceAdd')[0]).toMatchObject({
      name: 'School gate',
      shape: SQUARE,
      rule: 'both',
      device_ids: [],
      unit_ids: [],
      enabled: 1,
    });
  });

  it('a new zone is sent with the drawn shape', async () => {
    await addWith('zone', SQUARE);
    await waitFor(() => expect(sent('zoneAdd')).toHaveLength(1), WAIT);
    expect(sent('zoneAdd')[0]).toMatchObject({ name: 'School gate', shape: SQUARE });
  });

  it('a drawing whose edges cross is refused under the shape, not silently (the shape had no field)', async () => {
    const dialog = await addWith('fence', BOW_TIE);
    const message = await within(dialog).findByText(
      "The polygon's edges cross each other, please draw it again.",
      undefined,
      WAIT,
    );
    expect(message.closest('.ant-form-item')?.textContent).toContain('Shape');
    expect(document.querySelector('.bwc-form-dialog-error')).toBeNull();
    expect(sent('fenceAdd')).toHaveLength(0);
  });
});
