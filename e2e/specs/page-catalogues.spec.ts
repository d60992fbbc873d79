import { readdirSync } from 'node:fs';
import type { Page, Route } from '@playwright/test';
import { expect, test } from '../fixtures';
import { ACCOUNTS, login, switchLanguage } from '../support/console';
import { deviceFleet, imei, runTag, type ApiDevice } from '../support/devices';
import { mapFeatures } from '../support/map';
import { text, type Lang } from '../support/texts';

/**
 * A page's catalogues load with the page (lazyPage in apps/web/src/app/routing): once the
 * emergency page is shown, opening its info window and the replay dialog of the window (which read
 * the playback catalogue) fetches no catalogue; a language switch on the page loads the page's
 * catalogues in the new language while the page stays shown, and the same dialogs then fetch none
 * either.
 */
const NAMESPACES = readdirSync(new URL('../../apps/web/src/i18n/locales/zh-CN/', import.meta.url)).map((file) =>
  file.replace(/\.json$/, ''),
);
/** A catalogue chunk of the build: `/assets/<namespace>-<8 character hash>.js` (not data-table-<hash>.js). */
const CATALOGUE = new RegExp(`/assets/(${NAMESPACES.join('|')})-[\\w-]{8}\\.js$`);
const NAME = '目录测试';
const tag = runTag();
// a place of this run's own: a run again on the same server puts its device elsewhere
const AT = { lng: 114.2 + (Number(tag) % 500) / 10_000, lat: 22.69 };
let device: ApiDevice;

// eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture arguments from this pattern
test.beforeAll(async ({}, testInfo) => {
  const fleet = await deviceFleet(String(testInfo.project.use.baseURL), [
    { hostbody: `E2ECAT${tag}`, imei: imei(`87${tag}00001`), hostname: NAME },
  ]);
  device = fleet.devices[0]!;
  await device.send([{ time: new Date().toISOString(), ...AT }]);
});

/** The catalogue chunks the page asks for from now on (their namespaces). */
function recordCatalogues(page: Page): string[] {
  const asked: string[] = [];
  page.on('request', (request) => {
    const match = CATALOGUE.exec(new URL(request.url()).pathname);
    if (match) asked.push(match[1]!);
  });
  return asked;
}

/** From now on: whether the emergency page was ever there but not shown (a suspension hides it). */
async function watchHidden(page: Page): Promise<() => Promise<boolean>> {
  await page.evaluate(() => {
    const flags = window as unknown as { bwcEmergencyHidden: boolean };
    flags.bwcEmergencyHidden = false;
    new MutationObserver(() => {
      const emergency = document.querySelector('[data-testid="emergency-page"]');
      if (emergency && !emergency.checkVisibility()) flags.bwcEmergencyHidden = true;
    }).observe(document.body, { attributes: true, childList: true, subtree: true });
  });
  return () => page.evaluate(() => (window as unknown as { bwcEmergencyHidden: boolean }).bwcEmergencyHidden);
}

/** Centres the map on the device, zoomed in, and clicks its marker: the info window opens. */
async function openInfoWindow(page: Page): Promise<void> {
  await expect.poll(async () => (await mapFeatures(page, [device.id])).length).toBe(1);
  await page.evaluate(async (id) => {
    type Map = {
      getSource(id: string): {
        getData(): Promise<{ features: { id: number; geometry: { coordinates: [number, number] } }[] }>;
      };
      jumpTo(options: { center: [number, number]; zoom: number }): void;
      once(type: string, listener: () => void): void;
    };
    const map = (window as unknown as { __bwcMap: Map }).__bwcMap;
    const data = await map.getSource('bwc-devices').getData();
    const idle = new Promise<void>((resolve) => map.once('idle', resolve));
    map.jumpTo({ center: data.features.find((f) => Number(f.id) === id)!.geometry.coordinates, zoom: 17 });
    await idle;
  }, device.id);
  const box = (await page.getByTestId('dispatch-map').boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page.getByTestId('info-window-title')).toContainText(NAME);
}

/** The info window, then its replay dialog (the playback catalogue's texts), then both closed. */
async function openDialogs(page: Page, lang: Lang): Promise<void> {
  await openInfoWindow(page);
  await expect(page.getByTestId('info-window-replay')).toHaveText(text(lang, 'playback:open'));
  await page.getByTestId('info-window-replay').click();
  const dialog = page.getByRole('dialog').filter({ has: page.getByTestId('device-replay') });
  await expect(dialog).toContainText(text(lang, 'playback:deviceTitle', { name: NAME }));
  await dialog.locator('.ant-modal-close').click();
  await expect(dialog).toHaveCount(0);
  await page.locator('.maplibregl-popup-close-button').click();
  await expect(page.getByTestId('info-window')).toHaveCount(0);
}

test('the emergency page loads its catalogues with it; a language switch loads them again without hiding it', async ({
  page,
}) => {
  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  const asked = recordCatalogues(page);
  await page.getByTestId('nav-menu').getByText(text('zh-CN', 'menu:dispatch'), { exact: true }).click();
  await expect(page).toHaveURL(/\/dispatch\/emergency$/);
  await expect(page.getByTestId('emergency-page')).toBeVisible();
  // the page's own catalogues came with it (dispatch for the page, playback for its dialogs)
  expect(asked).toEqual(expect.arrayContaining(['dispatch', 'playback']));
  asked.length = 0;
  await openDialogs(page, 'zh-CN');
  expect(asked, 'no catalogue fetched after the page was shown').toEqual([]);

  // English, with the page's own catalogues held back until the switch has asked for them: the
  // page stays shown in Chinese meanwhile, then turns English
  const hidden = await watchHidden(page);
  const held: Route[] = [];
  const PAGE_CATALOGUE = /\/assets\/(dispatch|playback)-[\w-]{8}\.js$/;
  await page.route(PAGE_CATALOGUE, (route) => void held.push(route));
  await page.getByTestId('language-switch').hover();
  await page.getByRole('menuitem', { name: text('en-US', 'common:language.en-US') }).click();
  await expect.poll(() => held.length, { message: 'the switch asked for the page catalogues' }).toBe(2);
  await expect(page.getByTestId('emergency-page')).toBeVisible();
  await expect(page.getByTestId('language-switch')).toHaveText(text('zh-CN', 'common:language.zh-CN'));
  for (const route of held) await route.continue();
  await page.unroute(PAGE_CATALOGUE);
  await expect(page.getByTestId('language-switch')).toHaveText(text('en-US', 'common:language.en-US'));
  expect(await hidden(), 'the emergency page stayed shown').toBe(false);
  asked.length = 0;
  await openDialogs(page, 'en-US');
  expect(asked, 'no catalogue fetched after the switch').toEqual([]);
});

test('in English a page fetches each of its catalogues once: English only, no Chinese fallback', async ({ page }) => {
  await page.goto('/login');
  await switchLanguage(page, 'en-US');
  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password, 'en-US');
  const asked = recordCatalogues(page);
  await page.getByTestId('nav-menu').getByText(text('en-US', 'menu:dispatch'), { exact: true }).click();
  await expect(page).toHaveURL(/\/dispatch\/emergency$/);
  await expect(page.getByTestId('emergency-page')).toBeVisible();
  expect(asked).toEqual(expect.arrayContaining(['dispatch', 'playback']));
  // the zh-CN catalogue of a namespace is a chunk of the same name: a fallback load would repeat it
  expect(
    asked.filter((ns, i) => asked.indexOf(ns) !== i),
    'a namespace fetched twice',
  ).toEqual([]);
});
