import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, login, logout, switchLanguage } from '../support/console';
import { text } from '../support/texts';

/** Waits for the toast with `message` to be fully shown (its entry animation over), then takes the screenshot. */
async function shootToast(page: Page, message: string, name: string): Promise<void> {
  const toast = page.locator('.ant-message-notice').filter({ hasText: message });
  await expect(toast).toBeVisible();
  await expect(toast).toHaveCSS('opacity', '1');
  await page.screenshot({ path: artifact(name) });
}

/**
 * The shell logs a dispatcher onto the console service with the group_api
 * account of gis info, shows the group login message of spec part 2 section 8, caches the login
 * (bwc_-prefixed session-storage keys) and resumes it after a reload without logging on again.
 */
test.describe('console service login', () => {
  test('a dispatcher is logged onto the console service, the login survives a reload and ends with logout', async ({
    page,
  }) => {
    await login(page, ACCOUNTS.dispatcher.username, ACCOUNTS.dispatcher.password);
    await shootToast(page, text('zh-CN', 'realtime:group.success'), 'console-service-login-zh-CN');
    const uid = await page.evaluate(() => sessionStorage.getItem('bwc_login_uid'));
    expect(Number(uid)).toBeGreaterThan(100_000_000);
    const user = await page.evaluate(
      () => JSON.parse(sessionStorage.getItem('bwc_login_user') ?? '{}') as { username?: string },
    );
    expect(user.username).toBe(ACCOUNTS.dispatcher.username);
    expect(await page.evaluate(() => sessionStorage.getItem('bwc_upload_url_gfile'))).toContain(`uid=${uid}`);

    // a reload resumes the cached login: no second logon, so no message and the same clientid
    const clientid = await page.evaluate(() => sessionStorage.getItem('bwc_clientid'));
    await page.reload();
    await expect(page.getByTestId('user-menu')).toBeVisible();
    await expect.poll(() => page.evaluate(() => sessionStorage.getItem('bwc_clientid'))).toBe(clientid);
    await expect(page.locator('.ant-message').getByText(text('zh-CN', 'realtime:group.success'))).toHaveCount(0);

    await logout(page);
    expect(await page.evaluate(() => sessionStorage.getItem('bwc_login_uid'))).toBeNull();

    await switchLanguage(page, 'en-US');
    await login(page, ACCOUNTS.dispatcher.username, ACCOUNTS.dispatcher.password, 'en-US');
    await shootToast(page, text('en-US', 'realtime:group.success'), 'console-service-login-en-US');
    await logout(page, 'en-US');
    await switchLanguage(page, 'zh-CN');
  });
});
