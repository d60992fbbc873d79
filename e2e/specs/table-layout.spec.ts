import type { Locator, Page } from '@playwright/test';
// the protocol's endpoints file directly: its index imports JSON catalogues, which Node's ESM
// loader refuses without import attributes
import { Api } from '../../packages/protocol/src/endpoints';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, login, openScreen, switchLanguage } from '../support/console';
import { apiPost, deviceFleet, imei, runTag } from '../support/devices';
import { text, type Lang } from '../support/texts';

/**
 * English layout on a 1280-pixel screen (headers broke inside words, "Severit/y", "Oper/ation";
 * IMEIs wrapped onto two lines; the recorder list squeezed its unit column to "U…"; the alarm
 * history's sticky operation column covered the acknowledgement column; host names broke inside
 * their officer codes). No header cell of these tables takes more than one line or is cut off,
 * identifiers stay on one line, and no column lies under the sticky operation column.
 */
test.use({ viewport: { width: 1280, height: 760 } });

const AT = { lng: 114.0579, lat: 22.5431 };

/**
 * How many lines the text of each element takes: the tops of its text's line boxes, a line apart
 * (a wrapping element's box, such as the span of an ellipsis header, starts a few pixels above its
 * text on the same line). One call for all the elements: a round trip per cell made the list
 * screens test take minutes.
 */
function linesOfAll(cells: Locator): Promise<number[]> {
  return cells.evaluateAll((els) =>
    els.map((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      const tops = Array.from(range.getClientRects())
        .filter((r) => r.width > 0)
        .map((r) => r.top)
        .sort((x, y) => x - y);
      const lineHeight = parseFloat(getComputedStyle(el).fontSize) || 14;
      let lines = 0;
      let last = -Infinity;
      for (const top of tops) {
        if (top - last >= lineHeight / 2) lines++;
        last = top;
      }
      return lines;
    }),
  );
}

/** How many lines the text of one element takes (see linesOfAll). */
async function linesOf(cell: Locator): Promise<number> {
  await expect(cell).toHaveCount(1);
  return (await linesOfAll(cell))[0]!;
}

/**
 * Whether the text of each header cell is wider than the cell's content box, so that it ends in
 * "…" (measured in the cell's font: the layout reports the cut text's width, rounded).
 */
function areCut(cells: Locator): Promise<boolean[]> {
  return cells.evaluateAll((els) => {
    const context = document.createElement('canvas').getContext('2d')!;
    return els.map((el) => {
      const style = getComputedStyle(el);
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      // a pixel of slack: canvas and layout round differently
      return context.measureText((el.textContent ?? '').trim()).width > room + 1;
    });
  });
}

/** Header cells whose text takes two lines or is cut off ("U…": wider than its cell). */
async function badHeaders(page: Page, table: Locator): Promise<{ wrapped: string[]; cut: string[] }> {
  const headers = table.locator('.ant-table-thead > tr > th');
  await expect(headers.first()).toBeVisible();
  const texts = await headers.allInnerTexts();
  const lines = await linesOfAll(headers);
  const cutOff = await areCut(headers);
  const wrapped: string[] = [];
  const cut: string[] = [];
  for (let i = 0; i < texts.length; i++) {
    const label = texts[i]!.replace(/\s+/g, ' ').trim();
    if (!label) continue;
    if (lines[i]! > 1) wrapped.push(label);
    if (cutOff[i]) cut.push(label);
  }
  return { wrapped, cut };
}

async function headersFit(page: Page, what: string, table: Locator = page.locator('.ant-table').first()) {
  const { wrapped, cut } = await badHeaders(page, table);
  expect.soft(wrapped, `${what}: headers on more than one line`).toEqual([]);
  expect.soft(cut, `${what}: headers cut off`).toEqual([]);
}

async function shot(page: Page, name: string, lang: Lang) {
  await page.screenshot({ path: artifact(`table-layout-${name}-${lang}`) });
}

/** The left and right edges of an element. */
async function edges(element: Locator): Promise<{ left: number; right: number }> {
  const box = (await element.boundingBox())!;
  return { left: box.x, right: box.x + box.width };
}

test('tables fit a 1280-pixel screen in English and Chinese', async ({ page, baseURL }) => {
  const tag = runTag();
  const imeiOf = imei(`8613${tag}000`);
  const hostbody = `L${tag}00088`;
  const { devices } = await deviceFleet(baseURL!, [
    { hostbody, imei: imeiOf, hostname: `Officer Layout ${tag}`, hostcode: `0${tag}` },
  ]);
  const device = devices[0]!;
  await device.send([{ time: new Date().toISOString(), ...AT }]);
  await apiPost(baseURL!, Api.deviceSos.path, { time: Date.now(), ...AT, message: `layout ${tag}` }, device.token);

  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  for (const lang of ['en-US', 'zh-CN'] as const) {
    await switchLanguage(page, lang);

    for (const [path, name] of [
      ['/configcenter/DataDictionary', 'dictionary'],
      ['/configcenter/LogAudit/OperationLog', 'oplog'],
    ] as const) {
      await openScreen(page, path);
      await expect(page.locator('.ant-table-tbody tr.ant-table-row').first()).toBeVisible();
      await shot(page, name, lang);
      await headersFit(page, path);
    }

    // the recorder list: every header whole (the unit column was squeezed to "U…"), IMEI on one line
    await openScreen(page, `/oamcenter/deviceAdmin/recorderAdmin?dev.keyword=${imeiOf}`);
    const imeiCell = page.locator('.ant-table-tbody td', { hasText: imeiOf });
    await expect(imeiCell).toHaveCount(1);
    await shot(page, 'recorders', lang);
    await headersFit(page, 'recorders');
    expect.soft(await linesOf(imeiCell), 'IMEI on one line').toBe(1);

    // alarm history: the acknowledgement column lies left of the sticky operation column
    await openScreen(page, `/dispatch/alarm?device=${hostbody}`);
    const history = page.getByTestId('alarm-history');
    const row = history.locator('tr.ant-table-row').first();
    await expect(row).toBeVisible();
    await shot(page, 'alarm-history', lang);
    await headersFit(page, 'alarm history', history.locator('.ant-table'));
    const sureHeader = history.locator('.ant-table-thead th').filter({ hasText: text(lang, 'alarm:column.sure') });
    const operationHeader = history.locator('.ant-table-thead th.ant-table-cell-fix-right').first();
    const sure = await edges(sureHeader);
    const operation = await edges(operationHeader);
    expect
      .soft(sure.right, 'acknowledgement column under the operation column')
      .toBeLessThanOrEqual(operation.left + 1);
    const sureCell = row.getByTestId('alarm-sure-cell');
    expect
      .soft((await edges(sureCell)).right, 'acknowledgement cell under the operation column')
      .toBeLessThanOrEqual(operation.left + 1);
    // the device column: name with code, and the device number, one line each
    for (const line of await row.locator('.bwc-alarm-device-name, .bwc-alarm-device-key').all()) {
      expect.soft(await linesOf(line)).toBe(1);
    }

    // emergency host list: the name with its officer code on one line
    await openScreen(page, '/dispatch/emergency');
    const search = page.locator('input[data-testid="host-search"], [data-testid="host-search"] input');
    await search.fill(tag);
    await search.press('Enter');
    const hostList = page.getByTestId('host-list');
    const nameCell = hostList.locator('.ant-table-tbody td', { hasText: `(0${tag})` });
    await expect(nameCell).toHaveCount(1);
    await shot(page, 'host-list', lang);
    await headersFit(page, 'host list', hostList);
    expect.soft(await linesOf(nameCell), 'host name with code on one line').toBe(1);
    const didCell = hostList.locator('.ant-table-tbody td', { hasText: hostbody });
    await expect(didCell).toHaveCount(1);
    expect.soft(await linesOf(didCell), 'device number on one line').toBe(1);
  }
});

/**
 * The other list screens, empty or not: every header whole and on one line in both languages (the
 * workstation list's unit column had no width left and was drawn 0 pixels wide).
 */
const LIST_SCREENS = [
  '/oamcenter/deviceAdmin/workAdmin',
  '/oamcenter/deviceAdmin/recorderModel',
  '/oamcenter/PlatformAdmin/MediaGateway',
  '/oamcenter/PlatformAdmin/downAdmin',
  '/configcenter/userAdmin/accountAdmin',
  '/configcenter/userAdmin/RoleAdmin',
  '/configcenter/Admin/SensitiveWordAdmin',
  '/configcenter/MapConfig/ElectronicFence',
  '/dispatch/msgManage',
  '/dispatch/voiceManage',
  '/data/manage/law',
  '/data/manage/sensitivity',
  '/data/manage/outside',
  '/data/archive/lawDoc',
  '/data/archive/alram',
  '/data/archive/case',
  '/data/archive/sample',
  '/data/check/record',
  '/data/peerreview/review',
  '/data/edit/record',
  '/data/edit/deleted',
  '/monitor/alarm',
];

for (const lang of ['en-US', 'zh-CN'] as const) {
  test(`list screens: headers whole and on one line (${lang})`, async ({ page }) => {
    await page.goto('/login');
    await switchLanguage(page, lang);
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password, lang);
    for (const path of LIST_SCREENS) {
      await openScreen(page, path);
      await expect(page.locator('.ant-table-thead th').first()).toBeVisible();
      await headersFit(page, path);
    }
  });
}
