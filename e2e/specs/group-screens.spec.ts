import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, buttonName, login, pressUntilClosed } from '../support/console';
import { deviceFleet, imei, offset, runTag, type ApiDevice } from '../support/devices';
import { mapFeatures } from '../support/map';
import { text } from '../support/texts';

/**
 * Group screens of issue 14 against the real server: the map's voice broadcast tool (a shape drawn
 * after the tool is armed makes a temporary group of the devices with a cluster number and asks for
 * its talk panel), then group management (/dispatch/voiceManage) lists that group as a table and as
 * a tree, and cluster intercom (/dispatch/cluster) shows it in its tree and puts it in the talk slot.
 */
const tag = runTag();
const NAMES = [`广播甲${tag}`, `广播乙${tag}`, `广播丙${tag}`];
let devices: ApiDevice[] = [];
let spot = { lng: 0, lat: 0 };

// eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture arguments from this pattern
test.beforeAll(async ({}, testInfo) => {
  const fleet = await deviceFleet(
    String(testInfo.project.use.baseURL),
    NAMES.map((hostname, i) => ({
      hostbody: `E2EBRD${tag}${i}`,
      imei: imei(`77${tag}0000${i}`),
      hostname,
      hostcode: `B${tag}${i}`,
      jq_hostcode: i < 2 ? `7${tag}${i}` : '',
      unit_bh: '440305010000',
    })),
  );
  devices = fleet.devices;
  const { gpscenter_lon: lng, gpscenter_lat: lat } = fleet.config;
  spot = offset(lng, lat, 0, -6_000);
});

const d = (key: string, params?: Record<string, string | number>) => text('zh-CN', `dispatch:${key}`, params);

async function groups(page: Page): Promise<{ tgid: number; tg_name: string; uids: number[] }[]> {
  const body = (await (await page.request.post('/rest/gis/gischannel/grouplist', { data: {} })).json()) as {
    data: { tgid: number; tg_name: string; uids: number[] }[];
  };
  return body.data;
}

test('voice broadcast from a drawn shape, then the group in group management and cluster intercom', async ({
  page,
}) => {
  for (const [i, device] of devices.entries())
    await device.send([{ time: new Date().toISOString(), ...offset(spot.lng, spot.lat, 10 * i, 8 * i) }]);
  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  await page.goto('/dispatch/emergency');
  const ids = devices.map((x) => x.id);
  await expect.poll(async () => (await mapFeatures(page, ids)).length, { timeout: 30_000 }).toBe(ids.length);
  const features = await mapFeatures(page, ids);
  const centre = [
    features.reduce((s, f) => s + f.coordinates[0], 0) / features.length,
    features.reduce((s, f) => s + f.coordinates[1], 0) / features.length,
  ];
  await page.evaluate((c) => {
    (window as unknown as { __bwcMap: { jumpTo(o: { center: number[]; zoom: number }): void } }).__bwcMap.jumpTo({
      center: c,
      zoom: 17,
    });
  }, centre);
  await page.waitForTimeout(500);
  const before = await groups(page);

  // the broadcast tool arms the rectangle; the shape opens the broadcast dialog
  await page.getByTestId('tool-broadcast').click();
  await expect(page.locator('.ant-message-notice').filter({ hasText: d('broadcast.drawShape') })).toBeVisible();
  const box = (await page.getByTestId('dispatch-map').boundingBox())!;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  await page.mouse.click(cx - 120, cy - 120);
  await page.waitForTimeout(150);
  await page.mouse.click(cx + 120, cy + 120);
  const dialog = page.getByRole('dialog').filter({ hasText: d('selection.broadcastTitle', { count: 3 }) });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(d('broadcast.explain', { hours: 24 }));
  await page.screenshot({ path: artifact('broadcast-dialog') });
  await dialog.getByTestId('broadcast-start').click();
  await pressUntilClosed(
    page.getByRole('dialog').filter({ hasText: d('group.missingTitle') }),
    text('zh-CN', 'common:action.ok'),
  );
  await expect(dialog).toBeHidden();
  const made = (await groups(page)).filter((g) => !before.some((b) => b.tgid === g.tgid));
  expect(made).toHaveLength(1);
  const group = made[0]!;
  expect([...group.uids].sort((a, b) => a - b)).toEqual(ids.slice(0, 2).sort((a, b) => a - b));
  await page.screenshot({ path: artifact('broadcast-started') });

  // group management: the table and the tree
  await page.goto('/dispatch/voiceManage');
  const page_ = page.getByTestId('voice-manage-page');
  await page_.getByRole('textbox', { name: d('voiceManage.field.name') }).fill(group.tg_name);
  await page_.getByRole('textbox', { name: d('voiceManage.field.name') }).press('Enter');
  const row = page_.locator('.ant-table-row').filter({ hasText: group.tg_name });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(d('groupTab.temporary'));
  // online is the trunk state 7 (console service); these devices only post positions over HTTP
  await expect(row.getByTestId('group-online')).toHaveText(d('voiceManage.onlineOf', { online: 0, total: 2 }));
  await expect(row.getByTestId('group-edit')).toBeEnabled();
  await page.screenshot({ path: artifact('voice-manage-table') });
  await page_.getByText(d('voiceManage.view.tree')).click();
  const node = page_.locator('.ant-tree-treenode').filter({ hasText: group.tg_name });
  await node.locator('.ant-tree-switcher').click();
  await expect(page_.getByTestId('group-tree-member')).toHaveCount(2);
  await expect(page_.getByText(NAMES[0]!)).toBeVisible();
  await page.screenshot({ path: artifact('voice-manage-tree') });

  // cluster intercom: the tree, a click puts the group in the talk slot
  await page.goto('/dispatch/cluster');
  const cluster = page.getByTestId('cluster-page');
  await cluster.getByPlaceholder(d('groupTab.search')).fill(group.tg_name);
  await cluster.getByPlaceholder(d('groupTab.search')).press('Enter');
  await cluster.locator('.ant-tree-treenode').filter({ hasText: group.tg_name }).getByText(group.tg_name).click();
  await expect(cluster.getByTestId('cluster-talk-slot')).toHaveAttribute('data-tgid', String(group.tgid));
  await expect(cluster.getByTestId('cluster-talk-slot')).toContainText(group.tg_name);
  await expect(cluster.getByRole('button', { name: buttonName(d('voiceManage.action.add')) })).toBeVisible();
  await page.screenshot({ path: artifact('cluster-page') });
});
