import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, buttonName, login, switchLanguage } from '../support/console';
import { text, type Lang } from '../support/texts';

/** The GB mode flag as the signed-in console reads it (user context `gb`). */
async function gbFlag(page: Page): Promise<number> {
  const res = await page.request.get('/rest/user/user/get_context');
  return ((await res.json()) as { data: { gb: number } }).data.gb;
}

const field = (page: Page, lang: Lang, name: string) =>
  page.getByLabel(text(lang, `system:gbconfig.field.${name}`), { exact: true });
const save = (page: Page, lang: Lang) =>
  page.getByRole('button', { name: buttonName(text(lang, 'system:settings.save')) }).click();
const gbSwitch = (page: Page, lang: Lang) =>
  page.getByRole('switch', { name: text(lang, 'system:gbconfig.field.gb_mode') });

test('GB28181 settings: refused and saved in zh-CN, GB mode switched on and off again in en-US', async ({ page }) => {
  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  await page.goto('/system/player/gbconfig');
  let lang: Lang = 'zh-CN';
  const status = page.getByTestId('gbconfig-status');
  await expect(status).toHaveText(text(lang, 'system:gbconfig.status.off'));
  await expect(page.getByRole('menuitem', { name: text(lang, 'menu:gbconfig') })).toBeVisible();
  await expect(field(page, lang, 'LocalPort')).toHaveValue('5060');
  await expect(gbSwitch(page, lang)).not.toBeChecked();

  // a 9-digit domain is refused with the schema's message
  await field(page, lang, 'SipDomain').fill('440305000');
  await save(page, lang);
  await expect(page.getByText(text(lang, 'validation:gb.sipDomain'))).toBeVisible();

  await field(page, lang, 'SipDomain').fill('4403050001');
  await field(page, lang, 'SipId').fill('44030500012000000001');
  await field(page, lang, 'LocalPort').fill('15060');
  await gbSwitch(page, lang).click();
  await save(page, lang);
  await expect(page.getByText(text(lang, 'success:saved')).first()).toBeVisible();
  await expect.poll(() => gbFlag(page)).toBe(1);
  // the server started GB28181 access on the saved port before it answered
  await expect(status).toHaveAttribute('data-state', 'running');
  await expect(status).toHaveText(text(lang, 'system:gbconfig.status.runningAll', { port: 15060 }));
  await page.reload();
  await expect(field(page, lang, 'LocalPort')).toHaveValue('15060');
  await expect(field(page, lang, 'SipDomain')).toHaveValue('4403050001');
  await expect(gbSwitch(page, lang)).toBeChecked();
  await page.screenshot({ path: artifact('gb-settings-zh-CN'), fullPage: true });

  lang = 'en-US';
  await switchLanguage(page, lang);
  await expect(status).toHaveText(text(lang, 'system:gbconfig.status.runningAll', { port: 15060 }));
  await field(page, lang, 'AliveTimeoutCnt').fill('0');
  await save(page, lang);
  await expect(page.locator('.ant-form-item-explain-error')).toHaveText(/must be from 1 to 10/);
  await page.screenshot({ path: artifact('gb-settings-en-US'), fullPage: true });

  // back to the defaults, GB mode off: the other specs run in GIS mode
  await field(page, lang, 'AliveTimeoutCnt').fill('3');
  await field(page, lang, 'LocalPort').fill('5060');
  await field(page, lang, 'SipDomain').fill('3402000000');
  await field(page, lang, 'SipId').fill('34020000002000000001');
  await gbSwitch(page, lang).click();
  await save(page, lang);
  await expect(page.getByText(text(lang, 'success:saved')).first()).toBeVisible();
  await expect.poll(() => gbFlag(page)).toBe(0);
  await expect(status).toHaveText(text(lang, 'system:gbconfig.status.off'));
});
