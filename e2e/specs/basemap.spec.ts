import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, login, switchLanguage } from '../support/console';
import { text } from '../support/texts';

/**
 * The built-in basemap (no map file uploaded, offline): the dispatch map draws land, water,
 * borders, rivers, China's provinces and prefecture cities, place names down to towns from the
 * server's vector tiles, at the demo centre (Shenzhen) from country scale (zoom 5) to city scale
 * (zoom 12), and says that it has no streets.
 */

const CENTRE: [number, number] = [114.0579, 22.5431];

type MapHandle = {
  jumpTo(o: { center: [number, number]; zoom: number }): void;
  once(event: string, cb: () => void): void;
  areTilesLoaded(): boolean;
  queryRenderedFeatures(options: { layers: string[] }): { properties: Record<string, unknown> }[];
  getLayoutProperty(layer: string, name: string): unknown;
};

/**
 * Hides the devices (the map's points switch: locating mode with nothing tracked): devices that
 * earlier specs placed at the demo centre draw symbols there, which would hide place labels by
 * collision, and the labels are what is checked here.
 */
async function hideDevices(page: Page, lang: 'zh-CN' | 'en-US') {
  const button = page.getByTestId('tool-points');
  await expect(button).toBeVisible();
  if ((await button.getAttribute('aria-label')) === text(lang, 'dispatch:tools.hidePoints')) await button.click();
  await expect(button).toHaveAttribute('aria-label', text(lang, 'dispatch:tools.showPoints'));
}

/** Jump the map, wait until it is idle, answer how many features each layer drew and the province names. */
async function viewAt(page: Page, zoom: number) {
  return page.evaluate(
    async ([center, z]) => {
      const map = (window as unknown as { __bwcMap: MapHandle }).__bwcMap;
      await new Promise<void>((resolve) => {
        map.once('idle', () => resolve());
        map.jumpTo({ center, zoom: z });
      });
      const count = (layer: string) => map.queryRenderedFeatures({ layers: [layer] }).length;
      return {
        land: count('land'),
        borders: count('borders'),
        provinces: count('provinces'),
        rivers: count('rivers'),
        names: map.queryRenderedFeatures({ layers: ['province_labels'] }).map((f) => String(f.properties.name)),
        districts: count('districts'),
        // what the places layer shows (its text follows the console's language)
        places: map
          .queryRenderedFeatures({ layers: ['places'] })
          .map((f) => String(f.properties[document.documentElement.lang === 'en-US' ? 'name_en' : 'name'])),
        placeText: JSON.stringify(map.getLayoutProperty('places', 'text-field')),
      };
    },
    [CENTRE, zoom] as const,
  );
}

test('the dispatch map draws the built-in basemap from country to city scale', async ({ page }) => {
  const tiles: number[] = [];
  page.on('response', (res) => {
    if (res.url().includes('/rest/map/basemap/tiles/')) tiles.push(res.status());
  });
  await login(page, ACCOUNTS.dispatcher.username, ACCOUNTS.dispatcher.password);
  await page.goto('/dispatch/emergency');
  await page.waitForFunction(() => (window as unknown as { __bwcMap?: unknown }).__bwcMap !== undefined);
  await hideDevices(page, 'zh-CN');

  const country = await viewAt(page, 5);
  expect(country.land).toBeGreaterThan(0);
  expect(country.borders).toBeGreaterThan(0);
  expect(country.provinces).toBeGreaterThan(0);
  expect(country.rivers).toBeGreaterThan(0);
  expect(country.names).toEqual(expect.arrayContaining(['广东', '广西', '湖南']));
  expect(country.placeText).toMatch(/^\["coalesce",\["get","name"\]/);
  expect(country.places).toEqual(expect.arrayContaining(['广州', '香港']));
  // no street-level source: the map says so; a dispatcher may not change the map settings
  const notice = page.getByTestId('basemap-notice');
  await expect(notice).toContainText(text('zh-CN', 'map:basemap.notice'));
  await expect(notice).toContainText(text('zh-CN', 'map:basemap.askAdmin'));
  await page.screenshot({ path: artifact('basemap-zoom5-zh-CN') });

  const city = await viewAt(page, 12);
  expect(city.land).toBeGreaterThan(0);
  // the Shenzhen / Hong Kong border runs through the view; the coarse province outlines are hidden
  expect(city.borders).toBeGreaterThan(0);
  expect(city.provinces).toBe(0);
  // Shenzhen and its towns are named; the prefecture boundaries (Shenzhen / Dongguan) drawn
  expect(city.places).toEqual(expect.arrayContaining(['深圳']));
  expect(city.places.length).toBeGreaterThanOrEqual(2);
  await page.screenshot({ path: artifact('basemap-zoom12-zh-CN') });
  const further = await viewAt(page, 10);
  expect(further.districts).toBeGreaterThan(0);

  // in English: the same places by their English names
  await switchLanguage(page, 'en-US');
  await expect(notice).toContainText(text('en-US', 'map:basemap.notice'));
  await hideDevices(page, 'en-US');
  const countryEn = await viewAt(page, 5);
  expect(countryEn.placeText).toMatch(/^\["coalesce",\["get","name_en"\]/);
  expect(countryEn.places).toEqual(expect.arrayContaining(['Guangzhou', 'Hong Kong']));
  await page.screenshot({ path: artifact('basemap-zoom5-en-US') });
  const cityEn = await viewAt(page, 12);
  expect(cityEn.places).toEqual(expect.arrayContaining(['Shenzhen']));
  await page.screenshot({ path: artifact('basemap-zoom12-en-US') });

  expect(tiles.length).toBeGreaterThan(0);
  expect(tiles.every((s) => s === 200 || s === 204)).toBe(true);
});
