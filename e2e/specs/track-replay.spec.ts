import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, buttonName, expandUnits, login, switchLanguage } from '../support/console';
import { deviceFleet, imei, offset, runTag, type ApiDevice, type Fix } from '../support/devices';
import { text, type Lang } from '../support/texts';

/**
 * History track (/monitor/track) against the real server: two devices post a recorded history
 * through the device API (past times: a stop of 5 minutes and a 10-minute gap on the first), a
 * user ticks them in the tree, picks the time range, sees both tracks, replays them on one
 * timeline (play, speed 1x..16x, pause, follow) and exports GPX and KML holding the points.
 */
const STATION = { district: '南山分局', name: '西丽派出所', bh: '440305030000' };
const tag = runTag();
const NAMES = [`轨迹甲${tag}`, `轨迹乙${tag}`];
const FORMAT = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')} ${[
    d.getHours(),
    d.getMinutes(),
    d.getSeconds(),
  ]
    .map((n) => String(n).padStart(2, '0'))
    .join(':')}`;

// whole seconds, so that the times typed into the range picker match the query exactly
const NOW = Math.floor(Date.now() / 60_000) * 60_000;
const at = (minutesAgo: number, seconds = 0) => new Date(NOW - minutesAgo * 60_000 + seconds * 1000).toISOString();

/** First device: 10 min east, a 5 min stop, 5 min north, 10 min without a fix, 10 min east. */
function historyA(lng: number, lat: number): Fix[] {
  const fixes: Fix[] = [];
  let east = 0;
  let north = 0;
  const push = (minutesAgo: number, s: number) =>
    fixes.push({ time: at(minutesAgo, s), ...offset(lng, lat, east, north), speed: 5 });
  for (let i = 0; i <= 20; i++, east += 40) push(50, i * 30); // 50 -> 40 min ago
  east -= 40;
  for (let i = 1; i <= 10; i++) push(40, i * 30); // standing still until 35 min ago
  for (let i = 1; i <= 10; i++) {
    north += 40;
    push(35, i * 30); // -> 30 min ago
  }
  for (let i = 0; i <= 20; i++, east += 40) push(20, i * 30); // after the gap: 20 -> 10 min ago
  return fixes;
}

/** Second device: moving south-west from 45 to 15 minutes ago without a pause. */
function historyB(lng: number, lat: number): Fix[] {
  const fixes: Fix[] = [];
  for (let i = 0; i <= 60; i++) fixes.push({ time: at(45, i * 30), ...offset(lng, lat, -30 * i, -30 * i), speed: 4 });
  return fixes;
}

let devices: ApiDevice[] = [];
let fixesA: Fix[] = [];
let fixesB: Fix[] = [];

// eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture arguments from this pattern
test.beforeAll(async ({}, testInfo) => {
  const base = String(testInfo.project.use.baseURL);
  const fleet = await deviceFleet(
    base,
    NAMES.map((hostname, i) => ({
      hostbody: `E2ETRK${tag}${i}`,
      imei: imei(`86${tag}0000${i}`),
      hostname,
      hostcode: `T${tag}${i}`,
      unit_bh: STATION.bh,
    })),
  );
  devices = fleet.devices;
  const { gpscenter_lon: lng, gpscenter_lat: lat } = fleet.config;
  fixesA = historyA(lng + 0.004, lat + 0.002);
  fixesB = historyB(lng - 0.002, lat - 0.001);
  await devices[0]!.send(fixesA);
  await devices[1]!.send(fixesB);
});

interface CursorState {
  features: { label: string; coordinates: [number, number] }[];
  center: [number, number];
}

/** Replay cursors on the map (their GeoJSON source) and the map centre, as the page has them. */
function cursorState(page: Page): Promise<CursorState> {
  return page.evaluate(async () => {
    type Source = {
      getData(): Promise<{
        features: { properties: { label: string }; geometry: { coordinates: [number, number] } }[];
      }>;
    };
    const map = (
      window as unknown as {
        __bwcMap?: { getSource(id: string): Source | undefined; getCenter(): { lng: number; lat: number } };
      }
    ).__bwcMap;
    const source = map?.getSource('bwc-track-cursor');
    const data = source ? await source.getData() : { features: [] };
    const c = map?.getCenter();
    return {
      features: data.features.map((f) => ({ label: f.properties.label, coordinates: f.geometry.coordinates })),
      center: c ? [c.lng, c.lat] : [0, 0],
    };
  });
}

/** Features the track layers hold (lines, stops, gaps). */
function layerCounts(page: Page): Promise<Record<string, number>> {
  return page.evaluate(async () => {
    type Source = { getData(): Promise<{ features: unknown[] }> };
    const map = (window as unknown as { __bwcMap?: { getSource(id: string): Source | undefined } }).__bwcMap;
    const out: Record<string, number> = {};
    for (const id of ['bwc-track-lines', 'bwc-track-stops', 'bwc-track-gaps']) {
      const source = map?.getSource(id);
      out[id] = source ? (await source.getData()).features.length : -1;
    }
    return out;
  });
}

async function replayTime(page: Page): Promise<number> {
  return Date.parse((await page.getByTestId('track-time').innerText()).replace(' ', 'T'));
}

/**
 * Ticks the devices in the unit tree of the page: expands city -> district -> station, then types
 * the run's tag into the tree's filter (the tree is virtual: other devices may push ours out).
 */
async function tickDevices(page: Page, tree: Locator, names: string[]) {
  await expandUnits(tree, ['深圳市公安局', STATION.district, STATION.name]);
  // filter first: in a full run other specs' devices share the station and the virtual list
  // renders only the rows in view
  await tree.getByRole('searchbox').fill(tag);
  await expect(tree.locator('.ant-tree-treenode').filter({ hasText: names[0]! })).toHaveCount(1);
  for (const name of names) {
    const device = tree.locator('.ant-tree-treenode').filter({ hasText: name });
    await device.locator('.ant-tree-checkbox').click();
    await expect(device.locator('.ant-tree-checkbox')).toHaveClass(/ant-tree-checkbox-checked/);
  }
}

async function pickRange(page: Page, from: Date, to: Date) {
  const inputs = page.getByTestId('track-page').locator('.ant-picker-range input');
  await inputs.nth(0).click();
  await inputs.nth(0).fill(FORMAT(from));
  await inputs.nth(0).press('Enter');
  await inputs.nth(1).fill(FORMAT(to));
  await inputs.nth(1).press('Enter');
  await expect(inputs.nth(0)).toHaveValue(FORMAT(from));
  await expect(inputs.nth(1)).toHaveValue(FORMAT(to));
}

async function readDownload(page: Page, button: RegExp): Promise<{ name: string; body: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  return { name: file.suggestedFilename(), body: readFileSync((await file.path())!, 'utf8') };
}

function near(a: [number, number], b: [number, number], eps = 1e-4): boolean {
  return Math.abs(a[0] - b[0]) < eps && Math.abs(a[1] - b[1]) < eps;
}

async function replayJourney(page: Page, lang: Lang, shot: string) {
  const t = (key: string, params?: Record<string, string | number>) => text(lang, `monitor:track.${key}`, params);
  await page.goto('/monitor/track');
  const panel = page.getByTestId('track-page');
  await expect(panel).toBeVisible();
  await expect(panel.getByText(t('none'))).toBeVisible();
  const tree = panel.locator('.bwc-track-tree');
  await tickDevices(page, tree, NAMES);
  await pickRange(page, new Date(NOW - 55 * 60_000), new Date(NOW - 5 * 60_000));
  await page.getByTestId('track-query').click();

  // ---- both tracks drawn, stops and gaps counted, listed and marked on the map and the timeline
  const items = panel.locator('.ant-list-item');
  await expect(items).toHaveCount(2);
  const a = items.filter({ hasText: NAMES[0]! });
  await expect(a.locator('.bwc-track-stats')).toHaveText(
    new RegExp(
      t('stats', { points: fixesA.length, km: 'KM', stops: 1, gaps: 1 })
        .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        .replace('KM', '[0-9.]+'),
    ),
  );
  const b = items.filter({ hasText: NAMES[1]! });
  await expect(b.locator('.bwc-track-stats')).toHaveText(
    new RegExp(
      t('stats', { points: fixesB.length, km: 'KM', stops: 0, gaps: 0 })
        .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        .replace('KM', '[0-9.]+'),
    ),
  );
  await expect
    .poll(() => layerCounts(page))
    .toEqual({ 'bwc-track-lines': 2, 'bwc-track-stops': 1, 'bwc-track-gaps': 1 });
  const replay = page.getByTestId('track-replay');
  await expect(replay.getByTestId('track-mark-stop')).toHaveCount(1);
  await expect(replay.getByTestId('track-mark-gap')).toHaveCount(1);
  // the timeline starts at the first fix of all devices
  expect(await replayTime(page)).toBe(Date.parse(fixesA[0]!.time));
  // at the start only the first device has a position (the second starts 5 minutes later)
  await expect.poll(async () => (await cursorState(page)).features.length).toBe(1);
  await page.screenshot({ path: artifact(`${shot}-tracks`) });

  // ---- play at 1x: the clock and the marker advance; follow keeps the map on the marker
  const startCursor = (await cursorState(page)).features[0]!.coordinates;
  await replay.getByRole('button', { name: t('play') }).click();
  await expect(replay.getByRole('button', { name: t('pause') })).toBeVisible();
  await expect.poll(() => replayTime(page)).toBeGreaterThan(Date.parse(fixesA[0]!.time) + 1_000);
  await expect
    .poll(async () => near((await cursorState(page)).features[0]!.coordinates, startCursor, 1e-7))
    .toBe(false);
  const followed = await cursorState(page);
  expect(
    near(followed.center, followed.features[0]!.coordinates, 2e-4),
    'follow keeps the map centred on the marker',
  ).toBe(true);

  // ---- speed: 16x runs about 16 times as fast as 1x
  const speedAt = async () => {
    const t0 = await replayTime(page);
    const w0 = Date.now();
    await page.waitForTimeout(2_000);
    return ((await replayTime(page)) - t0) / (Date.now() - w0);
  };
  const slow = await speedAt();
  expect(slow).toBeGreaterThan(0.4);
  expect(slow).toBeLessThan(2);
  await replay.getByTestId('track-speed').click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: /^16x$/ }).click();
  await expect(replay.getByTestId('track-speed')).toContainText('16x');
  const fast = await speedAt();
  expect(fast).toBeGreaterThan(8);
  expect(fast).toBeLessThan(24);
  // several devices on one timeline: the second device's marker appears once its history begins
  await expect.poll(async () => (await cursorState(page)).features.length, { timeout: 30_000 }).toBe(2);

  // ---- pause: the clock stands still
  await replay.getByRole('button', { name: t('pause') }).click();
  await expect(replay.getByRole('button', { name: t('play') })).toBeVisible();
  const paused = await replayTime(page);
  await page.waitForTimeout(1_000);
  expect(await replayTime(page)).toBe(paused);

  // ---- follow off: the map stays where it is while the markers move
  await replay.getByTestId('track-follow').click();
  await expect(replay.getByTestId('track-follow')).toHaveAttribute('aria-checked', 'false');
  const still = (await cursorState(page)).center;
  const markers = (await cursorState(page)).features.map((f) => f.coordinates);
  await replay.getByRole('button', { name: t('play') }).click();
  await expect
    .poll(async () => near((await cursorState(page)).features[0]!.coordinates, markers[0]!, 1e-7))
    .toBe(false);
  expect(near((await cursorState(page)).center, still, 1e-9), 'without follow the map does not move').toBe(true);
  await replay.getByRole('button', { name: t('pause') }).click();
  await page.screenshot({ path: artifact(`${shot}-replay`) });

  // ---- GPX and KML: files holding the points of both devices
  const gpx = await readDownload(page, buttonName(t('exportGpx')));
  expect(gpx.name).toMatch(/\.gpx$/);
  expect(gpx.body).toContain('<gpx version="1.1"');
  expect(gpx.body.match(/<trkpt /g)).toHaveLength(fixesA.length + fixesB.length);
  for (const fix of [fixesA[0]!, fixesA[fixesA.length - 1]!, fixesB[7]!])
    expect(gpx.body).toContain(`<trkpt lat="${fix.lat}" lon="${fix.lng}"><time>${fix.time}</time></trkpt>`);
  // the gap splits the first device's track into two segments, the stop is a waypoint
  expect(gpx.body.match(/<trkseg>/g)).toHaveLength(3);
  expect(gpx.body.match(/<wpt /g)).toHaveLength(1);
  const kml = await readDownload(page, buttonName(t('exportKml')));
  expect(kml.name).toMatch(/\.kml$/);
  expect(kml.body).toContain('<kml xmlns="http://www.opengis.net/kml/2.2">');
  for (const fix of [fixesA[3]!, fixesB[fixesB.length - 1]!]) expect(kml.body).toContain(`${fix.lng},${fix.lat},0`);
  for (const name of NAMES) expect(kml.body).toContain(name);
}

test('history track: two recorded devices drawn, replayed on one timeline, exported as GPX and KML', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  await replayJourney(page, 'zh-CN', 'track-replay-zh-CN');

  await page.goto('/menu');
  await switchLanguage(page, 'en-US');
  await replayJourney(page, 'en-US', 'track-replay-en-US');
});
