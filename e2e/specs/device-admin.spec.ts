import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, buttonName, login, pressUntilClosed } from '../support/console';
import { imei, runTag } from '../support/devices';
import { text } from '../support/texts';

/**
 * Body camera management end to end (/oamcenter/deviceAdmin/recorderAdmin): an administrator adds
 * a camera through the console's form, with the officer account it belongs to, and sees its access
 * secret once; a remark-only edit keeps the officer; the officer is cleared, then the camera deleted.
 * The form once sent nothing on save (it checked a field it does not have) and no test noticed.
 */
const TAG = runTag();
const HOSTBODY = `E2EADM${TAG}`;
const IMEI = imei(`86${TAG}00000`.slice(0, 14));
const PERSON = `设备测试${TAG.slice(-3)}`;

const oam = (key: string) => text('zh-CN', `oamcenter:${key}`);

function formItem(scope: Locator, label: string): Locator {
  return scope
    .locator('.ant-form-item')
    .filter({ has: scope.page().locator('.ant-form-item-label').getByText(label, { exact: true }) });
}

function row(page: Page): Locator {
  return page.locator('tr.ant-table-row').filter({ hasText: HOSTBODY });
}

/** The row's cell under the column with this header. */
async function cell(page: Page, header: string): Promise<Locator> {
  const headers = page.locator('.ant-table-thead th');
  const titles = await headers.allInnerTexts();
  const index = titles.findIndex((t) => t.trim() === header);
  expect(index, `column ${header}`).toBeGreaterThanOrEqual(0);
  return row(page).locator('td').nth(index);
}

async function openEdit(page: Page): Promise<Locator> {
  await row(page)
    .getByRole('button', { name: buttonName(oam('action.edit')) })
    .click();
  const form = page.getByRole('dialog').filter({ hasText: oam('recorder.form.editTitle') });
  await expect(form).toBeVisible();
  return form;
}

test('body cameras: added with an officer through the form, edited without losing him, cleared, deleted', async ({
  page,
}) => {
  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  await page.goto('/oamcenter/deviceAdmin/recorderAdmin');
  await page.getByRole('button', { name: buttonName(oam('recorder.action.add')) }).click();
  const form = page.getByRole('dialog').filter({ hasText: oam('recorder.form.addTitle') });
  await expect(form).toBeVisible();
  await formItem(form, oam('recorder.field.hostbody')).locator('input').fill(HOSTBODY);
  await formItem(form, 'IMEI').locator('input').fill(IMEI);
  await formItem(form, oam('recorder.field.hostname')).locator('input').fill(PERSON);
  await formItem(form, oam('recorder.field.hostcode')).locator('input').fill(TAG);
  // the unit: the tree's first unit
  await formItem(form, oam('recorder.field.unit')).locator('.ant-select-selector').click();
  const unit = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-tree-title').first();
  const unitName = (await unit.innerText()).trim();
  await unit.click();
  // the officer: found by username
  const owner = formItem(form, oam('recorder.field.owner'));
  await expect(owner).toContainText(oam('recorder.owner.help'));
  await owner.locator('.ant-select-selector').click();
  await owner.locator('input').fill(ACCOUNTS.dispatcher.username);
  const option = page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')
    .filter({ hasText: `(${ACCOUNTS.dispatcher.username})` });
  await expect(option).toHaveCount(1);
  const ownerLabel = (await option.innerText()).trim();
  const ownerName = ownerLabel.replace(/ \(.*\)$/, '');
  await option.click();
  await page.screenshot({ path: artifact('device-admin-form-zh-CN') });
  await pressUntilClosed(form, oam('action.save'));

  // the secret is shown once
  const secret = page.getByTestId('device-secret');
  await expect(secret).toBeVisible();
  expect((await secret.innerText()).trim().length).toBeGreaterThan(8);
  // antd's own button of an information box (知道了)
  const info = page.locator('.ant-modal-confirm').filter({ has: secret });
  await info.locator('.ant-modal-confirm-btns button').click();
  await expect(info).toBeHidden();

  await page.goto(`/oamcenter/deviceAdmin/recorderAdmin?dev.keyword=${HOSTBODY}`);
  await expect(row(page)).toHaveCount(1);
  await expect(await cell(page, oam('recorder.field.owner'))).toHaveText(ownerName);
  await expect(row(page)).toContainText(unitName.replace(/\s*\d+\/\d+$/, ''));
  await page.screenshot({ path: artifact('device-admin-list-zh-CN') });

  // a remark-only edit keeps the officer
  let edit = await openEdit(page);
  await expect(formItem(edit, oam('recorder.field.owner'))).toContainText(ownerName);
  await formItem(edit, oam('recorder.field.remark')).locator('textarea').fill('换电池');
  await pressUntilClosed(edit, oam('action.save'));
  await expect(await cell(page, oam('recorder.field.owner'))).toHaveText(ownerName);

  // cleared, the camera has no officer
  edit = await openEdit(page);
  await expect(formItem(edit, oam('recorder.field.remark')).locator('textarea')).toHaveValue('换电池');
  const ownerField = formItem(edit, oam('recorder.field.owner'));
  await ownerField.locator('.ant-select').hover();
  await ownerField.locator('.ant-select-clear').click();
  await expect(ownerField).toContainText(oam('recorder.owner.none'));
  await pressUntilClosed(edit, oam('action.save'));
  await expect(await cell(page, oam('recorder.field.owner'))).toHaveText('-');

  // deleted
  await row(page)
    .getByRole('button', { name: buttonName(oam('action.delete')) })
    .click();
  await pressUntilClosed(
    page.locator('.ant-popconfirm').filter({ hasText: oam('recorder.confirmDelete') }),
    text('zh-CN', 'components:table.confirm'),
  );
  await expect(row(page)).toHaveCount(0);
});
