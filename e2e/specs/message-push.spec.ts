import type { Page } from '@playwright/test';
import { DEVICE_PROVISION_KEY } from '../playwright.config';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, buttonName, login, switchLanguage } from '../support/console';
import { apiPost, imei, runTag } from '../support/devices';
import { Terminal } from '../support/terminal';
import { text, type Lang } from '../support/texts';

/**
 * Message push (/dispatch/msgManage) against the real server: a terminal (a device with a cluster
 * number, online through the device API) logs on to the console service with a plain websocket
 * (no SDK: the shared Node terminal of support/terminal.ts); the dispatcher composes a message, picks the
 * terminal in the group-member picker and sends it now; the terminal receives notice_im with the
 * text, the records dialog shows it delivered, and once the terminal lists the conversation
 * (req_im_list) it shows it read. Done in zh-CN, then in en-US, with screenshots of each.
 */
const tag = runTag();
const HOSTNAME = `接收终端${tag}`;
const UNIT_PATH = ['深圳市公安局', '南山分局', '蛇口派出所'];

/** Composes a message, sends it to the terminal through the picker; answers the records dialog. */
async function composeAndSend(page: Page, lang: Lang, title: string, content: string) {
  const m = (key: string, params?: Record<string, string | number>) => text(lang, `msgpush:${key}`, params);
  await page.goto('/dispatch/msgManage');
  await expect(page.getByTestId('msg-manage-page')).toBeVisible();
  await page.getByRole('button', { name: buttonName(m('action.add')) }).click();
  const form = page.getByRole('dialog').filter({ hasText: m('form.addTitle') });
  await form.getByLabel(m('form.title')).fill(title);
  await form.getByLabel(m('form.content')).fill(content);
  await form.getByRole('button', { name: buttonName(m('form.save')) }).click();
  await expect(form).toBeHidden();
  const row = page.locator('tr.ant-table-row').filter({ hasText: title });
  await expect(row).toBeVisible();

  await row.getByText(m('action.send'), { exact: true }).click();
  const picker = page.getByRole('dialog').filter({ hasText: m('send.title', { title }) });
  await expect(picker).toBeVisible();
  for (const unit of UNIT_PATH) {
    const node = picker.locator('.ant-tree-treenode').filter({ hasText: unit }).first();
    await expect(node).toBeVisible();
    if (unit !== UNIT_PATH[UNIT_PATH.length - 1] || !(await picker.getByText(HOSTNAME).isVisible()))
      await node.locator('.ant-tree-switcher').click();
  }
  const terminalNode = picker.locator('.ant-tree-treenode').filter({ hasText: HOSTNAME });
  await expect(terminalNode.locator('.ant-tree-checkbox')).not.toHaveClass(/ant-tree-checkbox-disabled/);
  await terminalNode.locator('.ant-tree-checkbox').click();
  await expect(picker.getByRole('region', { name: text(lang, 'components:groupPicker.chosen') })).toContainText(HOSTNAME);
  await page.screenshot({ path: artifact(`message-push-${lang}-picker`) });
  await picker.getByRole('button', { name: buttonName(text(lang, 'components:groupPicker.send')) }).click();
  await expect(page.locator('.ant-message-notice').filter({ hasText: m(lang === 'en-US' ? 'send.sent_one' : 'send.sent', { count: 1 }) })).toBeVisible();
  const records = page.getByTestId('send-recipients');
  await expect(records).toBeVisible();
  return records.locator('tr.ant-table-row').filter({ hasText: HOSTNAME });
}

test('a message composed and sent to a terminal: delivered at once, read once the terminal lists it', async ({
  page,
}, testInfo) => {
  test.setTimeout(300_000);
  const base = String(testInfo.project.use.baseURL);
  const hostbody = `E2EMSG${tag}`;
  const provisioned = await apiPost<{ devices: { id: number; hostbody: string; secret: string }[] }>(
    base,
    '/rest/device/api/provision',
    {
      devices: [
        { hostbody, imei: imei(`87${tag}00001`), hostname: HOSTNAME, jq_hostcode: `7${tag}`, unit_bh: '440305010000' },
      ],
    },
    DEVICE_PROVISION_KEY,
  );
  const device = provisioned.devices[0]!;
  // online through the device API (the picker offers online terminals only)
  const { token } = await apiPost<{ token: string }>(base, '/rest/device/api/login', {
    device: device.hostbody,
    secret: device.secret,
  });
  await apiPost(base, '/rest/device/api/positions', { positions: [{ time: new Date().toISOString(), lat: 22.48, lng: 113.92 }] }, token);
  const terminal = await Terminal.logon(base, device.hostbody, device.secret);
  try {
    await sendInBothLanguages(page, terminal);
  } finally {
    terminal.close();
  }
});

/** In zh-CN, then en-US: compose, send, delivered, read. */
async function sendInBothLanguages(page: Page, terminal: Terminal): Promise<void> {
  await login(page, ACCOUNTS.dispatcher.username, ACCOUNTS.dispatcher.password);
  for (const lang of ['zh-CN', 'en-US'] as const) {
    const m = (key: string) => text(lang, `msgpush:${key}`);
    if (lang === 'en-US') {
      await page.goto('/menu');
      await switchLanguage(page, 'en-US');
    }
    const title = lang === 'zh-CN' ? `集合通知${tag}` : `Muster ${tag}`;
    const content = lang === 'zh-CN' ? '十分钟后在东门集合' : 'Gather at the east gate in ten minutes';
    const row = await composeAndSend(page, lang, title, content);
    // the terminal got it from the dispatcher's console account, title then content
    const notice = await terminal.next(
      (message) =>
        message.cmd_type === 2 &&
        message.msg_code === 'notice_im' &&
        (message.im as { content: string }).content === `${title}\n${content}`,
    );
    await expect(row).toContainText(m('state.delivered'));
    await expect(row).toContainText(m('state.online'));
    await page.screenshot({ path: artifact(`message-push-${lang}-delivered`) });

    // the terminal opens its conversation with the sender: read
    const from = (notice.im as { from: number }).from;
    expect((await terminal.request('req_im_list', { target: from })).cmd_status).toBe(0);
    await expect(row).toContainText(m('state.read'));
    const send = page.getByTestId('send-records').locator('tr.ant-table-row').first();
    await expect(send).toContainText('1');
    await page.screenshot({ path: artifact(`message-push-${lang}-read`) });
    const dialog = page.getByRole('dialog').filter({ hasText: text(lang, 'msgpush:records.title', { title }) });
    await dialog.getByRole('button', { name: /close|关闭/i }).click();
    await expect(dialog).toBeHidden();
    await expect(page.locator('tr.ant-table-row').filter({ hasText: title })).toBeVisible();
    await page.screenshot({ path: artifact(`message-push-${lang}-list`) });
  }
}
