import type { MapConfig } from '@bwc/protocol';
import type { Page } from '@playwright/test';
import { Api } from '../../packages/protocol/src/endpoints';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, login, switchLanguage } from '../support/console';
import { data, gbSipPort, openGb } from '../support/gb';
import { text } from '../support/texts';

/**
 * GB devices on the emergency map (issue 16; spec part 1 section 4): GB mode on through the
 * settings API, a simulated GB28181 device registers and sends MobilePosition NOTIFYs; the
 * emergency page shows it as a marker that moves with the pushed fixes (gb_site_data), a click on
 * it shows its card with its channels, a channel's live video plays, the device going offline
 * greys the marker; screenshots in zh-CN and en-US.
 */
// ids 10 apart across the GB specs: a device's channels take the serials after its own
const DEVICE_ID = '34020000001320000931';
const DEVICE_NAME = 'E2E地图国标设备';

test.describe.configure({ timeout: 300_000 });

interface Marker {
  state: string;
  coordinates: [number, number];
}

/** The GB device's marker as the map's GB source holds it (display coordinates); null none. */
function marker(page: Page): Promise<Marker | null> {
  return page.evaluate(async (id) => {
    type Data = {
      features: { properties: { devgbid: string; state: string }; geometry: { coordinates: [number, number] } }[];
    };
    const map = (
      window as unknown as { __bwcMap?: { getSource(id: string): { getData(): Promise<Data> } | undefined } }
    ).__bwcMap;
    const source = map?.getSource('bwc-gb-devices');
    if (!source) return null;
    const f = (await source.getData()).features.find((x) => x.properties.devgbid === id);
    return f ? { state: f.properties.state, coordinates: f.geometry.coordinates } : null;
  }, DEVICE_ID);
}

/** Where the marker is drawn, in page pixels, once the map stands still. */
function markerPixel(page: Page, at: [number, number]): Promise<{ x: number; y: number }> {
  return page.evaluate(async (lngLat) => {
    type M = {
      isMoving(): boolean;
      once(e: string, f: () => void): void;
      project(p: [number, number]): { x: number; y: number };
      getCanvas(): HTMLCanvasElement;
    };
    const map = (window as unknown as { __bwcMap: M }).__bwcMap;
    if (map.isMoving()) await new Promise<void>((r) => map.once('moveend', r));
    const p = map.project(lngLat);
    const box = map.getCanvas().getBoundingClientRect();
    return { x: box.left + p.x, y: box.top + p.y };
  }, at);
}

test('GB map: a simulated GB device’s positions on the emergency map, its card and live video; zh-CN and en-US', async ({
  page,
}) => {
  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  const gb = await openGb(page, gbSipPort(3));
  try {
    // the device stands near the map's centre
    const center = await data<MapConfig>(await page.request.get(Api.mapConfig.path));
    const device = gb.device({
      deviceId: DEVICE_ID,
      name: DEVICE_NAME,
      channels: 2,
      position: { longitude: center.gpscenter_lon + 0.004, latitude: center.gpscenter_lat + 0.002 },
    });
    expect(await device.start(), 'the simulated device registered').toBe(true);

    // ---- the emergency page in GB mode: the device in the list and on the map
    await page.goto('/dispatch/emergency');
    await expect(page.getByTestId('gb-map-page')).toBeVisible({ timeout: 60_000 });
    const row = page.getByTestId('gb-map-row').filter({ hasText: DEVICE_ID });
    await expect(row).toBeVisible({ timeout: 60_000 });
    await expect.poll(() => marker(page), { timeout: 30_000 }).toMatchObject({ state: 'online' });
    // ---- pushed fixes move it (the simulator walks a circle, one step per NOTIFY)
    const first = (await marker(page))!;
    await expect
      .poll(async () => (await marker(page))?.coordinates.join(','), { timeout: 60_000 })
      .not.toBe(first.coordinates.join(','));

    // ---- a click on the marker: its card with the GB id and the channels
    await row.click();
    const card = page.getByTestId('gb-map-card');
    await expect(card).toBeVisible();
    await page
      .getByTestId('gb-map-card')
      .getByRole('button', { name: text('zh-CN', 'video:gbMap.close') })
      .click();
    await expect(card).toBeHidden();
    const now = (await marker(page))!;
    const at = await markerPixel(page, now.coordinates);
    await page.mouse.click(at.x, at.y);
    await expect(card).toBeVisible();
    await expect(card).toContainText(DEVICE_NAME);
    await expect(card).toContainText(DEVICE_ID);
    await expect(card).toContainText(text('zh-CN', 'video:gbMap.channels', { count: 2 }));
    await expect(card.getByTestId('gb-map-state')).toHaveText(text('zh-CN', 'video:gb.tree.online'));
    await expect(card.getByTestId('gb-map-time')).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    await page.screenshot({ path: artifact('gb-map-zh-CN') });

    // ---- a channel's live video plays in a floating player
    await card.getByTestId('gb-map-live').first().click();
    const view = page.getByTestId('live-dialog').getByTestId('live-view');
    await expect(view).toHaveAttribute('data-state', 'playing', { timeout: 90_000 });

    await switchLanguage(page, 'en-US');
    await expect(card).toContainText(text('en-US', 'video:gbMap.positionTime'));
    await page.screenshot({ path: artifact('gb-map-en-US') });

    // ---- the device goes offline: the marker and the card follow the push
    await device.stop();
    await expect.poll(async () => (await marker(page))?.state, { timeout: 30_000 }).toBe('offline');
    await expect(card.getByTestId('gb-map-state')).toHaveText(text('en-US', 'video:gb.tree.offline'));
  } finally {
    await gb.close();
  }
});
