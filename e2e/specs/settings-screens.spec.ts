import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, buttonName, login } from '../support/console';
import { text } from '../support/texts';

/** A valid 1x1 PNG (the server sniffs image bytes, not only the extension). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

test.describe('settings screens', () => {
  test('login security: the default reset password follows the password rules; a valid one is saved and kept', async ({
    page,
  }) => {
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto('/system/systemset/normalset');
    const password = page.getByLabel(text('zh-CN', 'system:normalset.field.default_password'), { exact: true });
    await expect(password).not.toHaveValue('');
    const original = await password.inputValue();
    const save = page.getByRole('button', { name: buttonName(text('zh-CN', 'system:settings.save')) });

    await password.fill('abcdefgh');
    await save.click();
    await expect(page.getByText(text('zh-CN', 'validation:password.classes'))).toBeVisible();
    await password.fill('Abc@1');
    await expect(page.getByText(text('zh-CN', 'validation:password.length'))).toBeVisible();

    await password.fill('Reset@2026');
    await save.click();
    await expect(page.getByText(text('zh-CN', 'success:saved')).first()).toBeVisible();
    await page.reload();
    await expect(password).toHaveValue('Reset@2026');
    await page.screenshot({ path: artifact('settings-normalset-zh-CN'), fullPage: true });

    await password.fill(original);
    await save.click();
    await expect(page.getByText(text('zh-CN', 'success:saved')).first()).toBeVisible();
  });

  test('dispatch config: recording duration and live split are saved and read back', async ({ page }) => {
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto('/system/player');
    await expect(page).toHaveURL(/\/system\/player\/digitailmap$/);
    const split = page.locator('.ant-card').filter({ hasText: text('zh-CN', 'system:play.title') });
    await split.locator('.ant-select').click();
    await page
      .locator('.ant-select-item-option')
      .filter({ hasText: text('zh-CN', 'system:play.split', { count: 16 }) })
      .click();
    await split.getByRole('button', { name: buttonName(text('zh-CN', 'system:settings.save')) }).click();
    await expect(page.getByText(text('zh-CN', 'success:saved')).first()).toBeVisible();

    await page.goto('/system/player/cloudstorage');
    // antd's radio buttons hide the input: click the button
    await page
      .locator('label.ant-radio-button-wrapper')
      .filter({ hasText: text('zh-CN', 'system:cloudstorage.minutes', { count: 60 }) })
      .click();
    await page.getByRole('button', { name: buttonName(text('zh-CN', 'system:settings.save')) }).click();
    await expect(page.getByText(text('zh-CN', 'success:saved')).first()).toBeVisible();

    await page.reload();
    await expect(
      page.getByRole('radio', { name: text('zh-CN', 'system:cloudstorage.minutes', { count: 60 }) }),
    ).toBeChecked();
    await page.goto('/system/player/digitailmap');
    await expect(page.locator('.ant-card').filter({ hasText: text('zh-CN', 'system:play.title') })).toContainText(
      text('zh-CN', 'system:play.split', { count: 16 }),
    );
  });

  test('login background: a wrong type is refused before upload, an image is uploaded, previewed and removed again', async ({
    page,
  }) => {
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto('/system/systemset/backset');
    const picker = page.locator('input[type=file]');
    await picker.setInputFiles({ name: 'bg.bmp', mimeType: 'image/bmp', buffer: Buffer.from('BM0000') });
    await expect(page.getByTestId('upload-problem')).toHaveText(text('zh-CN', 'validation:file.type'));
    await expect(page.getByRole('button', { name: buttonName(text('zh-CN', 'system:backset.send')) })).toBeDisabled();

    await picker.setInputFiles({ name: 'bg.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: buttonName(text('zh-CN', 'system:backset.send')) }).click();
    await expect(page.getByText(text('zh-CN', 'success:uploaded')).first()).toBeVisible();
    const preview = page.getByTestId('background-preview');
    await expect(preview).toBeVisible();
    expect(await preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
    await page.screenshot({ path: artifact('settings-backset-zh-CN'), fullPage: true });

    await page.getByRole('button', { name: buttonName(text('zh-CN', 'system:backset.restore')) }).click();
    const sure = page.locator('.ant-popconfirm').filter({ hasText: text('zh-CN', 'system:backset.restoreConfirm') });
    await sure.getByRole('button').last().click();
    await expect(page.getByText(text('zh-CN', 'system:backset.usingDefault'))).toBeVisible();
  });
});
