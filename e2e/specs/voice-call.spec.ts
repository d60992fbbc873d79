import type { Page } from '@playwright/test';
// protocol and simulator files directly: the protocol's index imports JSON catalogues, which
// Node's ESM loader refuses without import attributes
import { Api } from '../../packages/protocol/src/endpoints';
import { CONSOLE_WS_PATH } from '../../packages/protocol/src/console/limits';
import { toneOf } from '../../packages/simulator/src/talk/tone';
import config, { DEVICE_PROVISION_KEY } from '../playwright.config';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, login, switchLanguage } from '../support/console';
import { apiPost, imei, runTag } from '../support/devices';
import { TalkTerminal } from '../support/talk-terminal';
import { text, type Lang } from '../support/texts';
import { toneMicrophone } from '../support/tone-wav';

/**
 * Voice call end to end (issue 14 section 4): a dispatcher's console in Chromium with a fake
 * microphone playing 1 kHz calls a simulated terminal from the host list; the terminal answers
 * after about 1 s and says its own tone. Both directions are measured: the terminal decodes what it
 * heard with ffmpeg (1 kHz), the console counts and analyses every decoded CALL frame
 * (window.__bwcTalkStats: the talk engine serves the call). Keys go to the terminal as DTMF; the
 * console hangs up and the call ends on both. The call panel is photographed in zh-CN and en-US.
 */
const TAG = runTag();
const HOSTBODY = `E2ECALL${TAG}`;
const HOSTNAME = `通话终端${TAG.slice(-3)}`;
const CITY_BH = '440300000000';

const mic = toneMicrophone('bwc-e2e-call-');
const defaults = config.use?.launchOptions ?? {};
test.use({ launchOptions: { ...defaults, args: [...(defaults.args ?? []), ...mic.args] } });
test.describe.configure({ timeout: 360_000 });
test.afterAll(() => mic.dispose());

/** Before the page loads: the counters object of the talk engine, keeping every decoded frame's strongest frequency. */
async function recordAudio(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const hz: number[] = [];
    const stats: Record<string, unknown> = { hz };
    let rms = 0;
    let decoded = 0;
    // rms is assigned last of a frame's counters: the frame's dominantHz is set by then
    Object.defineProperty(stats, 'rms', {
      enumerable: true,
      get: () => rms,
      set: (value: number) => {
        rms = value;
        const now = Number(stats.framesDecoded ?? 0);
        if (now === decoded) return;
        decoded = now;
        hz.push(Number(stats.dominantHz));
      },
    });
    (window as unknown as { __bwcTalkStats: unknown }).__bwcTalkStats = stats;
  });
}

interface Heard {
  framesSent: number;
  framesDecoded: number;
  framesPlayed: number;
  framesSkipped: number;
  hz: number[];
}

const heard = (page: Page): Promise<Heard> =>
  page.evaluate(() => {
    const s = (window as unknown as { __bwcTalkStats: Heard }).__bwcTalkStats;
    return {
      framesSent: s.framesSent ?? 0,
      framesDecoded: s.framesDecoded ?? 0,
      framesPlayed: s.framesPlayed ?? 0,
      framesSkipped: s.framesSkipped ?? 0,
      hz: [...s.hz],
    };
  });

const near = (h: Heard, hz: number) => h.hz.filter((f) => Math.abs(f - hz) <= 50).length;

async function shoot(page: Page, lang: Lang): Promise<void> {
  const map = (await page.getByTestId('dispatch-map').boundingBox())!;
  await page.mouse.move(map.x + map.width / 3, map.y + map.height / 2);
  await page.screenshot({ path: artifact(`voice-call-${lang}`) });
  await page.getByTestId('call-panel').screenshot({ path: artifact(`voice-call-panel-${lang}`) });
}

test('voice call: the console calls a terminal from the host list, each hears the other, keys, hang up', async ({
  page,
}, testInfo) => {
  const base = String(testInfo.project.use.baseURL);
  const measured = (type: string, description: string) => testInfo.annotations.push({ type, description });
  const jq = `6${TAG}`;
  const provisioned = await apiPost<{ devices: { id: number; secret: string }[] }>(
    base,
    Api.deviceProvision.path,
    {
      devices: [
        { hostbody: HOSTBODY, imei: imei(`8678${TAG}000`), hostname: HOSTNAME, hostcode: `C${TAG}`, jq_hostcode: jq },
      ],
    },
    DEVICE_PROVISION_KEY,
  );

  await recordAudio(page);
  await login(page, ACCOUNTS.dispatcher.username, ACCOUNTS.dispatcher.password);
  // the simulated terminal logs on and enters its first group: it needs one
  const made = await page.request.post(Api.groupAdd.path, {
    data: { channel_name: `通话${TAG}`, cate: '1', device: [jq], bh: CITY_BH },
  });
  const group = (await made.json()) as { code: number; msg: string };
  expect(group.code, group.msg).toBe(200);

  const terminal = await TalkTerminal.start({
    url: `${base.replace(/^http/, 'ws')}${CONSOLE_WS_PATH}`,
    logonName: HOSTBODY,
    passwd: provisioned.devices[0]!.secret,
    clientid: `e2e-${HOSTBODY}`,
    cacheDir: mic.dir,
  });
  try {
    const terminalTone = toneOf(terminal.uid);
    await expect
      .poll(() => page.evaluate(() => Number(sessionStorage.getItem('bwc_login_uid') ?? '0')), { timeout: 60_000 })
      .toBeGreaterThan(0);
    await page.goto('/dispatch/emergency');
    const search = page.locator('input[data-testid="host-search"], [data-testid="host-search"] input').first();
    await search.fill(HOSTBODY);
    await search.press('Enter');
    await page.getByTestId('host-list').locator('tr', { hasText: HOSTNAME }).getByTestId('host-voice-call').click();

    const panel = page.getByTestId('call-panel');
    await expect(panel.getByTestId('call-title')).toContainText(HOSTNAME);
    // the terminal answers after about a second
    await expect(panel.getByTestId('call-state')).toHaveAttribute('data-phase', 'answered', { timeout: 60_000 });
    await expect.poll(async () => (await terminal.calls()).callsAnswered, { timeout: 30_000 }).toBe(1);

    // the console hears the terminal's tone, the terminal hears the console's 1 kHz
    await expect
      .poll(async () => near(await heard(page), terminalTone), { timeout: 60_000, intervals: [500] })
      .toBeGreaterThanOrEqual(100);
    await expect
      .poll(async () => (await terminal.calls()).framesHeard, { timeout: 60_000, intervals: [500] })
      .toBeGreaterThanOrEqual(100);
    await expect(panel.getByTestId('call-level')).not.toHaveAttribute('data-level', '0', { timeout: 30_000 });
    await expect(panel.getByTestId('call-timer')).not.toHaveText('00:00', { timeout: 30_000 });

    // DTMF keys reach the terminal
    await panel.getByTestId('call-keypad-toggle').click();
    await panel.locator('[data-testid="call-key"][data-key="1"]').click();
    await panel.locator('[data-testid="call-key"][data-key="#"]').click();
    await expect.poll(async () => (await terminal.calls()).dtmf, { timeout: 30_000 }).toBe('1#');
    await expect(panel.getByTestId('call-digits')).toHaveText('1#');
    await shoot(page, 'zh-CN');

    const console1 = await heard(page);
    const terminalHeard = await terminal.calls();
    expect(terminalHeard.heardTone).not.toBeNull();
    expect(Math.abs(terminalHeard.heardTone!.hz - 1000)).toBeLessThanOrEqual(10);
    // what is decoded is played, or left out by the jitter buffer to keep the delay short (a few)
    expect(console1.framesPlayed + console1.framesSkipped).toBeGreaterThanOrEqual(console1.framesDecoded - 2);
    expect(console1.framesSkipped).toBeLessThanOrEqual(console1.framesDecoded / 10);
    measured(
      'call audio',
      `console sent ${console1.framesSent}, decoded ${console1.framesDecoded} (${near(console1, terminalTone)} at ` +
        `${terminalTone} Hz, played ${console1.framesPlayed}); terminal sent ${terminalHeard.framesSent}, heard ` +
        `${terminalHeard.framesHeard}, tone ${terminalHeard.heardTone!.hz} Hz`,
    );

    // hang up: the call ends on both sides
    await panel.getByTestId('call-hangup').click();
    await expect(panel.getByTestId('call-state')).toHaveAttribute('data-phase', 'ended', { timeout: 30_000 });
    await expect(panel.getByTestId('call-state')).toHaveText(text('zh-CN', 'call:state.ended'));
    await expect.poll(async () => (await terminal.calls()).status, { timeout: 30_000 }).toBe(3);
    await panel.getByTestId('call-done').click();
    await expect(panel).toHaveCount(0);

    // in English, a second call; a language switch starts the console's connection over, which
    // ends the call for the service: the panel says so and the terminal's call ends too
    await switchLanguage(page, 'en-US');
    await expect
      .poll(() => page.evaluate(() => Number(sessionStorage.getItem('bwc_login_uid') ?? '0')), { timeout: 60_000 })
      .toBeGreaterThan(0);
    await page.getByTestId('host-list').locator('tr', { hasText: HOSTNAME }).getByTestId('host-voice-call').click();
    await expect(panel.getByTestId('call-state')).toHaveAttribute('data-phase', 'answered', { timeout: 60_000 });
    await expect.poll(async () => (await terminal.calls()).callsAnswered, { timeout: 30_000 }).toBe(2);
    await expect(panel.getByTestId('call-hangup')).toHaveText(text('en-US', 'call:button.hangup'));
    await expect(panel.getByTestId('call-timer')).not.toHaveText('00:00', { timeout: 30_000 });
    await shoot(page, 'en-US');
    await switchLanguage(page, 'zh-CN');
    await expect(panel.getByTestId('call-state')).toHaveAttribute('data-phase', 'ended', { timeout: 30_000 });
    await expect(panel.getByTestId('call-reason')).toHaveAttribute('data-reason', 'disconnected');
    await expect.poll(async () => (await terminal.calls()).status, { timeout: 30_000 }).toBe(3);
  } finally {
    await terminal.stop();
  }
});
