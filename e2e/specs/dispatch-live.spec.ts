import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { DEVICE_PROVISION_KEY } from '../playwright.config';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, login } from '../support/console';
import { text } from '../support/texts';
import { apiPost, imei } from '../support/devices';
import { mapFeatures, type MapFeature } from '../support/map';

/**
 * Live pushes on the dispatch map: a device moved through the device API appears at its new
 * position within a few seconds (site_data push; the 20 s refresh alone would take up to 20 s),
 * and an SOS through the device API turns its marker into the SOS icon (alarm_data push), which a
 * reloaded page shows too (the SOS state of the point snapshot).
 */
const SHOTS = '/tmp/shots-map';
/** well under the map's 20 s refresh */
const LIVE_MS = 5_000;
const HOSTBODY = 'E2ELIVE00001';

test.describe.configure({ timeout: 180_000 });

const deviceApi = apiPost;

/** One device marker as the map's GeoJSON source holds it. */
async function feature(page: Page, id: number): Promise<MapFeature | null> {
  return (await mapFeatures(page, [id]))[0] ?? null;
}

test('a moved device appears at its new place within seconds; an SOS shows the SOS icon', async ({
  page,
}, testInfo) => {
  const base = String(testInfo.project.use.baseURL);
  // ---- one device of our own through the device API
  const provisioned = await deviceApi<{
    devices: { id: number; hostbody: string; secret: string }[];
    config: { gpscenter_lat: number; gpscenter_lon: number };
  }>(
    base,
    '/rest/device/api/provision',
    { devices: [{ hostbody: HOSTBODY, imei: imei('86990000000702'), hostname: '实时测试', hostcode: '990702' }] },
    DEVICE_PROVISION_KEY,
  );
  const { gpscenter_lat: lat0, gpscenter_lon: lng0 } = provisioned.config;
  const device = await deviceApi<{ token: string; id: number }>(base, '/rest/device/api/login', {
    device: HOSTBODY,
    secret: provisioned.devices[0]!.secret,
  });
  let clock = Date.now();
  const sendAt = async (lat: number, lng: number) => {
    clock = Math.max(clock + 1_000, Date.now());
    const answer = await deviceApi<{ accepted: number }>(
      base,
      '/rest/device/api/positions',
      { positions: [{ time: clock, lat, lng, speed: 5, course: 90, battery: 77 }] },
      device.token,
    );
    expect(answer.accepted).toBe(1);
  };
  await sendAt(lat0, lng0);

  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  await page.goto('/dispatch/emergency');
  await expect(page.getByTestId('emergency-page')).toBeVisible();
  await expect.poll(() => feature(page, device.id), { timeout: 30_000 }).not.toBeNull();
  const start = (await feature(page, device.id))!;

  // ---- three moves, each must show within LIVE_MS (one refresh turn every 20 s could explain one at most by luck)
  const moves: [number, number][] = [
    [0.004, 0.006],
    [-0.005, 0.002],
    [0.003, -0.007],
  ];
  const seen: number[] = [];
  for (const [dLat, dLng] of moves) {
    const sent = Date.now();
    await sendAt(lat0 + dLat, lng0 + dLng);
    // compare the displacement (a GCJ-02 base map shifts every point by about the same offset)
    await expect
      .poll(
        async () => {
          const f = await feature(page, device.id);
          if (!f) return false;
          return (
            Math.abs(f.coordinates[1] - start.coordinates[1] - dLat) < 1e-4 &&
            Math.abs(f.coordinates[0] - start.coordinates[0] - dLng) < 1e-4
          );
        },
        { timeout: LIVE_MS, intervals: [100] },
      )
      .toBe(true);
    seen.push(Date.now() - sent);
  }
  testInfo.annotations.push({ type: 'live move latency (ms)', description: seen.join(', ') });
  expect((await feature(page, device.id))!.state).toBe('online');

  // ---- SOS: the marker turns into the SOS icon, live
  const sosSent = Date.now();
  await deviceApi(
    base,
    '/rest/device/api/sos',
    { time: Date.now(), lat: lat0 + 0.003, lng: lng0 - 0.007 },
    device.token,
  );
  await expect
    .poll(async () => (await feature(page, device.id))?.state, { timeout: LIVE_MS, intervals: [100] })
    .toBe('sos');
  testInfo.annotations.push({ type: 'SOS on the map after (ms)', description: String(Date.now() - sosSent) });

  // ---- look at it: locate the device from the host list (zooms onto it, opens the info window)
  const search = page.getByPlaceholder(text('zh-CN', 'dispatch:search.placeholder'));
  await search.fill(HOSTBODY);
  await search.press('Enter');
  await page.getByTestId('host-list').getByText('实时测试').first().click();
  // the info window names the state too
  await expect(page.locator('.maplibregl-popup').getByTestId('device-state')).toHaveAttribute('data-state', 'sos');
  await page.waitForTimeout(2_500);
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: artifact('dispatch-live-sos-zh-CN') });
  await page.screenshot({ path: `${SHOTS}/dispatch-live-sos-zh-CN.png` });
  // the SOS icon is what the map draws for that device
  const drawn = await page.evaluate((id) => {
    const map = (
      window as unknown as {
        __bwcMap: { queryRenderedFeatures(o: { layers: string[] }): { properties: { id: number; state: string } }[] };
      }
    ).__bwcMap;
    return map.queryRenderedFeatures({ layers: ['bwc-devices-icon'] }).find((f) => Number(f.properties.id) === id)
      ?.properties.state;
  }, device.id);
  expect(drawn).toBe('sos');

  // ---- a fresh page learns the SOS state from the point snapshot (no push after it loaded)
  await page.reload();
  await expect(page.getByTestId('emergency-page')).toBeVisible();
  await expect.poll(async () => (await feature(page, device.id))?.state).toBe('sos');
});
