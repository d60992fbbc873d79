import type { Locator, Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, buttonName, login, switchLanguage } from '../support/console';
import { runTag } from '../support/devices';
import { text, type Lang } from '../support/texts';

/**
 * Issue 15 sections 2 and 3 beyond the recording's own path (evidence.spec): a supervisor registers
 * an officer's violation and closes it with the result; a case is registered and marked as a case
 * sample, which /data/archive/sample then lists; a scoring rubric is created and activated on
 * /data/peerreview/review, and the built-in one is activated again (evidence.spec scores with it).
 * Screenshots in zh-CN and en-US.
 */

const TAG = runTag();
const VIOLATION = `e2e 遮挡镜头 ${TAG}`;
const CASE = `e2e 典型案件 ${TAG}`;
const RUBRIC = `e2e 现场处置 ${TAG}`;

const rowOf = (page: Page, hasText: string) => page.locator('tr.ant-table-row').filter({ hasText });
const dialogOf = (page: Page, title: string) => page.getByRole('dialog').filter({ hasText: title });

async function pick(page: Page, combobox: Locator, option: string | null) {
  await combobox.click();
  const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  await expect(options.first()).toBeVisible();
  await (option === null ? options.first() : options.filter({ hasText: option }).first()).click();
}

async function shot(page: Page, name: string, lang: Lang) {
  await expect(page.locator('.ant-spin-spinning')).toHaveCount(0);
  await page.screenshot({ path: artifact(`archive-review-${name}-${lang}`) });
}

test('a violation registered and closed, a case marked as a sample and listed, a rubric created and activated', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const zh = 'zh-CN';
  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);

  // violation record: officer, kind, title, description; then closed with the handling result
  await page.goto('/data/archive/lawDoc?tab=violations');
  await page.getByRole('button', { name: buttonName(text(zh, 'archive:action.addViolation')) }).click();
  const add = dialogOf(page, text(zh, 'archive:form.addViolationTitle'));
  await pick(page, add.getByRole('combobox', { name: text(zh, 'archive:form.officer') }), null);
  await pick(
    page,
    add.getByRole('combobox', { name: text(zh, 'archive:form.violationType') }),
    text(zh, 'archive:violation.types.covered'),
  );
  await add.getByLabel(text(zh, 'archive:form.title'), { exact: true }).fill(VIOLATION);
  await add.getByLabel(text(zh, 'archive:form.description'), { exact: true }).fill('处警时用手遮挡镜头');
  await add.getByRole('button', { name: buttonName(text(zh, 'archive:action.save')) }).click();
  await expect(add).toBeHidden();
  const violation = rowOf(page, VIOLATION);
  await expect(violation).toContainText(text(zh, 'archive:violation.types.covered'));
  await expect(violation).toContainText(text(zh, 'archive:state.open'));
  await violation.getByRole('button', { name: buttonName(text(zh, 'archive:action.finish')) }).click();
  const close = page.getByRole('dialog').filter({ has: page.getByLabel(text(zh, 'archive:form.result')) });
  await close.getByLabel(text(zh, 'archive:form.result'), { exact: true }).fill('批评教育，责令整改');
  await close.getByRole('button', { name: buttonName(text(zh, 'archive:action.finish')) }).click();
  await expect(close).toBeHidden();
  await expect(violation).toContainText(text(zh, 'archive:state.closed'));
  await shot(page, 'violations', zh);

  // a case marked as a case sample with its summary
  await page.goto('/data/archive/case');
  await page.getByRole('button', { name: buttonName(text(zh, 'archive:action.addCase')) }).click();
  const addCase = dialogOf(page, text(zh, 'archive:form.addCaseTitle'));
  await addCase.getByLabel(text(zh, 'archive:form.title'), { exact: true }).fill(CASE);
  await addCase.getByRole('button', { name: buttonName(text(zh, 'archive:action.save')) }).click();
  await expect(addCase).toBeHidden();
  const caseRow = rowOf(page, CASE);
  await caseRow.getByRole('button', { name: buttonName(text(zh, 'archive:action.markSample')) }).click();
  const sample = page.getByRole('dialog').filter({ has: page.getByLabel(text(zh, 'archive:form.summary')) });
  await sample.getByLabel(text(zh, 'archive:form.summary'), { exact: true }).fill('全程录像，告知规范');
  await sample.getByRole('button', { name: buttonName(text(zh, 'archive:action.save')) }).click();
  await expect(sample).toBeHidden();
  await expect(caseRow).toContainText(text(zh, 'archive:state.sample'));
  await page.goto('/data/archive/sample');
  await expect(rowOf(page, CASE)).toContainText('全程录像，告知规范');
  await shot(page, 'sample', zh);

  // a rubric with two criteria, activated; then the built-in one again
  await page.goto('/data/peerreview/review?tab=rubrics');
  const editor = page.getByTestId('rubric-editor');
  const builtIn = editor.locator('tr.ant-table-row').filter({ has: page.locator('.ant-tag-green') });
  await expect(builtIn).toHaveCount(1);
  const builtInName = (await builtIn.locator('td').first().innerText()).trim();
  await page.getByTestId('rubric-new').click();
  const form = page.getByTestId('rubric-dialog');
  await form.getByLabel(text(zh, 'review:rubric.nameZh'), { exact: true }).fill(RUBRIC);
  await form.getByLabel(`${text(zh, 'review:rubric.key')} 1`, { exact: true }).fill('safety');
  await form.getByLabel(`${text(zh, 'review:rubric.labelZh')} 1`, { exact: true }).fill('现场安全');
  await form.getByTestId('rubric-add-criterion').click();
  await form.getByLabel(`${text(zh, 'review:rubric.key')} 2`, { exact: true }).fill('evidence');
  await form.getByLabel(`${text(zh, 'review:rubric.labelZh')} 2`, { exact: true }).fill('证据固定');
  await page.getByTestId('rubric-ok').click();
  await expect(form).toBeHidden();
  const created = editor.locator('tr.ant-table-row').filter({ hasText: RUBRIC });
  await expect(created).toContainText('现场安全');
  await created.locator('[data-testid^="rubric-activate-"]').click();
  await page.locator('.ant-popover:visible [data-testid="rubric-activate-ok"]').click();
  await expect(created.locator('.ant-tag-green')).toHaveText(text(zh, 'review:rubric.activated'));
  await shot(page, 'rubrics', zh);
  const again = editor.locator('tr.ant-table-row').filter({ hasText: builtInName });
  await again.locator('[data-testid^="rubric-activate-"]').click();
  await page.locator('.ant-popover:visible [data-testid="rubric-activate-ok"]').click();
  await expect(again.locator('.ant-tag-green')).toHaveCount(1);
  await expect(created.locator('.ant-tag-green')).toHaveCount(0);

  // English
  await switchLanguage(page, 'en-US');
  await page.goto('/data/archive/lawDoc?tab=violations');
  await expect(rowOf(page, VIOLATION)).toContainText(text('en-US', 'archive:state.closed'));
  await shot(page, 'violations', 'en-US');
  await page.goto('/data/archive/sample');
  await expect(rowOf(page, CASE)).toBeVisible();
  await shot(page, 'sample', 'en-US');
  await page.goto('/data/peerreview/review?tab=rubrics');
  await expect(page.getByTestId('rubric-editor').locator('tr.ant-table-row').filter({ hasText: RUBRIC })).toBeVisible();
  await shot(page, 'rubrics', 'en-US');
  await switchLanguage(page, 'zh-CN');
});
