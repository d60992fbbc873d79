import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, buttonName, login, pressUntilClosed, switchLanguage } from '../support/console';
import { deviceFleet, imei, offset, runTag, type ApiDevice } from '../support/devices';
import { searchGroup } from '../support/groups';
import { text, type Lang } from '../support/texts';
import { mapFeatures } from '../support/map';

/**
 * Temporary group from a dispatch map selection (spec part 2 sections 2.2 and 5) against the real server:
 * devices posted through the device API at two spots away from any other fleet; a rectangle
 * around the first spot selects two devices with a cluster number (jq_hostcode) and one without,
 * the user is told which one stays out and confirms (cancel creates nothing), and the server
 * stores the group (localised prefix + date-time + one digit, 24 h life, the two members). A
 * rectangle around the second spot selects only devices without a cluster number: a warning
 * names them and no group is created.
 */
const tag = runTag();
const WITH = [`组员甲${tag}`, `组员乙${tag}`];
const WITHOUT = `无集群号${tag}`;
const LONE = [`单兵丙${tag}`, `单兵丁${tag}`];
const GONE = `将删除${tag}`;

let mixed: ApiDevice[] = [];
let gone: ApiDevice;
let lone: ApiDevice[] = [];
let spots: { lng: number; lat: number }[] = [];

// eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture arguments from this pattern
test.beforeAll(async ({}, testInfo) => {
  const names = [...WITH, WITHOUT, ...LONE, GONE];
  const fleet = await deviceFleet(
    String(testInfo.project.use.baseURL),
    names.map((hostname, i) => ({
      hostbody: `E2EGRP${tag}${i}`,
      imei: imei(`88${tag}0000${i}`),
      hostname,
      hostcode: `G${tag}${i}`,
      jq_hostcode: i < 2 || i === 5 ? `9${tag}${i}` : '',
      unit_bh: '440305010000',
    })),
  );
  mixed = fleet.devices.slice(0, 3);
  lone = fleet.devices.slice(3, 5);
  gone = fleet.devices[5]!;
  // 6 km east and west of the map centre: outside the 3 km the simulated fleet walks in
  const { gpscenter_lon: lng, gpscenter_lat: lat } = fleet.config;
  spots = [offset(lng, lat, 6_000, 0), offset(lng, lat, -6_000, 0), offset(lng, lat, 0, 6_000)];
});

/** Current fixes a few metres apart around a spot (devices online, on the map). */
async function place(devices: ApiDevice[], spot: { lng: number; lat: number }) {
  for (const [i, device] of devices.entries())
    await device.send([{ time: new Date().toISOString(), ...offset(spot.lng, spot.lat, 10 * i, 8 * i) }]);
}

/** Map features of these device ids (their display coordinates), as the map holds them. */
const featuresOf = mapFeatures;

/** Centres the map on these devices and selects them with a rectangle; answers the listed ids. */
async function selectAround(page: Page, devices: ApiDevice[], lang: Lang): Promise<number[]> {
  const ids = devices.map((d) => d.id);
  await expect.poll(async () => (await featuresOf(page, ids)).length, { timeout: 30_000 }).toBe(ids.length);
  const features = await featuresOf(page, ids);
  const centre = [
    features.reduce((s, f) => s + f.coordinates[0], 0) / features.length,
    features.reduce((s, f) => s + f.coordinates[1], 0) / features.length,
  ];
  await page.evaluate((c) => {
    const map = (window as unknown as { __bwcMap: { jumpTo(o: { center: number[]; zoom: number }): void } }).__bwcMap;
    map.jumpTo({ center: c, zoom: 17 });
  }, centre);
  await page.waitForTimeout(500);
  const box = (await page.getByTestId('dispatch-map').boundingBox())!;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  await page.getByTestId('tool-rectangle').click();
  await page.mouse.click(cx - 120, cy - 120);
  await page.waitForTimeout(150);
  await page.mouse.click(cx + 120, cy + 120);
  const dialog = page
    .getByRole('dialog')
    .filter({ hasText: text(lang, 'dispatch:selection.title', { count: ids.length }) });
  await expect(dialog).toBeVisible();
  const rows = dialog.getByTestId('selection-table').locator('tbody tr.ant-table-row');
  await expect(rows).toHaveCount(ids.length);
  return (await rows.evaluateAll((trs) => trs.map((tr) => Number(tr.getAttribute('data-row-key'))))).sort(
    (a, b) => a - b,
  );
}

interface Group {
  tgid: number;
  tg_name: string;
  preconfig: number;
  uids: number[];
  expires: string | null;
  created: string;
}

async function groups(page: Page): Promise<Group[]> {
  const res = await page.request.post('/rest/gis/gischannel/grouplist', { data: {} });
  const body = (await res.json()) as { code: number; msg: string; data: Group[] };
  expect(body.code, body.msg).toBe(200);
  return body.data;
}

const prefixOf = (lang: Lang) =>
  (
    JSON.parse(
      // the server's catalogue (export namespace of the protocol)
      readFileSync(new URL(`../../packages/protocol/src/i18n/${lang}/export.json`, import.meta.url), 'utf8'),
    ) as { group: { tempPrefix: string } }
  ).group.tempPrefix;

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

async function createFromSelection(page: Page, lang: Lang, shot: string): Promise<Group> {
  const d = (key: string, params?: Record<string, string | number>) => text(lang, `dispatch:${key}`, params);
  const listed = await selectAround(page, mixed, lang);
  expect(listed).toEqual(mixed.map((m) => m.id).sort((a, b) => a - b));
  const dialog = page.getByRole('dialog').filter({ hasText: d('selection.title', { count: 3 }) });
  const before = await groups(page);

  // the device without a cluster number is named; cancelling creates nothing
  await dialog.getByRole('button', { name: buttonName(d('group.fromSelection')) }).click();
  const confirm = page.getByRole('dialog').filter({ hasText: d('group.missingTitle') });
  await expect(confirm).toContainText(WITHOUT);
  for (const name of WITH) await expect(confirm).not.toContainText(name);
  await page.screenshot({ path: artifact(`${shot}-confirm`) });
  await confirm.getByRole('button', { name: buttonName(text(lang, 'common:action.cancel')) }).click();
  await expect(confirm).toBeHidden();
  expect((await groups(page)).length).toBe(before.length);

  // continuing creates the group with the two devices that have one
  await dialog.getByRole('button', { name: buttonName(d('group.fromSelection')) }).click();
  await pressUntilClosed(
    page.getByRole('dialog').filter({ hasText: d('group.missingTitle') }),
    text(lang, 'common:action.ok'),
  );
  const prefix = prefixOf(lang);
  const nameRe = new RegExp(`^${escape(prefix)}\\d{14}\\d$`);
  const toast = page.locator('.ant-message-notice').filter({ hasText: prefix });
  await expect(toast).toBeVisible();
  const toastName = /"([^"]+)"|“([^”]+)”|「([^」]+)」/.exec(await toast.innerText());
  await page.screenshot({ path: artifact(`${shot}-created`) });
  const after = await groups(page);
  const created = after.filter((g) => !before.some((b) => b.tgid === g.tgid));
  expect(created).toHaveLength(1);
  const group = created[0]!;
  expect(group.tg_name).toMatch(nameRe);
  if (toastName) expect(toastName.slice(1).find(Boolean)).toBe(group.tg_name);
  else expect(await toast.innerText()).toContain(group.tg_name);
  expect(group.preconfig).toBe(0);
  expect([...group.uids].sort((a, b) => a - b)).toEqual(
    mixed
      .slice(0, 2)
      .map((m) => m.id)
      .sort((a, b) => a - b),
  );
  // 24 hours of life from its creation
  const life = Date.parse(group.expires!) - Date.now();
  expect(life).toBeGreaterThan(23.9 * 3_600_000);
  expect(life).toBeLessThanOrEqual(24 * 3_600_000);
  // the date-time in the name is the creation time (server local time, the same host)
  const stamp = group.tg_name.slice(prefix.length, prefix.length + 14);
  const now = new Date();
  const local = `${now.getFullYear()}${String(now.getMonth() + 1).padStart(2, '0')}${String(now.getDate()).padStart(2, '0')}`;
  expect(stamp.slice(0, 8)).toBe(local);
  await dialog
    .locator('.ant-modal-footer')
    .getByRole('button', { name: buttonName(d('action.close')) })
    .click();

  // the group tab lists it, temporary, with its members' live online count
  await page.getByRole('tab', { name: d('tab.group') }).click();
  await searchGroup(page, group.tg_name);
  const node = page.getByTestId('group-tab').locator(`[data-testid="group-node"][data-tgid="${group.tgid}"]`);
  await expect(node).toContainText(group.tg_name);
  await expect(node).toContainText(d('groupTab.temporary'));
  await expect(node.getByTestId('group-count')).toHaveText(d('groupTab.count', { online: 2, total: 2 }));
  await page.screenshot({ path: artifact(`${shot}-group-tab`) });
  await page.getByRole('tab', { name: d('tab.person') }).click();
  return group;
}

async function warnWithoutCodes(page: Page, lang: Lang, shot: string) {
  const d = (key: string, params?: Record<string, string | number>) => text(lang, `dispatch:${key}`, params);
  const listed = await selectAround(page, lone, lang);
  expect(listed).toEqual(lone.map((m) => m.id).sort((a, b) => a - b));
  const dialog = page.getByRole('dialog').filter({ hasText: d('selection.title', { count: 2 }) });
  const before = await groups(page);
  await dialog.getByRole('button', { name: buttonName(d('group.fromSelection')) }).click();
  const warning = page
    .locator('.ant-message-notice')
    .filter({ hasText: d('group.noneHasCode', { names: '' }).slice(0, 8) });
  await expect(warning).toBeVisible();
  for (const name of LONE) await expect(warning).toContainText(name);
  // the toast slides in: let it settle before the screenshot
  await page.waitForTimeout(400);
  await page.screenshot({ path: artifact(`${shot}-warning`) });
  await expect(page.getByRole('dialog').filter({ hasText: d('group.missingTitle') })).toHaveCount(0);
  expect((await groups(page)).map((g) => g.tgid)).toEqual(before.map((g) => g.tgid));
  await dialog
    .locator('.ant-modal-footer')
    .getByRole('button', { name: buttonName(d('action.close')) })
    .click();
}

test('temporary group from a map selection: confirm without the devices lacking a cluster number; none with one warns and creates nothing', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await place(mixed, spots[0]!);
  await place(lone, spots[1]!);
  await login(page, ACCOUNTS.dispatcher.username, ACCOUNTS.dispatcher.password);
  await page.goto('/dispatch/emergency');
  await expect(page.getByTestId('emergency-page')).toBeVisible();
  const zhGroup = await createFromSelection(page, 'zh-CN', 'temp-group-zh-CN');
  await warnWithoutCodes(page, 'zh-CN', 'temp-group-zh-CN');

  await page.goto('/menu');
  await switchLanguage(page, 'en-US');
  // the devices report again (still online, still on the map)
  await place(mixed, spots[0]!);
  await place(lone, spots[1]!);
  await page.goto('/dispatch/emergency');
  await expect(page.getByTestId('device-counts')).toContainText('Online');
  const enGroup = await createFromSelection(page, 'en-US', 'temp-group-en-US');
  expect(enGroup.tgid).not.toBe(zhGroup.tgid);
  await warnWithoutCodes(page, 'en-US', 'temp-group-en-US');
});

test('a selected device deleted meanwhile: the server refuses naming it, nothing is created, the page stays sound', async ({
  page,
  newUser,
}) => {
  const zh: Lang = 'zh-CN';
  await place([gone], spots[2]!);
  await login(page, ACCOUNTS.dispatcher.username, ACCOUNTS.dispatcher.password);
  await page.goto('/dispatch/emergency');
  await expect(page.getByTestId('emergency-page')).toBeVisible();
  expect(await selectAround(page, [gone], zh)).toEqual([gone.id]);
  const before = await groups(page);

  // an administrator deletes the device while the selection is open
  const admin = await newUser();
  await login(admin, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  const res = await admin.request.post('/rest/oam/recorder/del', { data: { id: gone.id } });
  expect(((await res.json()) as { code: number }).code).toBe(200);

  const dialog = page.getByRole('dialog').filter({ hasText: text(zh, 'dispatch:selection.title', { count: 1 }) });
  await dialog.getByRole('button', { name: buttonName(text(zh, 'dispatch:group.fromSelection')) }).click();
  const refusal = page
    .locator('.ant-message-notice')
    .filter({ hasText: text(zh, 'errors:group.unknownDevices', { ids: String(gone.id) }) });
  await expect(refusal).toBeVisible();
  expect((await groups(page)).map((g) => g.tgid)).toEqual(before.map((g) => g.tgid));
  // the button works again (no stuck state) and the page logged no error (checked by the fixture)
  await dialog.getByRole('button', { name: buttonName(text(zh, 'dispatch:group.fromSelection')) }).click();
  await expect(refusal.first()).toBeVisible();
});
