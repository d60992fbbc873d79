import { Api } from '../../packages/protocol/src/endpoints';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, login, switchLanguage } from '../support/console';
import { data, gbSipPort, moving, openGb } from '../support/gb';
import { text } from '../support/texts';

/**
 * The console's GB mode end to end (issue 16 sections 3 and 5): GB mode switched on through the
 * settings API, a simulated GB28181 device (@bwc/simulator/gb) registers with the server's SIP
 * platform at the address gbconfig/get names, the video patrol page passes its init steps and shows
 * the device with its channels in the GB tree, a channel plays (its picture moves), a PTZ command
 * from the panel reaches the device (the simulator's ptzLog), screenshots in zh-CN and en-US.
 */
const DEVICE_ID = '34020000001320000901';
const DEVICE_NAME = 'E2E国标NVR';
const CHANNELS = 2;

test.describe.configure({ timeout: 300_000 });

/** Bytes of an HTTP-FLV stream read for up to `ms` (at least its 13-byte header once data flows). */
async function flvBytes(url: string, ms: number): Promise<number> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), ms);
  let total = 0;
  try {
    const res = await fetch(url, { signal: abort.signal });
    expect(res.status, `GET ${url}`).toBe(200);
    const reader = res.body!.getReader();
    while (total < 64 * 1024) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
    }
    abort.abort();
  } catch (err) {
    if (!abort.signal.aborted) throw err;
  } finally {
    clearTimeout(timer);
  }
  return total;
}

test('GB mode: a simulated GB device in the GB tree, a channel plays, PTZ reaches the device; zh-CN and en-US', async ({
  page,
}) => {
  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  // a SIP port of this server's own, so that e2e servers running side by side do not fight over 5060
  const gb = await openGb(page, gbSipPort(0));
  const simLog: string[] = [];
  try {
    // ---- the server's SIP platform runs once GB mode is on; the device registers where gbconfig says
    const device = gb.device({ deviceId: DEVICE_ID, name: DEVICE_NAME, channels: CHANNELS });
    device.on('streaming', (e) => simLog.push(`streaming ${e.channelId} pid ${e.pid}`));
    device.on('streamStopped', (e) => simLog.push(`stopped ${e.channelId} ${e.reason}`));
    device.on('warn', (w) => simLog.push(`warn ${w}`));
    expect(await device.start(), 'the simulated device registered').toBe(true);

    // ---- video patrol: the init steps, then the device and its channels in the GB tree
    await page.goto('/monitor/patrol');
    const screen = page.getByTestId('video-patrol-page');
    await expect(screen).toHaveAttribute('data-mode', 'gb');
    const tree = page.getByTestId('gb-tree');
    await expect(tree).toBeVisible({ timeout: 60_000 });
    // part of its id (the other GB specs' devices share the first 14 digits)
    await tree.getByRole('searchbox').fill(DEVICE_ID.slice(-8));
    await tree.getByRole('searchbox').press('Enter');
    const deviceRow = tree.locator('.ant-tree-treenode').filter({ hasText: DEVICE_NAME });
    await expect(deviceRow.first()).toBeVisible({ timeout: 60_000 });
    const channels = tree.locator('.ant-tree-treenode').filter({ has: page.locator('[data-itemtype="camera"]') });
    await expect(channels).toHaveCount(CHANNELS, { timeout: 60_000 });
    await expect(tree.locator('[data-itemtype="device"][data-online="1"]')).toHaveCount(1);

    // ---- a channel opens on the wall with its PTZ panel; PTZ from the panel reaches the device
    await page.getByTestId('wall-split').locator('.ant-segmented-item').first().click();
    await channels.first().locator('.ant-tree-title').click();
    const view = page.getByTestId('live-view').first();
    await expect(view).toBeVisible();
    const ptz = page.getByTestId('gb-ptz');
    await ptz.getByLabel(text('zh-CN', 'video:gb.ptz.up'), { exact: true }).click();
    await expect(page.getByText(text('zh-CN', 'video:gb.ptz.sent')).first()).toBeVisible();
    // channels are listed by name: the first row is the device's first channel
    await expect
      .poll(() => device.ptzLog.map((c) => `${c.channelId}:${c.action}`), { timeout: 30_000 })
      .toContain(`${device.channelIds[0]}:up`);
    await page.screenshot({ path: artifact('gb-mode-zh-CN') });

    await switchLanguage(page, 'en-US');
    await expect(ptz).toContainText(text('en-US', 'video:gb.ptz.preset'));
    await ptz.getByLabel(text('en-US', 'video:gb.ptz.stop'), { exact: true }).click();
    await expect
      .poll(() => device.ptzLog.map((c) => `${c.channelId}:${c.action}`), { timeout: 30_000 })
      .toContain(`${device.channelIds[0]}:stop`);
    await page.screenshot({ path: artifact('gb-mode-en-US') });

    // ---- the gateway serves the channel's FLV (HTTP-FLV read here), then the tile plays and its picture moves
    const play = await data<{ flv: string; has_audio: number }>(
      await page.request.post(Api.gbPlay.path, { data: { channel: device.channelIds[0] } }),
    );
    // the simulated device sends G.711A in its PS
    expect(play.has_audio).toBe(1);
    expect(await flvBytes(new URL(play.flv, page.url()).href, 20_000), 'FLV bytes from the gateway').toBeGreaterThan(
      13,
    );
    await expect(view).toHaveAttribute('data-state', 'playing', { timeout: 90_000 });
    await expect.poll(() => moving(view), { timeout: 60_000, intervals: [500] }).toBeGreaterThan(50);
    // with sound: the tile offers unmute (as for body cameras), and the click unmutes the video
    const mute = view.getByTestId('live-mute');
    await expect(mute).toHaveCount(1);
    await view.hover();
    await mute.click();
    await expect.poll(() => view.locator('video').evaluate((v: HTMLVideoElement) => v.muted)).toBe(false);
    await page.screenshot({ path: artifact('gb-mode-playing-en-US') });
  } catch (err) {
    console.error(`simulated device: ${simLog.join('; ')}`);
    throw err;
  } finally {
    await gb.close();
  }
});
