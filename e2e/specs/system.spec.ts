import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, buttonName, login } from '../support/console';
import { text } from '../support/texts';

/** the shipped system title (protocol SETTINGS_DEFAULTS.titleset; the specs cannot load the protocol's JSON catalogues) */
const DEFAULT_TITLE = '移动执法电子证据管理';

test.describe('system settings and announcements', () => {
  test('admin changes the system title: forbidden characters are refused, a valid title shows in the bar', async ({ page }) => {
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto('/system/systemset/titleset');
    const title = page.getByLabel(text('zh-CN', 'system:titleset.field.title'), { exact: true });
    await expect(title).not.toHaveValue('');
    const original = await title.inputValue();
    const save = page.getByRole('button', { name: buttonName(text('zh-CN', 'system:settings.save')) });

    await title.fill('指挥/平台');
    await save.click();
    await expect(page.getByText(text('zh-CN', 'validation:title.forbidden'))).toBeVisible();

    await title.fill('E2E 指挥平台');
    await save.click();
    await expect(page.getByTestId('nav-title')).toHaveText('E2E 指挥平台');
    // stored on the server, not only in this page
    await page.reload();
    await expect(page.getByTestId('nav-title')).toHaveText('E2E 指挥平台');
    await expect(title).toHaveValue('E2E 指挥平台');

    await title.fill(original);
    await save.click();
    // the shipped default title shows as the product name of the console language
    await expect(page.getByTestId('nav-title')).toHaveText(
      original === DEFAULT_TITLE ? text('zh-CN', 'common:app.productName') : original,
    );
  });

  test('admin adds and publishes an announcement; the dispatcher reads it on the home page', async ({ page, newUser }) => {
    const heading = `演练通知 ${Date.now() % 100000}`;
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto('/system/noticeEdit');

    await page.getByRole('button', { name: buttonName(text('zh-CN', 'system:notice.action.add')) }).click();
    const form = page.getByRole('dialog').filter({ hasText: text('zh-CN', 'system:notice.form.addTitle') });
    await expect(form).toBeVisible();
    await form.getByLabel(text('zh-CN', 'system:notice.form.title'), { exact: true }).fill(heading);
    await form.getByLabel(text('zh-CN', 'system:notice.form.content'), { exact: true }).fill('今晚 20:00 开展应急调度演练，请各单位值班人员准时在线。');
    await form.getByRole('button', { name: buttonName(text('zh-CN', 'system:notice.form.save')) }).click();
    await expect(form).toBeHidden();

    const row = page.locator('tr.ant-table-row').filter({ hasText: heading });
    await expect(row).toContainText(text('zh-CN', 'system:notice.status.draft'));
    await row.getByRole('button', { name: buttonName(text('zh-CN', 'system:notice.action.publish')) }).click();
    const confirm = page.locator('.ant-popconfirm').filter({ hasText: text('zh-CN', 'system:notice.confirm.publish') });
    await confirm.getByRole('button', { name: buttonName(text('zh-CN', 'components:table.confirm')) }).click();
    await expect(row).toContainText(text('zh-CN', 'system:notice.status.published'));
    await page.screenshot({ path: artifact('settings-notice-zh-CN'), fullPage: true });

    const dispatcher = await newUser();
    await login(dispatcher, ACCOUNTS.dispatcher.username, ACCOUNTS.dispatcher.password);
    const board = dispatcher.getByTestId('home-announcements');
    await expect(board.getByText(heading)).toBeVisible();
    await dispatcher.screenshot({ path: artifact('home-announcement-zh-CN'), fullPage: true });

    await page.goto('/menu');
    await expect(page.getByTestId('home-announcements').getByText(heading)).toBeVisible();
    await page.screenshot({ path: artifact('home-admin-announcement-zh-CN'), fullPage: true });

    // clean up so that a later run of the suite on the same data starts the same way
    await page.goto('/system/noticeEdit');
    await row.getByRole('button', { name: buttonName(text('zh-CN', 'system:notice.action.delete')) }).click();
    const sure = page.locator('.ant-popconfirm').filter({ hasText: text('zh-CN', 'system:notice.confirm.delete') });
    await sure.getByRole('button', { name: buttonName(text('zh-CN', 'components:table.confirm')) }).click();
    await expect(row).toHaveCount(0);
  });
});
