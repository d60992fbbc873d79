import type { GbRecording } from '@bwc/protocol';
import { GB_STREAM_FPS } from '@bwc/simulator/gb';
import type { Locator, Page } from '@playwright/test';
import { Api } from '../../packages/protocol/src/endpoints';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, login, switchLanguage } from '../support/console';
import { data, gbSipPort, moving, openGb } from '../support/gb';
import { text } from '../support/texts';

/**
 * History replay in GB mode end to end (issue 16 section 1): GB mode on through the settings API, a
 * simulated GB28181 device registers, /monitor/playback shows the GB tree, a channel's recordings on
 * the device (RecordInfo: the simulator's 10-minute segments since it started) come back on the
 * timeline and in the list, one plays through gbplay with start/end (the device's Playback INVITE)
 * and its picture moves; pause and resume, a seek by a click on the progress bar under the picture
 * (the device is told the clicked offset, the recording time jumps there, the picture goes on, no new
 * INVITE) and a speed of 4x (the picture decodes faster, the recording time runs faster); screenshots
 * in zh-CN and en-US. Once the device leaves, its playback ends and a search says it is offline.
 */
// ids 10 apart across the GB specs: a device's channels take the serials after its own
const DEVICE_ID = '34020000001320000911';
const DEVICE_NAME = 'E2E国标回放NVR';

test.describe.configure({ timeout: 300_000 });

/**
 * The playback page in GB mode: the channel picked in the GB tree, its recordings searched; the
 * device's answer as the server passed it on (videoreplay/gbsearch).
 */
async function searchRecordings(page: Page): Promise<GbRecording[]> {
  await page.goto('/monitor/playback');
  await expect(page.getByTestId('playback-page')).toHaveAttribute('data-mode', 'gb');
  const tree = page.getByTestId('gb-tree');
  await tree.getByRole('searchbox').fill(DEVICE_ID);
  await tree.getByRole('searchbox').press('Enter');
  await expect(tree.locator('.ant-tree-treenode').filter({ hasText: DEVICE_NAME }).first()).toBeVisible({
    timeout: 60_000,
  });
  const channel = tree.locator('.ant-tree-treenode').filter({ has: page.locator('[data-itemtype="camera"]') });
  await expect(channel).toHaveCount(1);
  await channel.locator('.ant-tree-title').click();
  const answer = page.waitForResponse((res) => new URL(res.url()).pathname === Api.gbRecordSearch.path);
  await page.getByTestId('gb-replay-search').click();
  return data<GbRecording[]>(await answer);
}

/** Frames the player's video decodes a second, over a 2 s window. */
async function decodedFps(view: Locator): Promise<number> {
  return view.evaluate(async (root) => {
    const video = root.querySelector('video') as HTMLVideoElement;
    const before = video.getVideoPlaybackQuality().totalVideoFrames;
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, 2000));
    return ((video.getVideoPlaybackQuality().totalVideoFrames - before) * 1000) / (performance.now() - t0);
  });
}

test('GB history replay: the device answers RecordInfo, its recordings show on the timeline and in the list, one plays; zh-CN and en-US', async ({
  page,
}) => {
  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  // a SIP port of this spec's own (gb-mode.spec uses offset 0)
  const gb = await openGb(page, gbSipPort(1));
  const simLog: string[] = [];
  try {
    const device = gb.device({ deviceId: DEVICE_ID, name: DEVICE_NAME, channels: 1 });
    device.on('streaming', (e) => simLog.push(`streaming ${e.channelId} pid ${e.pid}`));
    device.on('streamStopped', (e) => simLog.push(`stopped ${e.channelId} ${e.reason}`));
    device.on('warn', (w) => simLog.push(`warn ${w}`));
    expect(await device.start(), 'the simulated device registered').toBe(true);
    const channelId = device.channelIds[0]!;

    // ---- zh-CN: the device's recordings on the timeline and in the list, the first one plays
    const found = await searchRecordings(page);
    // the simulator's segments: 10 minutes each from before it started, the last one up to now
    const own = device.recordings(channelId, new Date(Date.now() - 86_400_000), new Date());
    expect(found.length).toBeGreaterThan(0);
    expect(found[0]).toMatchObject({ channel: channelId, type: 'time', start: own[0]!.StartTime.replace('T', ' ') });
    await expect(page.getByTestId('gb-replay-count')).toHaveText(
      text('zh-CN', 'playback:gb.found', { count: found.length }),
    );
    await expect(page.getByTestId('replay-bar')).toHaveCount(found.length);
    const rows = page.getByTestId('gb-replay-list').locator('tbody tr');
    await expect(rows).toHaveCount(Math.min(found.length, 10));
    await expect(rows.first()).toContainText(text('zh-CN', 'playback:gb.types.time'));
    await expect(rows.first()).toContainText('0:10:00');
    await rows.first().getByTestId('gb-replay-play').click();
    const player = page.getByTestId('gb-replay-player');
    const view = player.getByTestId('live-view');
    await expect(view).toHaveAttribute('data-state', 'playing', { timeout: 90_000 });
    await expect.poll(() => moving(view), { timeout: 60_000, intervals: [500] }).toBeGreaterThan(50);
    expect(simLog.some((l) => l.startsWith(`streaming ${channelId}`))).toBe(true);
    // the simulated device sends G.711A (gbplay has_audio 1): the sound control is offered
    await expect(view.getByTestId('live-mute')).toHaveCount(1);
    await page.screenshot({ path: artifact('gb-playback-zh-CN') });

    // pause: the device stops sending (MANSRTSP PAUSE), the picture stands still past the player's
    // 8 s stall watchdog without a reconnect; resume: it moves again
    const controls: string[] = [];
    device.on('playbackControl', (e) => controls.push(e.command));
    const pause = player.getByTestId('gb-replay-pause');
    await expect(pause).toHaveText(text('zh-CN', 'playback:gb.pause'));
    await pause.click();
    await expect(pause).toHaveAttribute('data-paused', 'true');
    await expect(player.getByTestId('gb-replay-paused')).toHaveText(text('zh-CN', 'playback:gb.paused'));
    expect(controls).toEqual(['pause']);
    // what was buffered plays out, then the picture stands still
    await expect.poll(() => moving(view), { timeout: 30_000, intervals: [500] }).toBe(0);
    const plays = simLog.filter((l) => l.startsWith('streaming')).length;
    await page.waitForTimeout(9_000);
    expect(await moving(view)).toBe(0);
    await expect(view).toHaveAttribute('data-state', 'playing');
    await page.screenshot({ path: artifact('gb-playback-paused-zh-CN') });
    await pause.click();
    await expect(pause).toHaveAttribute('data-paused', 'false');
    await expect.poll(() => moving(view), { timeout: 60_000, intervals: [500] }).toBeGreaterThan(50);
    expect(controls).toEqual(['pause', 'resume']);
    // no new INVITE: the same playback went on
    expect(simLog.filter((l) => l.startsWith('streaming')).length).toBe(plays);

    // seek at 1x by a click on the progress bar's rail (MANSRTSP PLAY Range), two minutes ahead of
    // the recording time shown: the rail is as wide as the picture, over a pixel a second of the
    // 10-minute recording, so the click lands where it was computed (a bar in the timeline's day row
    // is a few pixels wide: 32af671). The 4x step below has over 7 minutes of recording left.
    const time = player.getByTestId('gb-replay-time');
    const position = async () => Number(await time.getAttribute('data-position'));
    const progress = player.getByRole('slider', { name: text('zh-CN', 'playback:gb.seek') });
    await expect(progress).toBeEnabled();
    const last = Number(await progress.getAttribute('aria-valuemax'));
    const before = await position();
    const sought = before + 120;
    expect(sought, 'room after the seek for the 4x step').toBeLessThan(last - 240);
    const rail = player.locator('.ant-slider-rail');
    const box = (await rail.boundingBox())!;
    // the slider rounds the clicked point to a second: a pixel's worth either way, and one more
    const slack = Math.ceil(last / box.width) + 1;
    const seeks: number[] = [];
    device.on('playbackControl', (e) => e.command === 'seek' && seeks.push(e.offset));
    await rail.click({ position: { x: (box.width * sought) / last, y: box.height / 2 } });
    await expect.poll(() => seeks.length, { message: 'the device was told to seek' }).toBe(1);
    expect(Math.abs(seeks[0]! - sought)).toBeLessThanOrEqual(slack);
    // the recording time shown jumps there and runs on from it; the progress bar follows
    await expect.poll(position, { intervals: [200] }).toBeGreaterThanOrEqual(seeks[0]!);
    expect(await position()).toBeLessThan(seeks[0]! + 60);
    expect(Number(await progress.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(seeks[0]!);
    // the device plays on from there: the picture moves, and the video (past what it had buffered
    // before the seek) decodes frames at the stream's pace
    await expect.poll(() => moving(view), { timeout: 60_000, intervals: [500] }).toBeGreaterThan(50);
    await expect.poll(() => decodedFps(view), { timeout: 60_000, intervals: [500] }).toBeGreaterThan(GB_STREAM_FPS / 2);
    await expect(view).toHaveAttribute('data-state', 'playing');
    expect(controls).toEqual(['pause', 'resume', 'seek']);
    expect(simLog.filter((l) => l.startsWith('streaming')).length).toBe(plays);
    await page.screenshot({ path: artifact('gb-playback-seek-zh-CN') });

    // speed 4x (MANSRTSP Scale): the device sends four times the frames a second, the shown
    // recording time runs four times as fast
    const normalFps = await decodedFps(view);
    const speeds: number[] = [];
    device.on('playbackControl', (e) => e.command === 'speed' && speeds.push(e.scale));
    await player.getByTestId('gb-replay-speed').click();
    await page.locator('.ant-select-item-option[title="4×"]').click();
    await expect(player.getByTestId('gb-replay-speed')).toHaveText(text('zh-CN', 'playback:gb.scale', { scale: 4 }));
    expect(speeds).toEqual([4]);
    await expect
      .poll(async () => (await decodedFps(view)) / normalFps, { timeout: 60_000, intervals: [500] })
      .toBeGreaterThan(1.8);
    const from = await position();
    const t0 = Date.now();
    await expect.poll(position, { timeout: 10_000, intervals: [200] }).toBeGreaterThanOrEqual(from + 8);
    // 8 s of recording in at most 4 s (at 1x it would take 8 s)
    expect(Date.now() - t0).toBeLessThan(4_000);
    await page.screenshot({ path: artifact('gb-playback-speed-zh-CN') });

    // the player card with its controls: speed, pause, recording time and progress bar
    await player.screenshot({ path: artifact('gb-playback-controls-zh-CN') });

    // ---- en-US: search again; a bar of the timeline plays from where it was clicked
    await switchLanguage(page, 'en-US');
    const again = await searchRecordings(page);
    await expect(page.getByTestId('gb-replay-count')).toHaveText(
      text('en-US', 'playback:gb.found', { count: again.length }),
    );
    await page.getByTestId('replay-bar').first().click();
    await expect(view).toHaveAttribute('data-state', 'playing', { timeout: 90_000 });
    await expect.poll(() => moving(view), { timeout: 60_000, intervals: [500] }).toBeGreaterThan(50);
    const title = text('en-US', 'playback:gb.playing', { name: '\u0000', start: '', end: '' }).split('\u0000')[0]!;
    await expect(player).toContainText(title);
    await page.screenshot({ path: artifact('gb-playback-en-US') });
    await expect(player.getByTestId('gb-replay-time')).toContainText(
      text('en-US', 'playback:gb.position', { time: '\u0000' }).split('\u0000')[0]!,
    );
    await player.screenshot({ path: artifact('gb-playback-controls-en-US') });

    // ---- the device leaves (unregisters): its playback ends and a search says it is offline
    await device.stop();
    await expect(view).not.toHaveAttribute('data-state', 'playing', { timeout: 60_000 });
    await expect(page.getByTestId('gb-replay-search')).not.toHaveClass(/ant-btn-loading/);
    await page.getByTestId('gb-replay-search').click();
    const refusal = page.getByTestId('gb-replay-error');
    await expect(refusal).toContainText(text('en-US', 'errors:gb.offline'), { timeout: 60_000 });
    await expect(refusal).toContainText(text('en-US', 'playback:gb.failed', { name: `${DEVICE_NAME} CH1` }));
  } catch (err) {
    console.error(`simulated device: ${simLog.join('; ')}`);
    throw err;
  } finally {
    await gb.close();
  }
});
