import type { GbDevice as GbDeviceRow, Page as ListPage } from '@bwc/protocol';
import type { Page } from '@playwright/test';
import { Api } from '../../packages/protocol/src/endpoints';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, buttonName, login, switchLanguage } from '../support/console';
import { data, gbSettings, gbSipPort, openGb, saveGb, type GbSession } from '../support/gb';
import { text } from '../support/texts';

/**
 * The operations centre's GB28181 device screen end to end (issue 16): with GB mode off it says so
 * and links to the GB settings; switched on (a SIP port of this server's own) and with no device it
 * names the SIP address devices register to; a simulated GB device registers, shows online in the
 * table with its DeviceInfo and its channels, a refresh reads a channel it gained, the administrator
 * renames it and sees the new name.
 * Screenshots in zh-CN and en-US.
 */
// ids 10 apart across the GB specs: a device's channels take the serials after its own
const DEVICE_ID = '34020000001320000921';
const DEVICE_NAME = 'E2E国标设备';
const NEW_NAME = 'E2E南门录像机';
const CHANNELS = 2;
const SCREEN = '/oamcenter/PlatformAdmin/downAdmin';

test.describe.configure({ timeout: 300_000 });

/** The device's row of gbdevice/list (undefined before it registered). */
async function listed(page: Page): Promise<GbDeviceRow | undefined> {
  const answer = await data<ListPage<GbDeviceRow>>(await page.request.get(`${Api.gbDeviceList.path}?key=${DEVICE_ID}`));
  return answer.list.find((d) => d.devgbid === DEVICE_ID);
}

test('GB devices: off notice, where to register, a simulated device online with DeviceInfo and channels, renamed; zh-CN and en-US', async ({
  page,
}) => {
  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  const saved = await gbSettings(page);
  let gb: GbSession | null = null;
  try {
    // ---- GB mode off: the screen says so and links to the GB settings
    await saveGb(page, { ...saved, gb_mode: 0 });
    await page.goto(SCREEN);
    const screen = page.getByTestId('gb-devices-page');
    const off = screen.getByTestId('gb-devices-off');
    await expect(off).toContainText(text('zh-CN', 'oamcenter:gbDevice.off.title'));
    await expect(off.getByRole('link', { name: text('zh-CN', 'oamcenter:gbDevice.off.link') })).toHaveAttribute(
      'href',
      '/system/player/gbconfig',
    );

    // ---- on, no device yet: the SIP address devices register to
    const sipPort = gbSipPort(2);
    gb = await openGb(page, sipPort);
    const { sip } = gb;
    await page.reload();
    await expect(screen.getByTestId('gb-devices-sip-address')).toHaveText(`${sip.ocxIp}:${sipPort}`);
    await expect(screen.getByTestId('gb-devices-off')).toHaveCount(0);
    await page.screenshot({ path: artifact('gb-devices-empty-zh-CN') });

    // ---- a simulated device registers where gbconfig says; the server stores its DeviceInfo and Catalog
    const device = gb.device({ deviceId: DEVICE_ID, name: DEVICE_NAME, channels: CHANNELS });
    expect(await device.start(), 'the simulated device registered').toBe(true);
    await expect
      .poll(async () => listed(page), { message: 'DeviceInfo and Catalog stored', timeout: 60_000 })
      .toMatchObject({ lineon: 1, name: DEVICE_NAME, firmware: '1.0', channel_count: CHANNELS });

    // ---- the table: online, DeviceInfo, transport, channels
    await page.reload();
    await expect(screen.getByTestId('gb-devices-empty')).toHaveCount(0);
    const keyword = page
      .getByRole('search')
      .locator('.bwc-search-bar-item', { hasText: text('zh-CN', 'oamcenter:gbDevice.filter.keyword') })
      .locator('input');
    await keyword.fill(DEVICE_ID.slice(-6));
    await keyword.press('Enter');
    await expect(page).toHaveURL(/key=/);
    const row = screen.locator('tr.ant-table-row').filter({ hasText: DEVICE_ID });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(DEVICE_NAME);
    await expect(row).toContainText('BWC-SIM / SIM-IPC / 1.0');
    await expect(row).toContainText('UDP');
    await expect(row).toContainText(text('zh-CN', 'oamcenter:gbDevice.state.online'));
    await expect(row.getByTestId('gb-device-channel-count')).toHaveText(String(CHANNELS));

    // ---- its channels
    await row.getByText(text('zh-CN', 'oamcenter:gbDevice.action.channels'), { exact: true }).click();
    const channels = page.getByTestId('gb-device-channels');
    await expect(channels.locator('tr.ant-table-row')).toHaveCount(CHANNELS);
    for (const id of device.channelIds) await expect(channels).toContainText(id);
    await expect(channels).toContainText(`${DEVICE_NAME} CH1`);
    await page.screenshot({ path: artifact('gb-devices-channels-zh-CN') });
    await page.locator('.ant-drawer-close').click();
    await expect(channels).toHaveCount(0);

    // ---- the device gains a channel: refresh asks DeviceInfo and Catalog again (audited)
    device.channelIds.push('34020000001310000999');
    await row.getByText(text('zh-CN', 'oamcenter:gbDevice.action.refresh'), { exact: true }).click();
    await expect(page.locator('.ant-message-notice')).toContainText(
      text('zh-CN', 'oamcenter:gbDevice.refreshed', { name: DEVICE_NAME }),
    );
    await expect(row.getByTestId('gb-device-channel-count')).toHaveText(String(CHANNELS + 1));
    device.channelIds.pop();
    await row.getByText(text('zh-CN', 'oamcenter:gbDevice.action.refresh'), { exact: true }).click();
    await expect(row.getByTestId('gb-device-channel-count')).toHaveText(String(CHANNELS));
    // the refresh toasts gone before the rename's
    await expect(page.locator('.ant-message-notice')).toHaveCount(0, { timeout: 15_000 });

    // ---- rename it
    await row.getByText(text('zh-CN', 'oamcenter:action.edit'), { exact: true }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('gb-device-form-gbid')).toHaveText(DEVICE_ID);
    const name = dialog.getByLabel(text('zh-CN', 'oamcenter:gbDevice.field.name'), { exact: true });
    await expect(name).toHaveValue(DEVICE_NAME);
    await name.fill(NEW_NAME);
    await dialog.getByRole('button', { name: buttonName(text('zh-CN', 'oamcenter:action.save')) }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toContainText(NEW_NAME);
    expect((await listed(page))?.name).toBe(NEW_NAME);
    await page.screenshot({ path: artifact('gb-devices-zh-CN') });

    await switchLanguage(page, 'en-US');
    await expect(screen).toContainText(text('en-US', 'oamcenter:gbDevice.title'));
    // the language menu and the save toast out of the picture
    await page.keyboard.press('Escape');
    await screen.click({ position: { x: 5, y: 5 } });
    await expect(page.locator('.ant-dropdown:not(.ant-dropdown-hidden)')).toHaveCount(0);
    await expect(page.locator('.ant-message-notice')).toHaveCount(0);
    await expect(row).toContainText(text('en-US', 'oamcenter:gbDevice.state.online'));
    await expect(row).toContainText(NEW_NAME);
    // the table scrolled to its end: channels, last position and unit beside the fixed GB id and name
    await screen.locator('.ant-table-content').evaluate((el) => {
      el.scrollLeft = el.scrollWidth;
    });
    await expect(row).toContainText(text('en-US', 'oamcenter:gbDevice.action.channels'));
    await page.screenshot({ path: artifact('gb-devices-en-US') });
  } finally {
    await gb?.close();
    await saveGb(page, saved);
  }
});
