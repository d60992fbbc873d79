import { expect, test, type Locator, type Page } from '@playwright/test';
import { ACCOUNTS, login, switchLanguage } from '../support/console';
import { deviceFleet, imei, runTag } from '../support/devices';

/**
 * Issue 10 item 7: in English, table headers broke inside words ("Severit/y", "Oper/ation") and
 * IMEIs wrapped onto two lines. On a 1280-pixel screen, no header cell of these tables takes more
 * than one line, and a device's IMEI in the recorder list is one line.
 */
test.use({ viewport: { width: 1280, height: 760 } });

/** How many lines the text of an element takes (its line boxes, by their tops). */
function linesOf(cell: Locator): Promise<number> {
  return cell.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const tops = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    return tops.size;
  });
}

async function headersOnOneLine(page: Page, path: string) {
  await page.goto(path);
  const headers = page.locator('.ant-table-thead > tr > th');
  await expect(headers.first()).toBeVisible();
  const texts = await headers.allInnerTexts();
  const wrapped: string[] = [];
  for (let i = 0; i < texts.length; i++) {
    if (!texts[i]!.trim()) continue;
    if ((await linesOf(headers.nth(i))) > 1) wrapped.push(texts[i]!.replace(/\s+/g, ' '));
  }
  expect(wrapped, `${path}: headers on more than one line`).toEqual([]);
}

test('en-US table headers and IMEIs stay on one line', async ({ page, baseURL }) => {
  const tag = runTag();
  const imeiOf = imei(`8613${tag}000`);
  await deviceFleet(baseURL!, [
    { hostbody: `L${tag}00088`, imei: imeiOf, hostname: `Officer Layout ${tag}`, hostcode: `0${tag}` },
  ]);
  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  await switchLanguage(page, 'en-US');

  for (const path of ['/dispatch/alarm', '/configcenter/DataDictionary', '/configcenter/LogAudit/OperationLog', '/dispatch/emergency']) {
    await headersOnOneLine(page, path);
  }

  await headersOnOneLine(page, `/oamcenter/deviceAdmin/recorderAdmin?keyword=${imeiOf}`);
  const cell = page.locator('.ant-table-tbody td', { hasText: imeiOf });
  await expect(cell).toHaveCount(1);
  expect(await linesOf(cell)).toBe(1);
});
