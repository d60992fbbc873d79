import type { GbDevice, GbPointsAnswer, Page as ListPage, MapConfig, TreeNode } from '@bwc/protocol';
import type { Page } from '@playwright/test';
import { Api } from '../../packages/protocol/src/endpoints';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, login, switchLanguage } from '../support/console';
import { data, gbSipPort, openGb } from '../support/gb';
import { text } from '../support/texts';

/**
 * GB devices on the emergency map (issue 16; spec part 1 section 4): GB mode on through the
 * settings API, a simulated GB28181 device registers and sends MobilePosition NOTIFYs; the
 * emergency page shows it as a marker that moves with the pushed fixes (gb_site_data) and in the
 * unit tree (moved by an administrator to a police station, it follows there with the next push),
 * the tree's search finds it, a click on it (marker or row) shows its card and its channels, a
 * channel's live video plays, the device going offline greys the marker and counts off its units;
 * screenshots in zh-CN and en-US.
 */
// ids 10 apart across the GB specs: a device's channels take the serials after its own
const DEVICE_ID = '34020000001320000931';
const DEVICE_NAME = 'E2E地图国标设备';
// the demo unit tree: the city bureau, a branch, one of its stations
const BRANCH = '罗湖分局';
const STATION = '东门派出所';

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

/** The map's centre once it stands still (display coordinates, as the markers'). */
function mapCenter(page: Page): Promise<[number, number]> {
  return page.evaluate(async () => {
    type M = { isMoving(): boolean; once(e: string, f: () => void): void; getCenter(): { lng: number; lat: number } };
    const map = (window as unknown as { __bwcMap: M }).__bwcMap;
    if (map.isMoving()) await new Promise<void>((r) => map.once('moveend', r));
    const c = map.getCenter();
    return [c.lng, c.lat];
  });
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

    // ---- the emergency page in GB mode: the device in the tree, under its unit, and on the map
    await page.goto('/dispatch/emergency');
    await expect(page.getByTestId('gb-map-page')).toBeVisible({ timeout: 60_000 });
    const row = page.getByTestId('gb-map-row').filter({ hasText: DEVICE_ID });
    await expect(row).toBeVisible({ timeout: 60_000 });
    // the unit it registered in (the root unit), as gb_points names it
    const { units, points } = await data<GbPointsAnswer>(
      await page.request.post(Api.gbDevicePoints.path, { data: {} }),
    );
    const home = units.find((u) => u.id === points.find((p) => p.devgbid === DEVICE_ID)!.unit_id)!;
    const unitRow = (name: string) => page.getByTestId('gb-map-unit').filter({ hasText: name });
    await expect(unitRow(home.name)).toContainText(text('zh-CN', 'components:unitTree.onlineCount', { count: 1 }));
    await expect.poll(() => marker(page), { timeout: 30_000 }).toMatchObject({ state: 'online' });
    // ---- pushed fixes move it (the simulator walks a circle, one step per NOTIFY)
    const first = (await marker(page))!;
    await expect
      .poll(async () => (await marker(page))?.coordinates.join(','), { timeout: 60_000 })
      .not.toBe(first.coordinates.join(','));

    // ---- an administrator moves it to a police station: its next fix brings it there in the tree
    const [station] = await data<TreeNode[]>(await page.request.post(Api.unitSearch.path, { data: { text: STATION } }));
    const listed = await data<ListPage<GbDevice>>(
      await page.request.get(Api.gbDeviceList.path, { params: { key: DEVICE_ID } }),
    );
    await data(
      await page.request.post(Api.gbDeviceUpdate.path, {
        data: { id: listed.list.find((d) => d.devgbid === DEVICE_ID)!.id, unit_id: Number(station!.id) },
      }),
    );
    // the branch (closed) counts it; its row has left the top unit
    await expect(unitRow(BRANCH)).toContainText(text('zh-CN', 'components:unitTree.onlineCount', { count: 1 }), {
      timeout: 60_000,
    });
    await expect(row).toBeHidden();

    // ---- the search by part of the GB id opens the units down to it; a name no device has: none
    const search = page.getByTestId('gb-map-search');
    await search.fill(DEVICE_ID.slice(-6));
    await expect(row).toBeVisible();
    await expect(unitRow(STATION)).toBeVisible();
    await search.fill('没有这台设备');
    await expect(page.getByTestId('gb-map-no-match')).toContainText(text('zh-CN', 'video:gbMap.noMatch'));
    await expect(page.getByTestId('gb-map-row')).toHaveCount(0);
    await search.fill('');
    await expect(row).toBeHidden();

    // ---- a click on the marker: its card, and the tree opens down to its row
    const card = page.getByTestId('gb-map-card');
    const now = (await marker(page))!;
    const at = await markerPixel(page, now.coordinates);
    await page.mouse.click(at.x, at.y);
    await expect(card).toBeVisible();
    await expect(card).toContainText(DEVICE_NAME);
    await expect(card).toContainText(DEVICE_ID);
    await expect(card).toContainText(text('zh-CN', 'video:gbMap.channels', { count: 2 }));
    await expect(card.getByTestId('gb-map-state')).toHaveText(text('zh-CN', 'video:gb.tree.online'));
    await expect(card.getByTestId('gb-map-time')).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    await expect(row).toBeVisible();
    await card.getByRole('button', { name: text('zh-CN', 'video:gbMap.close') }).click();
    await expect(card).toBeHidden();

    // ---- a click on its row after the map moved away: centred on it again, its card and channels
    const before = (await marker(page))!.coordinates;
    await page.evaluate(([lng, lat]) => {
      const map = (window as unknown as { __bwcMap: { jumpTo(o: { center: [number, number] }): void } }).__bwcMap;
      map.jumpTo({ center: [lng + 0.05, lat + 0.03] });
    }, before);
    expect(Math.abs((await mapCenter(page))[0] - before[0]), 'the map moved away').toBeGreaterThan(0.02);
    await row.click();
    await expect(card).toBeVisible();
    // the flight ends on the device (which may have walked a step meanwhile: within ~0.002°)
    await expect
      .poll(
        async () => {
          const [centre, held] = [await mapCenter(page), (await marker(page))!.coordinates];
          return Math.max(Math.abs(centre[0] - held[0]), Math.abs(centre[1] - held[1]));
        },
        { message: 'the map is centred on the device' },
      )
      .toBeLessThan(0.01);
    const channels = page.getByTestId('gb-map-channel');
    await expect(channels).toHaveCount(2);
    await page.screenshot({ path: artifact('gb-map-zh-CN') });

    // ---- a channel's live video plays in a floating player (its button in the tree)
    await channels.first().getByTestId('gb-map-channel-live').click();
    const view = page.getByTestId('live-dialog').getByTestId('live-view');
    await expect(view).toHaveAttribute('data-state', 'playing', { timeout: 90_000 });
    // closed again: the tree and the card are what the next screenshot shows
    await page.locator('.bwc-live-dialog .ant-modal-close').click();
    await expect(page.getByTestId('live-dialog')).toBeHidden();

    await switchLanguage(page, 'en-US');
    await expect(card).toContainText(text('en-US', 'video:gbMap.positionTime'));
    await expect(unitRow(STATION)).toContainText(text('en-US', 'components:unitTree.onlineCount', { count: 1 }));
    await page.screenshot({ path: artifact('gb-map-en-US') });

    // ---- the device goes offline: the marker, the card and its units' counts follow the push
    await device.stop();
    await expect.poll(async () => (await marker(page))?.state, { timeout: 30_000 }).toBe('offline');
    await expect(card.getByTestId('gb-map-state')).toHaveText(text('en-US', 'video:gb.tree.offline'));
    for (const name of [BRANCH, STATION])
      await expect(unitRow(name)).toContainText(text('en-US', 'components:unitTree.onlineCount', { count: 0 }));
    await expect(row).toHaveAttribute('data-online', '0');
  } finally {
    await gb.close();
  }
});
