import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, login } from '../support/console';
import { runTag } from '../support/devices';

/**
 * The fence and zone screens open on what they list: a fence (or zone) some 400 km from the map's
 * default centre (Shenzhen) lies inside the map's view as soon as the page has opened, without a
 * click on it. Saved through the API, removed again at the end.
 */
const tag = runTag();

interface Box {
  sw: { lng: number; lat: number };
  ne: { lng: number; lat: number };
}

/**
 * In Fujian (fence) and Guangxi (zone): far outside the view at the default centre and zoom. About
 * 20 km wide, so that the fit's 60-pixel margin is wider than the display datum's shift.
 */
const FAR: Record<'fence' | 'zone', Box> = {
  fence: { sw: { lng: 117.5, lat: 25.5 }, ne: { lng: 117.7, lat: 25.7 } },
  zone: { sw: { lng: 108.3, lat: 22.8 }, ne: { lng: 108.5, lat: 23.0 } },
};

async function post<T>(page: Page, path: string, data: Record<string, unknown>): Promise<T> {
  const res = await page.request.post(path, { data });
  const body = (await res.json()) as { code: number; msg: string; data: T };
  expect(body.code, `${path}: ${body.msg}`).toBe(200);
  return body.data;
}

/** The map's view (display coordinates), once the page's map exists. */
async function view(page: Page): Promise<{ west: number; south: number; east: number; north: number } | null> {
  return page.evaluate(() => {
    const map = (
      window as unknown as {
        __bwcMap?: {
          loaded(): boolean;
          getBounds(): { getWest(): number; getSouth(): number; getEast(): number; getNorth(): number };
        };
      }
    ).__bwcMap;
    if (!map) return null;
    const b = map.getBounds();
    return { west: b.getWest(), south: b.getSouth(), east: b.getEast(), north: b.getNorth() };
  });
}

/** Whether the box lies inside the view (the display datum moves points by well under 0.01°). */
function inside(v: { west: number; south: number; east: number; north: number } | null, box: Box): boolean {
  const slack = 0.01;
  return (
    v !== null &&
    v.west <= box.sw.lng - slack &&
    v.south <= box.sw.lat - slack &&
    v.east >= box.ne.lng + slack &&
    v.north >= box.ne.lat + slack
  );
}

test('fence and zone screens open with every listed shape in view', async ({ page }) => {
  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  const fence = await post<{ id: number }>(page, '/rest/config/fence/add', {
    name: `远处围栏${tag}`,
    shape: { type: 'rectangle', ...FAR.fence },
    rule: 'both',
    device_ids: [],
    unit_ids: [],
  });
  const zone = await post<{ id: number }>(page, '/rest/config/zone/add', {
    name: `远处区域${tag}`,
    shape: { type: 'rectangle', ...FAR.zone },
  });
  try {
    for (const [kind, path] of [
      ['fence', '/configcenter/MapConfig/ElectronicFence'],
      ['zone', '/configcenter/MapConfig/ZoneAdmin'],
    ] as const) {
      await page.goto(path);
      await expect(
        page.locator('.ant-table-row').filter({ hasText: kind === 'fence' ? `远处围栏${tag}` : `远处区域${tag}` }),
      ).toBeVisible();
      await expect
        .poll(async () => inside(await view(page), FAR[kind]), {
          message: `${kind}: the far shape in the opening view`,
          timeout: 60_000,
        })
        .toBe(true);
      await page.screenshot({ path: artifact(`geo-fit-${kind}`) });
    }
  } finally {
    await post(page, '/rest/config/fence/del', { id: fence.id });
    await post(page, '/rest/config/zone/del', { id: zone.id });
  }
});
