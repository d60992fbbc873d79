import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { Api } from '../../packages/protocol/src/endpoints';
import { DEVICE_PROVISION_KEY } from '../playwright.config';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, login } from '../support/console';
import { searchGroup } from '../support/groups';
import { text } from '../support/texts';

/**
 * Video conference end to end (issue 14 section 5): two simulated devices (npm run sim: cameras
 * that publish on startlive, terminals of the console service) in one talk group; the
 * administrator starts the group's conference from the group tab and sees both live pictures
 * move in their tiles, hears both terminals' conference audio (decoded and played in the page:
 * window.__bwcConferenceStats), turns the microphone on (Chromium's fake one) and sends, shares one
 * terminal (first, outlined, tagged), stops the share and ends the conference. Screenshots in zh-CN.
 */

interface ConferenceStats {
  framesSent?: number;
  framesReceived?: number;
  framesPlayed?: number;
  talkers?: number;
}
const conferenceStats = (page: Page) =>
  page.evaluate(() => ({ ...(window as unknown as { __bwcConferenceStats: ConferenceStats }).__bwcConferenceStats }));
const PREFIX = 'E2ECONF';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const GROUP = `会议组${Date.now().toString(36).slice(-4)}`;
// the simulator's cluster numbers of devices 1 and 2 (simulatedIdentity)
const CLUSTER = ['80001', '80002'];

test.describe.configure({ timeout: 600_000 });

test('video conference: two live tiles, both terminals heard, the microphone sent, share and stop-share, end', async ({
  page,
  baseURL,
}) => {
  const base = baseURL!;
  const sim: ChildProcess = spawn(
    process.execPath,
    [
      ...['--import', 'tsx', 'packages/simulator/src/cli.ts'],
      ...['--devices', '2', '--prefix', PREFIX, '--server', base, '--interval', '2-4s'],
      ...['--provision-key', DEVICE_PROVISION_KEY, '--sos-rate', '0', '--offline-rate', '0', '--no-talk'],
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const simLog: string[] = [];
  sim.stdout!.on('data', (d: Buffer) => simLog.push(String(d)));
  sim.stderr!.on('data', (d: Buffer) => simLog.push(String(d)));
  try {
    // both terminals logged on to the console service (they take part only when online)
    await expect
      .poll(() => simLog.join('').includes('logged on to the console service'), { timeout: 120_000 })
      .toBe(true);
    await page.addInitScript(() => {
      (window as unknown as { __bwcConferenceStats: unknown }).__bwcConferenceStats = {};
    });
    await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
    const made = await page.request.post(Api.groupAdd.path, {
      data: { channel_name: GROUP, cate: '1', device: CLUSTER, bh: '440300000000' },
    });
    const group = (await made.json()) as { code: number; msg: string };
    expect(group.code, group.msg).toBe(200);

    await page.goto('/dispatch/emergency');
    await page.getByRole('tab', { name: text('zh-CN', 'dispatch:tab.group') }).click();
    await searchGroup(page, GROUP);
    const node = page.getByTestId('group-node').filter({ hasText: GROUP });
    await node.getByTestId('group-conference').click();

    const panel = page.getByTestId('conference-panel');
    await expect(panel).toBeVisible();
    await expect(panel.getByTestId('conf-tile')).toHaveCount(2, { timeout: 60_000 });
    await expect(panel.locator('[data-testid="live-view"][data-state="playing"]')).toHaveCount(2, {
      timeout: 120_000,
    });
    await page.screenshot({ path: artifact('conference-2-zh') });

    // both terminals say their tone in the conference: the console decodes and plays them
    await expect.poll(async () => (await conferenceStats(page)).talkers ?? 0, { timeout: 60_000 }).toBe(2);
    await expect
      .poll(async () => (await conferenceStats(page)).framesPlayed ?? 0, { timeout: 60_000 })
      .toBeGreaterThan(100);
    // the console's microphone goes out to them, continuously (no floor)
    await panel.getByTestId('conf-mic').click();
    await expect
      .poll(async () => (await conferenceStats(page)).framesSent ?? 0, { timeout: 60_000 })
      .toBeGreaterThan(50);

    // share the first device: its tile first, outlined and tagged
    await panel.getByTestId('conf-share-pick').click();
    await page.locator('.ant-select-item-option').first().click();
    await panel.getByTestId('conf-share').click();
    await expect(panel.locator('[data-testid="conf-tile"][data-shared="1"]')).toHaveCount(1);
    await expect(panel.getByTestId('conf-tile').first()).toHaveAttribute('data-shared', '1');
    await expect(panel.getByTestId('conf-shared')).toHaveText(text('zh-CN', 'conference:panel.shared'));
    await page.screenshot({ path: artifact('conference-shared-zh') });

    await panel.getByTestId('conf-stop-share').click();
    await expect(panel.locator('[data-testid="conf-tile"][data-shared="1"]')).toHaveCount(0);

    await panel.getByTestId('conf-stop').click();
    await page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /确\s*定|OK/ })
      .click();
    await expect(panel).toBeHidden();
  } catch (err) {
    console.error(simLog.join('').slice(-4000));
    throw err;
  } finally {
    sim.kill('SIGTERM');
    await new Promise((r) => sim.once('exit', r));
  }
});
