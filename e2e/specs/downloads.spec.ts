import { readFile } from 'node:fs/promises';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, buttonName, login } from '../support/console';
import { text } from '../support/texts';

test.describe('download center', () => {
  test('admin uploads a download shown on the home page; the file comes back under its own name', async ({ page }) => {
    const name = `执法仪驱动 ${Date.now() % 100000}`;
    const fileName = 'bwc-driver-notes.txt';
    const content = 'BWC driver notes\n执法记录仪驱动安装说明\n';
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto('/system/download_2');

    await page.getByRole('button', { name: buttonName(text('zh-CN', 'system:download.action.add')) }).click();
    const form = page.getByRole('dialog').filter({ hasText: text('zh-CN', 'system:download.form.addTitle') });
    await expect(form).toBeVisible();
    await form.getByLabel(text('zh-CN', 'system:download.form.name'), { exact: true }).fill(name);
    await form.getByLabel(text('zh-CN', 'system:download.form.version'), { exact: true }).fill('1.0.2');
    await form.getByLabel(text('zh-CN', 'system:download.form.is_index'), { exact: true }).click();

    // a file type outside the allowed list is refused before anything is sent
    const picker = form.locator('input[type=file]');
    await picker.setInputFiles({ name: 'install.sh', mimeType: 'text/x-sh', buffer: Buffer.from('echo hi\n') });
    await form.getByRole('button', { name: buttonName(text('zh-CN', 'system:download.form.save')) }).click();
    await expect(form.getByText(text('zh-CN', 'validation:file.type'))).toBeVisible();

    await picker.setInputFiles({ name: fileName, mimeType: 'text/plain', buffer: Buffer.from(content) });
    await form.getByRole('button', { name: buttonName(text('zh-CN', 'system:download.form.save')) }).click();
    await expect(form).toBeHidden();
    const row = page.locator('tr.ant-table-row').filter({ hasText: name });
    await expect(row).toContainText(fileName);
    await page.screenshot({ path: artifact('settings-downloads-zh-CN'), fullPage: true });

    await page.goto('/menu');
    const item = page.getByTestId('download-item').filter({ hasText: name });
    await expect(item).toBeVisible();
    const [download] = await Promise.all([page.waitForEvent('download'), item.getByRole('button', { name: buttonName(text('zh-CN', 'home:download.action')) }).click()]);
    expect(download.suggestedFilename()).toBe(fileName);
    expect(await readFile(await download.path(), 'utf8')).toBe(content);

    // clean up
    await page.goto('/system/download_2');
    await row.getByRole('button', { name: buttonName(text('zh-CN', 'system:download.action.delete')) }).click();
    const sure = page.locator('.ant-popconfirm').filter({ hasText: text('zh-CN', 'system:download.confirm.delete') });
    await sure.getByRole('button', { name: buttonName(text('zh-CN', 'components:table.confirm')) }).click();
    await expect(row).toHaveCount(0);
  });
});
