import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { DEVICE_PROVISION_KEY } from '../playwright.config';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, buttonName, login, pressUntilClosed, switchLanguage } from '../support/console';
import { text } from '../support/texts';
import { mapFeatures } from '../support/map';

/**
 * Emergency dispatch map against the real server fed by the real simulator (device API only):
 * devices move on the map, a polygon drawn on the map lists exactly the devices inside it, and a
 * remote kill then wake changes the marker icon and the capability flags.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SHOTS = '/tmp/shots-map';
const DEVICES = 30;
let sim: ChildProcess | undefined;

test.describe.configure({ timeout: 240_000 });

// eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture arguments from this pattern
test.beforeAll(async ({}, testInfo) => {
  const base = String(testInfo.project.use.baseURL);
  sim = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'packages/simulator/src/cli.ts',
      '--devices',
      String(DEVICES),
      '--server',
      base,
      '--provision-key',
      DEVICE_PROVISION_KEY,
      '--interval',
      '1-2s',
      '--prefix',
      'E2EMAP',
      '--seed',
      '7',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('simulator did not start')), 60_000);
    sim!.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('running')) {
        clearTimeout(timer);
        resolve();
      }
    });
    sim!.on('exit', (code) => reject(new Error(`simulator exited ${code}`)));
  });
});

test.afterAll(() => {
  sim?.kill('SIGTERM');
});

/** Markers and clusters the map has drawn on screen. */
function renderedMarkers(page: Page): Promise<number> {
  return page.evaluate(() => {
    const map = (
      window as unknown as { __bwcMap?: { queryRenderedFeatures(options: { layers: string[] }): unknown[] } }
    ).__bwcMap;
    return map ? map.queryRenderedFeatures({ layers: ['bwc-devices-icon', 'bwc-devices-cluster'] }).length : 0;
  });
}

function insideRing(point: [number, number], ring: [number, number][]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > point[1] !== yj > point[1] && point[0] < ((xj - xi) * (point[1] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: artifact(name) });
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

/**
 * Presses OK in a confirmation and waits until it has closed, pressing again while it stays open:
 * a clean-clone run on a loaded machine lost the first click on the kill confirmation (the dialog
 * still open 30 s later, nothing sent). The dialog closes on the first press that lands, so the
 * command is sent once.
 */
async function confirm(dialog: Locator): Promise<void> {
  await pressUntilClosed(dialog, text('zh-CN', 'common:action.ok'));
}

test('devices move on the dispatch map; a polygon lists the devices in it; kill then wake changes icon and flags', async ({
  page,
}) => {
  const zh = 'zh-CN';
  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  await page.goto('/dispatch/emergency');
  await expect(page.getByTestId('emergency-page')).toBeVisible();
  await expect(page.getByTestId('device-counts')).toContainText(/\d+/);

  // ---- devices on the map, then moving (the map refreshes every 20 s, by differences)
  await expect.poll(async () => (await mapFeatures(page)).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(DEVICES);
  const before = new Map((await mapFeatures(page)).map((f) => [f.id, f.coordinates.join(',')]));
  await expect
    .poll(
      async () =>
        (await mapFeatures(page)).filter((f) => before.has(f.id) && before.get(f.id) !== f.coordinates.join(','))
          .length,
      {
        timeout: 60_000,
        intervals: [2_000],
      },
    )
    .toBeGreaterThan(0);
  await expect.poll(() => renderedMarkers(page)).toBeGreaterThan(0);
  await shoot(page, 'dispatch-map-zh-CN');

  // ---- polygon selection over the middle of the map
  await page.getByTestId('tool-polygon').click();
  const box = (await page.getByTestId('dispatch-map').boundingBox())!;
  const corners: [number, number][] = [
    [box.x + box.width * 0.2, box.y + box.height * 0.2],
    [box.x + box.width * 0.8, box.y + box.height * 0.25],
    [box.x + box.width * 0.75, box.y + box.height * 0.8],
    [box.x + box.width * 0.25, box.y + box.height * 0.75],
  ];
  // the polygon in map coordinates, computed before drawing (drawing pauses the refresh)
  const ring = await page.evaluate(
    ({ points, origin }) => {
      const map = (window as unknown as { __bwcMap: { unproject(p: [number, number]): { lng: number; lat: number } } })
        .__bwcMap;
      return points.map(([x, y]) => {
        const p = map.unproject([x - origin.x, y - origin.y]);
        return [p.lng, p.lat] as [number, number];
      });
    },
    { points: corners, origin: { x: box.x, y: box.y } },
  );
  for (const [x, y] of corners) {
    await page.mouse.click(x, y);
    await page.waitForTimeout(150);
  }
  const frozen = await mapFeatures(page);
  await page.mouse.click(corners[0]![0], corners[0]![1]);
  const expected = frozen.filter((f) => insideRing(f.coordinates, ring)).map((f) => f.id);

  if (expected.length === 0) {
    await expect(page.getByText(text(zh, 'dispatch:selection.empty'))).toBeVisible();
    throw new Error('no simulated device inside the polygon: the fleet did not spread over the map');
  }
  const dialog = page
    .getByRole('dialog')
    .filter({ hasText: text(zh, 'dispatch:selection.title', { count: expected.length }) });
  await expect(dialog).toBeVisible();
  const rows = dialog.getByTestId('selection-table').locator('tbody tr.ant-table-row');
  await expect(rows).toHaveCount(Math.min(expected.length, 30));
  const listed = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-row-key')));
  expect(listed.map(Number).sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b).slice(0, listed.length));
  await shoot(page, 'dispatch-selection-zh-CN');

  // ---- remote kill then wake of an online device of the selection
  // an online device that is not in SOS on the map (the simulator raises SOS now and then)
  const onlineIds = await rows
    .filter({ has: page.locator('[data-state="online"]') })
    .evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-row-key'))));
  const markerStates = new Map((await mapFeatures(page)).map((f) => [f.id, f.state]));
  const id = onlineIds.find((candidate) => markerStates.get(candidate) === 'online');
  if (id === undefined) throw new Error('no online device without SOS in the selection');
  const row = rows.and(page.locator(`[data-row-key="${id}"]`));
  await row.getByRole('button', { name: buttonName(text(zh, 'dispatch:action.kill')) }).click();
  const killConfirm = page
    // the confirmation itself: the selection dialog behind it shows the same words on its buttons
    .locator('.ant-modal-confirm')
    .filter({ hasText: text(zh, 'dispatch:remote.killTitle') });
  await confirm(killConfirm);
  await expect(row.getByTestId('device-state')).toHaveAttribute('data-state', 'killed');
  await expect(row.getByTestId('device-flags')).toHaveAttribute('data-flags', '0,0,0');
  await expect.poll(async () => (await mapFeatures(page)).find((f) => f.id === id)?.state).toBe('killed');
  await shoot(page, 'dispatch-killed-zh-CN');

  await row.getByRole('button', { name: buttonName(text(zh, 'dispatch:action.wake')) }).click();
  const wakeConfirm = page
    // the confirmation itself: the selection dialog behind it shows the same words on its buttons
    .locator('.ant-modal-confirm')
    .filter({ hasText: text(zh, 'dispatch:remote.wakeTitle') });
  await confirm(wakeConfirm);
  await expect(row.getByTestId('device-state')).toHaveAttribute('data-state', 'online');
  await expect(row.getByTestId('device-flags')).toHaveAttribute('data-flags', '1,1,1');
  await expect.poll(async () => (await mapFeatures(page)).find((f) => f.id === id)?.state).toBe('online');

  // ---- the same screen in English
  await dialog.getByRole('button', { name: buttonName(text(zh, 'dispatch:action.close')) }).click();
  await page.goto('/menu');
  await switchLanguage(page, 'en-US');
  await page.goto('/dispatch/emergency');
  await expect(page.getByTestId('device-counts')).toContainText('Online');
  await expect.poll(async () => (await mapFeatures(page)).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(DEVICES);
  await expect.poll(() => renderedMarkers(page)).toBeGreaterThan(0);
  await shoot(page, 'dispatch-map-en-US');
});
