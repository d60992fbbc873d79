import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, login, switchLanguage } from '../support/console';
import { deviceFleet, imei, runTag, type ApiDevice } from '../support/devices';
import { mapFeatures } from '../support/map';
import { text, type Lang } from '../support/texts';

/**
 * The dispatch map's device info window stays inside the map the user sees, wherever the device
 * sits when it is clicked: in the middle of a laptop's map (lower than twice the window, so that it
 * fits neither above nor below the device), just low enough for the window to open above it at the
 * map's top edge (where the map's tools are), and at the edges. Its title is never covered.
 */
const SHOTS = '/tmp/shots-map';
const AT = { lng: 114.21, lat: 22.71 };
const tag = runTag();
let device: ApiDevice;

// eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture arguments from this pattern
test.beforeAll(async ({}, testInfo) => {
  const fleet = await deviceFleet(String(testInfo.project.use.baseURL), [
    { hostbody: `E2EINF${tag}`, imei: imei(`88${tag}00001`), hostname: '信息窗测试' },
  ]);
  device = fleet.devices[0]!;
  await device.send([{ time: new Date().toISOString(), ...AT }]);
});

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Puts the device at (x, y) pixels of the map, zoomed in so that no other marker is near. */
async function placeDevice(page: Page, x: number, y: number): Promise<void> {
  await page.evaluate(
    async ({ id, x, y }) => {
      type Map = {
        getSource(id: string): {
          getData(): Promise<{ features: { id: number; geometry: { coordinates: [number, number] } }[] }>;
        };
        jumpTo(options: { center: [number, number]; zoom: number }): void;
        panBy(offset: [number, number], options: { animate: boolean }): void;
        getContainer(): HTMLElement;
        once(type: string, listener: () => void): void;
        loaded(): boolean;
      };
      const map = (window as unknown as { __bwcMap: Map }).__bwcMap;
      const data = await map.getSource('bwc-devices').getData();
      const feature = data.features.find((f) => Number(f.id) === id)!;
      map.jumpTo({ center: feature.geometry.coordinates, zoom: 17 });
      const box = map.getContainer();
      map.panBy([box.clientWidth / 2 - x, box.clientHeight / 2 - y], { animate: false });
      await new Promise<void>((resolve) => map.once('idle', resolve));
    },
    { id: device.id, x, y },
  );
}

/** Where the info window runs past the visible map, and points of its title covered by something else. */
async function problems(page: Page, map: Box): Promise<string[]> {
  const viewport = page.viewportSize()!;
  const visible = {
    left: Math.max(map.x, 0),
    top: Math.max(map.y, 0),
    right: Math.min(map.x + map.width, viewport.width),
    bottom: Math.min(map.y + map.height, viewport.height),
  };
  return page.getByTestId('info-window-title').evaluate((title, view) => {
    const found: string[] = [];
    const popup = title.closest('.maplibregl-popup')!.getBoundingClientRect();
    if (popup.top < view.top) found.push(`top ${Math.round(popup.top - view.top)}`);
    if (popup.bottom > view.bottom) found.push(`bottom +${Math.round(popup.bottom - view.bottom)}`);
    if (popup.left < view.left) found.push(`left ${Math.round(popup.left - view.left)}`);
    if (popup.right > view.right) found.push(`right +${Math.round(popup.right - view.right)}`);
    const r = title.getBoundingClientRect();
    for (const x of [r.left + 4, r.left + r.width / 2]) {
      const hit = document.elementFromPoint(x, r.top + r.height / 2);
      if (!hit || !title.contains(hit)) found.push(`title covered at ${Math.round(x)}`);
    }
    return found;
  }, visible);
}

async function openAt(page: Page, map: Box, fx: number, y: number): Promise<void> {
  await placeDevice(page, map.width * fx, y);
  await page.mouse.click(map.x + map.width * fx, map.y + y);
  await expect(page.getByTestId('info-window-title')).toContainText('信息窗测试');
}

async function close(page: Page): Promise<void> {
  await page.locator('.maplibregl-popup-close-button').click();
  await expect(page.getByTestId('info-window')).toHaveCount(0);
}

async function checkPlaces(page: Page, lang: Lang): Promise<void> {
  await page.goto('/dispatch/emergency');
  await expect(page.getByTestId('emergency-page')).toBeVisible();
  await expect.poll(async () => (await mapFeatures(page, [device.id])).length).toBe(1);
  const map = (await page.getByTestId('dispatch-map').boundingBox())!;
  // lower than two windows (390 px and the pointer): the band in the middle fits neither way
  expect(map.height).toBeLessThan(2 * 400);
  const places: [string, number, number][] = [
    ['middle', 0.5, map.height / 2],
    // the window opens above the device, reaching the map's top edge where the tools are
    ['under-tools', 0.35, 440],
    // at the edges (the tools sit at the top left: a click there would hit them)
    ['left', 0.03, map.height * 0.3],
    ['top-right', 0.97, 20],
    // the bottom of the map the window shows (the zoom buttons sit at the right)
    ['bottom', 0.85, Math.min(map.height, page.viewportSize()!.height - map.y) - 24],
  ];
  for (const [name, fx, y] of places) {
    await openAt(page, map, fx, y);
    await expect.poll(() => problems(page, map), { message: name }).toEqual([]);
    if (name === 'under-tools') {
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: artifact(`dispatch-info-window-${lang}`) });
      await page.screenshot({ path: `${SHOTS}/dispatch-info-window-${lang}.png` });
      await expect(page.getByTestId('info-window')).toContainText(text(lang, 'dispatch:detail.state'));
    }
    await close(page);
  }
}

test('the info window stays inside the dispatch map with its title in view', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  await checkPlaces(page, 'zh-CN');
  await page.goto('/menu');
  await switchLanguage(page, 'en-US');
  await checkPlaces(page, 'en-US');
});
