import type { Page } from '@playwright/test';
// protocol files directly: the protocol's index imports JSON catalogues, which Node's ESM loader
// refuses without import attributes
import { Api } from '../../packages/protocol/src/endpoints';
import { DEVICE_PROVISION_KEY } from '../playwright.config';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, buttonName, login, switchLanguage } from '../support/console';
import { apiPost, imei, runTag, type Envelope } from '../support/devices';
import { Terminal } from '../support/terminal';
import { text, type Lang } from '../support/texts';

/**
 * A terminal's emergency end to end: a body-worn camera with a cluster number, logged onto the
 * console service over a plain websocket, reports its position and raises an emergency
 * (req_emergency); the dispatcher's bell rings with it as with any SOS and locates it; the
 * dispatcher acknowledges it in the alarm history choosing how (false alarm, transferred), and
 * the terminal hears it (notice_emergency_handled with the processor and ack type).
 */
const TAG = runTag();
const HOSTBODY = `E2EEMG${TAG}`;
const HOSTNAME = '紧急测试';
const HOSTCODE = `77${TAG.slice(-4)}`;
const AT = { lng: 114.0579, lat: 22.5431 };

test.describe.configure({ timeout: 240_000 });

let terminal: Terminal;

// eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture arguments from this pattern
test.beforeAll(async ({}, testInfo) => {
  const base = String(testInfo.project.use.baseURL);
  const provisioned = await apiPost<{ devices: { hostbody: string; secret: string }[] }>(
    base,
    Api.deviceProvision.path,
    {
      devices: [
        { hostbody: HOSTBODY, imei: imei(`8677${TAG}000`), hostname: HOSTNAME, hostcode: HOSTCODE, jq_hostcode: `9${TAG}` },
      ],
    },
    DEVICE_PROVISION_KEY,
  );
  terminal = await Terminal.logon(base, HOSTBODY, provisioned.devices[0]!.secret);
  // its position through the service, into the same store as device API positions
  const report = await terminal.request('req_report_gps', { gps: [{ time: Date.now(), ...AT }] });
  expect(report).toMatchObject({ cmd_status: 0, accepted: 1 });
});
test.afterAll(() => terminal?.close());

async function processorName(page: Page): Promise<string> {
  const res = await page.request.get(Api.userInfo.path);
  const me = ((await res.json()) as Envelope<{ hostname: string; username: string }>).data;
  return me.hostname || me.username;
}

/** Raises an emergency and waits for the bell's row of it. */
async function emergencyRings(page: Page, message: string) {
  const rsp = await terminal.request('req_emergency', { ...AT, message });
  expect(rsp).toMatchObject({ cmd_status: 0, event_id: expect.any(Number) });
  const bell = page.getByTestId('alarm-bell');
  await expect(bell).toHaveAttribute('data-ringing', 'true');
  await bell.click();
  const row = page.getByTestId('alarm-bell-table-criticle').locator('tr.ant-table-row', { hasText: HOSTNAME }).first();
  await expect(row).toBeVisible();
  await expect(row).toContainText(`${HOSTNAME}(${HOSTCODE})`);
  return row;
}

/** Acknowledges the open emergency of the terminal in the alarm history with the given outcome. */
async function handleInHistory(page: Page, lang: Lang, outcome: 'falseAlarm' | 'transferred', note: string) {
  await page.goto(`/dispatch/alarm?device=${HOSTBODY}`);
  const open = page
    .getByTestId('alarm-history')
    .locator('tr.ant-table-row')
    .filter({ has: page.getByRole('button', { name: buttonName(text(lang, 'alarm:action.sure')) }) });
  await expect(open).toHaveCount(1);
  await open.getByRole('button', { name: buttonName(text(lang, 'alarm:action.sure')) }).click();
  const dialog = page.getByTestId('alarm-sure-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel(text(lang, 'alarm:ack.handled'))).toBeChecked();
  await dialog.getByLabel(text(lang, `alarm:ack.${outcome}`)).check();
  await dialog.getByTestId('alarm-sure-note').fill(note);
  await page
    .locator('.ant-modal-footer')
    .getByRole('button', { name: buttonName(text(lang, 'alarm:sure.ok')) })
    .click();
  const done = page.getByTestId('alarm-history').locator('tr.ant-table-row').filter({ hasText: note });
  await expect(done.getByTestId('alarm-ack-type')).toHaveText(text(lang, `alarm:ack.${outcome}`));
  return done;
}

test('a terminal raises an emergency over the console service: the bell rings and locates it; acknowledged in the console, the terminal hears how', async ({
  page,
}) => {
  await login(page, ACCOUNTS.dispatcher.username, ACCOUNTS.dispatcher.password);
  const processor = await processorName(page);
  await page.goto('/dispatch/emergency');
  await expect(page.getByTestId('emergency-page')).toBeVisible();

  // zh-CN: the bell rings with the terminal's emergency and locates it
  const row = await emergencyRings(page, `求助 ${TAG}`);
  await page.screenshot({ path: artifact('emergency-bell-zh-CN') });
  await row.getByTestId('alarm-bell-locate').click();
  await expect(page.getByTestId('alarm-locate-marker')).toBeVisible();
  await page.screenshot({ path: artifact('emergency-locate-zh-CN') });
  await page.keyboard.press('Escape');

  // handled as a false alarm: the terminal is told who and how
  const zhNote = `核实为误报 ${TAG}`;
  const zhRow = await handleInHistory(page, 'zh-CN', 'falseAlarm', zhNote);
  await expect(zhRow.getByTestId('alarm-sure-cell')).toContainText(processor);
  const falseAlarm = await terminal.next((m) => m.msg_code === 'notice_emergency_handled' && m.ack_type === 1);
  expect(falseAlarm).toMatchObject({ cmd_type: 2, uid: terminal.uid, processor, handled: 1 });
  await page.screenshot({ path: artifact('emergency-handled-zh-CN') });

  // en-US: a second emergency, transferred
  await switchLanguage(page, 'en-US');
  await page.goto('/dispatch/emergency');
  await expect(page.getByTestId('emergency-page')).toBeVisible();
  await emergencyRings(page, `help ${TAG}`);
  await page.screenshot({ path: artifact('emergency-bell-en-US') });
  await page.keyboard.press('Escape');
  await handleInHistory(page, 'en-US', 'transferred', `sent to the patrol unit ${TAG}`);
  const transferred = await terminal.next((m) => m.msg_code === 'notice_emergency_handled' && m.ack_type === 2);
  expect(transferred).toMatchObject({ uid: terminal.uid, processor, handled: 1 });
  await page.screenshot({ path: artifact('emergency-handled-en-US') });
  // one notice per acknowledgement, nothing for the ones that closed nothing
  expect(terminal.notices('notice_emergency_handled')).toHaveLength(2);
});
