import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, login, navMenu, openDropdownItem, switchLanguage } from '../support/console';
import { text } from '../support/texts';

test.describe('who sees what', () => {
  test('admin sees the system settings and the version and licence dialog', async ({ page }) => {
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);

    await page.getByTestId('version-button').click();
    const dialog = page.getByRole('dialog').filter({ hasText: text('zh-CN', 'shell:version.title') });
    await expect(dialog).toBeVisible();
    // the demo licence is registered: days left and the used/allowed counts are shown
    await expect(dialog.getByText(text('zh-CN', 'shell:version.registeredYes'))).toBeVisible();
    await expect(dialog.getByText(text('zh-CN', 'shell:version.macCode'))).toBeVisible();
    await expect(dialog.getByText(/\d+\s*\/\s*\d+/).first()).toBeVisible();
    await page.screenshot({ path: artifact('version-dialog-zh-CN'), fullPage: true });
    await dialog.locator('.ant-modal-close').click();
    await expect(dialog).toBeHidden();

    await openDropdownItem(page, 'settings-menu', text('zh-CN', 'menu:systemset'));
    // systemset redirects to its first page, the title settings
    await expect(page).toHaveURL(/\/system\/systemset\/titleset$/);
    await expect(page.getByText(text('zh-CN', 'menu:titleset')).first()).toBeVisible();
    await page.screenshot({ path: artifact('settings-titleset-zh-CN'), fullPage: true });

    await switchLanguage(page, 'en-US');
    await expect(page.getByText(text('en-US', 'menu:titleset')).first()).toBeVisible();
    await page.screenshot({ path: artifact('settings-titleset-en-US'), fullPage: true });
    await switchLanguage(page, 'zh-CN');
  });

  test('the dispatcher sees neither the system settings nor the version dialog', async ({ page }) => {
    await login(page, ACCOUNTS.dispatcher.username, ACCOUNTS.dispatcher.password);
    const menu = navMenu(page);
    await expect(menu.getByText(text('zh-CN', 'menu:dispatch'), { exact: true })).toBeVisible();
    await expect(menu.getByText(text('zh-CN', 'menu:monitor'), { exact: true })).toBeVisible();
    await expect(menu.getByText(text('zh-CN', 'menu:configcenter'), { exact: true })).toHaveCount(0);
    await expect(page.getByTestId('version-button')).toHaveCount(0);

    await page.getByTestId('settings-menu').hover();
    await expect(page.getByRole('menuitem', { name: text('zh-CN', 'shell:settingsMenu.localSave') })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: text('zh-CN', 'menu:systemset') })).toHaveCount(0);

    // typing the address does not open the settings either
    await page.goto('/system/systemset/titleset');
    await expect(page.getByText(text('zh-CN', 'common:noPermission.title'))).toBeVisible();
    await page.screenshot({ path: artifact('dispatcher-no-permission-zh-CN'), fullPage: true });
  });
});
