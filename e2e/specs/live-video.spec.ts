import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Api } from '../../packages/protocol/src/endpoints';
import type { Locator, Page } from '@playwright/test';
import { DEVICE_PROVISION_KEY } from '../playwright.config';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, buttonName, expandUnits, login, switchLanguage } from '../support/console';
import { apiPost, imei } from '../support/devices';
import { text } from '../support/texts';
import { SimCamera } from '../../packages/simulator/src/camera';

/**
 * Live video end to end (issue 13): the simulator's devices (real ffmpeg cameras publishing H.264
 * over RTMP when told startlive) are opened on the video wall from the device tree; each tile's
 * picture is checked to move by reading its pixels twice; 1, 4 and 9 tiles are photographed in
 * zh-CN and en-US; a camera command answers its message; a device killed remotely shows the
 * offline message in its tile and plays again once woken.
 */
const STATION = { district: '南山分局', name: '西丽派出所', bh: '440305030000' };
const PREFIX = 'E2EVID';
const NAME = 'E2E视频';
const COUNT = 9;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

test.describe.configure({ timeout: 900_000 });

const names = Array.from({ length: COUNT }, (_, i) => `${NAME}${i + 1}`);

/**
 * Per tile: the pixels that differ between two frames 1.5 s apart, read from its video element,
 * and whether the tile said it was playing at both looks.
 */
async function moving(
  page: Page,
  tiles: Locator,
): Promise<{ changed: number; playing: boolean; state: string; overlay: string }[]> {
  return tiles.evaluateAll(async (views) => {
    const grab = (video: HTMLVideoElement) => {
      const canvas = document.createElement('canvas');
      canvas.width = 160;
      canvas.height = 90;
      const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
      ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
      return ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    };
    const videos = views.map((v) => v.querySelector('video') as HTMLVideoElement);
    const playingAtFirst = views.map((v) => v.getAttribute('data-state') === 'playing');
    const first = videos.map(grab);
    await new Promise((r) => setTimeout(r, 1500));
    return videos.map((video, i) => {
      const next = grab(video);
      let changed = 0;
      for (let p = 0; p < next.length; p += 4) if (Math.abs(next[p]! - first[i]![p]!) > 24) changed += 1;
      const state = views[i]!.getAttribute('data-state') ?? '';
      const overlay = views[i]!.querySelector('[data-testid="live-overlay"]')?.textContent ?? '';
      return { changed, playing: playingAtFirst[i]! && state === 'playing', state, overlay };
    });
  });
}

/**
 * Every tile plays and its picture moves (a black, frozen or never-playing tile fails). Each tile
 * must be seen playing with a moving picture, though not all of them in the same look: on a loaded
 * 2-core machine nine decoders beside nine encoders fall behind, a tile buffers now and then
 * ('stalled') and a picture frozen for 8 s is reconnected by the player. In the CI run of 19ebef9
 * no look in 60 s found all nine moving; in that of eb1e27d no moment in 90 s found all nine in
 * 'playing' (the most was 8), while every camera kept publishing.
 */
async function expectPlaying(page: Page, count: number): Promise<void> {
  const views = page.getByTestId('live-view');
  await expect(views).toHaveCount(count);
  const seen = new Set<number>();
  // per tile, the states it was seen in (with the overlay's text) and its most changed pixels:
  // printed when a tile never plays, so that a failure says where that tile stood
  const history = Array.from({ length: count }, () => ({ states: new Set<string>(), changed: 0 }));
  try {
    await expect
      .poll(
        async () => {
          (await moving(page, views)).forEach(({ changed, playing, state, overlay }, tile) => {
            if (playing && changed > 50) seen.add(tile);
            history[tile]!.states.add(overlay ? `${state} (${overlay})` : state);
            history[tile]!.changed = Math.max(history[tile]!.changed, changed);
          });
          return seen.size;
        },
        { timeout: 150_000, intervals: [500] },
      )
      .toBe(count);
  } catch (err) {
    const others = history.flatMap(({ states, changed }, tile) =>
      seen.has(tile) ? [] : [{ tile, changed, states: [...states] }],
    );
    // in the error itself: the end of a CI log shows the failures, not what the test printed
    throw new Error(
      `${count - seen.size} of ${count} tiles never seen playing with a moving picture: ${JSON.stringify(others)}`,
      { cause: err },
    );
  }
}

async function setSplit(page: Page, split: number): Promise<void> {
  await page.getByTestId('wall-split').locator('.ant-segmented-item').nth([1, 4, 6, 9, 16].indexOf(split)).click();
  await expect(page.getByTestId('video-wall')).toHaveAttribute('data-split', String(split));
}

async function openDevice(page: Page, name: string): Promise<void> {
  await page
    .getByTestId('video-wall-page')
    .locator('.ant-tree-treenode')
    .filter({ hasText: name })
    .locator('.ant-tree-title')
    .click();
}

test('video wall: 1, 4 and 9 moving pictures from the tree, camera command, offline and back', async ({
  page,
}, testInfo) => {
  const base = String(testInfo.project.use.baseURL);
  // ---- nine devices of the station, then the simulator runs them (their records stay ours)
  await apiPost(
    base,
    '/rest/device/api/provision',
    {
      devices: names.map((hostname, i) => ({
        hostbody: `${PREFIX}${String(i + 1).padStart(5, '0')}`,
        imei: imei(`869911${String(i + 1).padStart(8, '0')}`),
        hostname,
        hostcode: String(991000 + i),
        unit_bh: STATION.bh,
      })),
    },
    DEVICE_PROVISION_KEY,
  );
  const sim: ChildProcess = spawn(
    process.execPath,
    [
      ...['--import', 'tsx', 'packages/simulator/src/cli.ts'],
      ...['--devices', String(COUNT), '--prefix', PREFIX, '--server', base, '--interval', '2-4s'],
      ...['--provision-key', DEVICE_PROVISION_KEY, '--no-terminals', '--sos-rate', '0', '--offline-rate', '0'],
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const simLog: string[] = [];
  sim.stdout!.on('data', (d: Buffer) => simLog.push(String(d)));
  sim.stderr!.on('data', (d: Buffer) => simLog.push(String(d)));
  try {
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await page.goto('/dispatch/video');
    const tree = page.getByTestId('video-wall-page');
    await expandUnits(tree, ['深圳市公安局', STATION.district, STATION.name]);
    await tree.getByRole('searchbox').fill(NAME);
    await expect(tree.locator('.ant-tree-treenode').filter({ hasText: NAME })).toHaveCount(COUNT);

    // ---- one tile
    await setSplit(page, 1);
    await openDevice(page, names[0]!);
    await expectPlaying(page, 1);
    await page.screenshot({ path: artifact('live-1-zh') });

    // ---- a camera command from the tile: its message is shown
    // (once in a full CI run the first click on the menu item reached no handler and nothing was
    // sent, cause not found: the menu is opened and the item clicked again while no answer shows)
    const sent = page.locator('.ant-message').filter({ hasText: text('zh-CN', 'success:device.commandSent') });
    for (let attempt = 1; ; attempt++) {
      await page.getByTestId('live-view').first().hover();
      await page.getByTestId('live-commands').first().click();
      await page.getByRole('menuitem', { name: text('zh-CN', 'video:command.startmute') }).click();
      try {
        await expect(sent).toBeVisible({ timeout: 10_000 });
        break;
      } catch (err) {
        if (attempt === 3) throw err;
        await page.keyboard.press('Escape');
      }
    }

    // ---- four tiles
    await setSplit(page, 4);
    for (const name of names.slice(1, 4)) await openDevice(page, name);
    await expectPlaying(page, 4);
    await page.screenshot({ path: artifact('live-4-zh') });

    // ---- nine tiles
    await setSplit(page, 9);
    for (const name of names.slice(4, 9)) await openDevice(page, name);
    await expectPlaying(page, 9);
    await page.screenshot({ path: artifact('live-9-zh') });

    // ---- the same in English
    await switchLanguage(page, 'en-US');
    await expectPlaying(page, 9);
    await page.screenshot({ path: artifact('live-9-en') });
    await setSplit(page, 4);
    await page.screenshot({ path: artifact('live-4-en') });
    await setSplit(page, 1);
    await expect(page.locator('[data-testid="live-view"][data-state="playing"]').first()).toBeVisible();
    await page.screenshot({ path: artifact('live-1-en') });
    await setSplit(page, 4);

    // ---- a device killed remotely: its tile says offline; woken, it plays again by itself
    const imeiOf = imei('86991100000001');
    const kill = await page.request.post(Api.gisRemoteKill.path, { data: { imei: imeiOf, action: 'remote_kill' } });
    expect((await kill.json()).code).toBe(200);
    const first = page.getByTestId('live-view').first();
    await expect(first).toHaveAttribute('data-state', 'failed', { timeout: 60_000 });
    await expect(first.getByTestId('live-overlay')).toContainText(text('en-US', 'video:failure.offline'));
    await page.screenshot({ path: artifact('live-offline-en') });
    const wake = await page.request.post(Api.gisRemoteKill.path, { data: { imei: imeiOf, action: 'remote_wakeon' } });
    expect((await wake.json()).code).toBe(200);
    await expect(first).toHaveAttribute('data-state', 'playing', { timeout: 90_000 });
  } catch (err) {
    console.error(simLog.join('').slice(-4000));
    throw err;
  } finally {
    sim.kill('SIGTERM');
    await new Promise((r) => sim.once('exit', r));
  }
});

/**
 * A device driven by the test itself, as a terminal's firmware would: online with a fix, its
 * commands long-polled and acknowledged, its camera (the simulator's) publishing on startlive and
 * stopping on stoplive.
 */
async function terminal(base: string, hostbody: string, imeiText: string, hostname: string) {
  const provisioned = await apiPost<{
    devices: { id: number; secret: string }[];
    config: { gpscenter_lat: number; gpscenter_lon: number };
  }>(
    base,
    '/rest/device/api/provision',
    { devices: [{ hostbody, imei: imeiText, hostname, hostcode: '992001', unit_bh: STATION.bh }] },
    DEVICE_PROVISION_KEY,
  );
  const { token } = await apiPost<{ token: string }>(base, '/rest/device/api/login', {
    device: hostbody,
    secret: provisioned.devices[0]!.secret,
  });
  const { gpscenter_lat: lat, gpscenter_lon: lng } = provisioned.config;
  await apiPost(base, '/rest/device/api/positions', { positions: [{ time: Date.now(), lat, lng, speed: 3 }] }, token);
  const camera = new SimCamera({ identity: { hostname, hostbody } });
  let running = true;
  const loop = (async () => {
    while (running) {
      const res = await fetch(`${base}/rest/device/api/commands?wait=5`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const commands = ((await res.json()) as { data: { id: number; type: string; payload?: { url?: string } }[] })
        .data;
      for (const c of commands) {
        if (c.type === 'startlive' && c.payload?.url) await camera.start(c.payload.url);
        if (c.type === 'stoplive') await camera.stop();
        await apiPost(base, '/rest/device/api/commands/ack', { id: c.id, result: 'ok' }, token);
      }
    }
  })();
  return {
    id: provisioned.devices[0]!.id,
    camera,
    sos: () => apiPost(base, '/rest/device/api/sos', { lat, lng, message: 'e2e' }, token),
    stop: async () => {
      running = false;
      await camera.stop();
      await loop.catch(() => undefined);
    },
  };
}

test('an SOS opens its live view on the emergency screen and in video patrol; the ops centre lists, disconnects and stops it', async ({
  page,
  newUser,
}, testInfo) => {
  const base = String(testInfo.project.use.baseURL);
  const device = await terminal(base, 'E2ESOSLIVE01', imei('86991200000001'), 'E2E求助视频');
  try {
    // the dispatcher watches; the administrator runs the ops centre in a browser of his own
    await login(page, ACCOUNTS.dispatcher.username, ACCOUNTS.dispatcher.password);
    await page.goto('/dispatch/emergency');
    await expect(page.getByTestId('emergency-page')).toBeVisible();

    // ---- the SOS: the embedded bell opens the device (info window) and, 3 s later, its live view
    await device.sos();
    const dialog = page.locator('.bwc-live-dialog');
    await expect(dialog).toBeVisible({ timeout: 60_000 });
    await expect(dialog).toContainText('E2E求助视频');
    await expect(dialog.locator('[data-testid="live-view"][data-state="playing"]')).toHaveCount(1, { timeout: 60_000 });
    await expect
      .poll(async () => (await moving(page, dialog.getByTestId('live-view')))[0]?.changed ?? 0, {
        timeout: 60_000,
        intervals: [500],
      })
      .toBeGreaterThan(50);
    await page.screenshot({ path: artifact('live-sos-emergency-zh') });

    // ---- the ops centre: the stream, its viewer (the dispatcher); disconnect it
    const ops = await newUser();
    await login(ops, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    await ops.goto('/oamcenter/PlatformAdmin/MediaGateway');
    const row = ops.locator('.ant-table-row').filter({ hasText: 'E2E求助视频' });
    await expect(row).toBeVisible({ timeout: 30_000 });
    await row.locator('.ant-table-row-expand-icon').click();
    const viewer = ops.locator('.ant-table-expanded-row .ant-table-row').filter({ hasText: 'dispatcher' });
    await expect(viewer).toBeVisible();
    await ops.screenshot({ path: artifact('live-media-gateway-zh') });
    await viewer
      .getByRole('button', { name: buttonName(text('zh-CN', 'oamcenter:mediaGateway.action.disconnect')) })
      .click();
    await expect(dialog.getByTestId('live-view')).toHaveAttribute('data-state', 'ended', { timeout: 30_000 });
    await dialog.getByTestId('live-view').hover();
    await dialog.getByTestId('live-retry').click();
    await expect(dialog.getByTestId('live-view')).toHaveAttribute('data-state', 'playing', { timeout: 60_000 });

    // ---- stop the stream from the ops centre: the device is told stoplive and its camera stops
    await switchLanguage(ops, 'en-US');
    await expect(row).toBeVisible({ timeout: 30_000 });
    await ops.screenshot({ path: artifact('live-media-gateway-en') });
    await row.getByRole('button', { name: buttonName(text('en-US', 'oamcenter:mediaGateway.action.stop')) }).click();
    await ops.locator('.ant-popover').getByRole('button').last().click();
    await expect(row).toHaveCount(0, { timeout: 30_000 });
    await expect.poll(() => device.camera.running, { timeout: 30_000 }).toBe(false);

    // ---- video patrol: a new SOS opens the device on the wall by itself
    await page.goto('/monitor/patrol');
    await expect(page.getByTestId('video-patrol-page')).toBeVisible();
    await device.sos();
    const tile = page
      .getByTestId('video-patrol-page')
      .locator('[data-testid="live-view"]')
      .filter({ hasText: 'E2E求助视频' });
    await expect(tile).toHaveAttribute('data-state', 'playing', { timeout: 60_000 });
    await page.screenshot({ path: artifact('live-patrol-zh') });
  } finally {
    await device.stop();
  }
});
