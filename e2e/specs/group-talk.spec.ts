import type { Page } from '@playwright/test';
// protocol files directly: the protocol's index imports JSON catalogues, which Node's ESM loader
// refuses without import attributes
import { Api } from '../../packages/protocol/src/endpoints';
import { CONSOLE_WS_PATH } from '../../packages/protocol/src/console/limits';
import config, { DEVICE_PROVISION_KEY } from '../playwright.config';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, login, switchLanguage } from '../support/console';
import { apiPost, imei, runTag } from '../support/devices';
import { TalkTerminal } from '../support/talk-terminal';
import { text, type Lang } from '../support/texts';
import { searchGroup } from '../support/groups';
import { toneMicrophone } from '../support/tone-wav';

/**
 * Group talk end to end (issue 14): two dispatchers' consoles in Chromium, each with a fake
 * microphone playing a 1 kHz tone, and a simulated terminal, all in one talk group of the real
 * server. What each side hears is measured, not assumed: the consoles count and analyse every
 * decoded frame (window.__bwcTalkStats, recorded frame by frame here), the terminal decodes each
 * burst it hears and measures its tone. Console 1 holds talk and both others hear 1 kHz; the
 * terminal talks 600 Hz and console 1 hears it with the talker's name; an emergency talk of the
 * terminal, then one of console 2 (its toggle), takes the floor from console 1, whose panel says
 * it was pre-empted, and the terminal hears the console's burst flagged emergency; a recorded burst
 * replays from its signed Ogg Opus address; the group tab and the panel are photographed in zh-CN
 * and en-US.
 */
const TAG = runTag();
const HOSTBODY = `E2ETALK${TAG}`;
const HOSTNAME = `对讲终端${TAG.slice(-3)}`;
const CITY_BH = '440300000000';
const GROUP_NAME = `对讲${TAG}`;

// the fake microphone plays a 1 kHz tone (one file for the whole browser)
const mic = toneMicrophone('bwc-e2e-talk-');
const defaults = config.use?.launchOptions ?? {};
test.use({ launchOptions: { ...defaults, args: [...(defaults.args ?? []), ...mic.args] } });
test.describe.configure({ timeout: 420_000 });
test.afterAll(() => mic.dispose());

/** A decoded frame as the console measured it. */
interface HeardFrame {
  talker: number;
  hz: number;
  tone1k: number;
}

interface Heard {
  framesSent: number;
  framesReceived: number;
  framesDecoded: number;
  framesPlayed: number;
  framesLate: number;
  framesSkipped: number;
  framesLost: number;
  jitterMs: number;
  frames: HeardFrame[];
}

/**
 * Before the page loads: the stats object the talk engine copies its counters into, which also
 * keeps every decoded frame's talker, dominant frequency and 1 kHz share. The engine assigns the
 * counters in their declared order, rms last, so its setter sees the frame's other values set.
 */
async function recordTalk(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const frames: { talker: number; hz: number; tone1k: number }[] = [];
    const stats: Record<string, unknown> = { frames };
    let rms = 0;
    let decoded = 0;
    Object.defineProperty(stats, 'rms', {
      enumerable: true,
      get: () => rms,
      set: (value: number) => {
        rms = value;
        const now = Number(stats.framesDecoded ?? 0);
        if (now === decoded) return;
        decoded = now;
        frames.push({ talker: Number(stats.talker), hz: Number(stats.dominantHz), tone1k: Number(stats.tone1k) });
      },
    });
    (window as unknown as { __bwcTalkStats: unknown }).__bwcTalkStats = stats;
  });
}

async function heard(page: Page): Promise<Heard> {
  return page.evaluate(() => {
    const s = (window as unknown as { __bwcTalkStats: Heard }).__bwcTalkStats;
    return {
      framesSent: s.framesSent ?? 0,
      framesReceived: s.framesReceived ?? 0,
      framesDecoded: s.framesDecoded ?? 0,
      framesPlayed: s.framesPlayed ?? 0,
      framesLate: s.framesLate ?? 0,
      framesSkipped: s.framesSkipped ?? 0,
      framesLost: s.framesLost ?? 0,
      jitterMs: s.jitterMs ?? 0,
      frames: [...s.frames],
    };
  });
}

const playout = (h: Heard) =>
  `played ${h.framesPlayed}, late ${h.framesLate}, left out ${h.framesSkipped}, lost ${h.framesLost}, jitter delay ${h.jitterMs} ms`;

/** Decoded frames of `talker` whose strongest frequency is within 50 Hz of `hz`. */
const toneFrames = (h: Heard, talker: number, hz: number) =>
  h.frames.filter((f) => f.talker === talker && Math.abs(f.hz - hz) <= 50).length;

const loginUid = async (page: Page) =>
  Number(await page.evaluate(() => sessionStorage.getItem('bwc_login_uid') ?? '0'));

/** Logs in, waits for the console-service login, opens the group tab and the group's talk panel. */
async function openPanel(page: Page, account: { username: string; password: string }, tgid: number, name: string) {
  await login(page, account.username, account.password);
  await expect.poll(() => loginUid(page), { timeout: 60_000 }).toBeGreaterThan(0);
  await page.goto('/dispatch/emergency');
  await page.getByRole('tab', { name: text('zh-CN', 'dispatch:tab.group') }).click();
  await searchGroup(page, name);
  const node = page.locator(`[data-testid="group-node"][data-tgid="${tgid}"]`);
  await node.getByTestId('group-talk').click();
  const panel = page.getByTestId('talk-panel');
  await expect(panel).toHaveAttribute('data-tgid', String(tgid));
  await expect(panel.getByTestId('talk-button')).toBeEnabled();
  return { uid: await loginUid(page), node, panel };
}

/**
 * Holds the talk button with the mouse (let go with page.mouse.up()) until the toggle shows it on.
 * A press that does not take (the toggle still off 5 s later: seen once in a CI run under load,
 * console 2's button still "开始对讲" with no error shown) is let go and pressed again, as a user
 * does; the toggle never turning on still fails.
 */
async function holdTalk(page: Page): Promise<void> {
  const button = page.getByTestId('talk-button');
  await expect(button).toBeEnabled();
  let attempt = 0;
  await expect(async () => {
    if (attempt++ > 0) await page.mouse.up();
    const box = (await button.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await expect(button).toHaveAttribute('data-active', '1', { timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
}

async function shoot(page: Page, lang: Lang): Promise<void> {
  // the pointer rests on the map: no tooltip or open menu over what is photographed
  const map = (await page.getByTestId('dispatch-map').boundingBox())!;
  await page.mouse.move(map.x + map.width / 3, map.y + map.height / 2);
  await page.screenshot({ path: artifact(`group-talk-${lang}`) });
  await page.getByTestId('talk-panel').screenshot({ path: artifact(`group-talk-panel-${lang}`) });
}

test('group talk: two consoles and a terminal hear each other, emergency pre-empts, a burst replays', async ({
  page,
  newUser,
}, testInfo) => {
  const base = String(testInfo.project.use.baseURL);
  const started = Date.now();
  const measured = (type: string, description: string) => testInfo.annotations.push({ type, description });
  const jq = `5${TAG}`;
  const provisioned = await apiPost<{ devices: { id: number; secret: string }[] }>(
    base,
    Api.deviceProvision.path,
    {
      devices: [
        { hostbody: HOSTBODY, imei: imei(`8677${TAG}000`), hostname: HOSTNAME, hostcode: `T${TAG}`, jq_hostcode: jq },
      ],
    },
    DEVICE_PROVISION_KEY,
  );

  // console 1: the dispatcher; the group of the terminal, made through the API as group management does
  await recordTalk(page);
  await login(page, ACCOUNTS.dispatcher.username, ACCOUNTS.dispatcher.password);
  const made = await page.request.post(Api.groupAdd.path, {
    data: { channel_name: GROUP_NAME, cate: '1', device: [jq], bh: CITY_BH },
  });
  const group = (await made.json()) as { code: number; msg: string; data: { groupid: number } };
  expect(group.code, group.msg).toBe(200);
  const tgid = group.data.groupid;

  const terminal = await TalkTerminal.start({
    url: `${base.replace(/^http/, 'ws')}${CONSOLE_WS_PATH}`,
    logonName: HOSTBODY,
    passwd: provisioned.devices[0]!.secret,
    clientid: `e2e-${HOSTBODY}`,
    cacheDir: mic.dir,
  });
  try {
    expect(terminal.uid).toBe(provisioned.devices[0]!.id);
    await terminal.enter(tgid);
    await expect.poll(async () => (await terminal.stats()).attached, { timeout: 60_000 }).toBe(tgid);

    const one = await openPanel(page, ACCOUNTS.dispatcher, tgid, GROUP_NAME);
    // console 2: the administrator, another dispatcher's seat (another account: one login each)
    const second = await newUser();
    await recordTalk(second);
    const two = { page: second, ...(await openPanel(second, ACCOUNTS.admin, tgid, GROUP_NAME)) };

    // ---- console 1 holds talk: console 2 and the terminal hear its 1 kHz
    await holdTalk(page);
    await expect(one.panel.getByTestId('talk-state')).toHaveAttribute('data-state', 'granted', { timeout: 60_000 });
    await expect(one.panel.getByTestId('talk-button')).toHaveAttribute('data-active', '1');
    await expect(two.panel.getByTestId('talk-talker')).toHaveAttribute('data-uid', String(one.uid), {
      timeout: 60_000,
    });
    await expect(two.panel.getByTestId('talk-state')).toHaveAttribute('data-state', 'busy');
    await expect
      .poll(async () => toneFrames(await heard(two.page), one.uid, 1000), { timeout: 60_000, intervals: [500] })
      .toBeGreaterThanOrEqual(50);
    await expect(two.node.getByTestId('group-floor')).toHaveAttribute('data-uid', String(one.uid));
    await page.mouse.up();
    await expect(one.panel.getByTestId('talk-state')).toHaveAttribute('data-state', 'idle', { timeout: 60_000 });
    const said = await heard(page);
    const twoHeard = await heard(two.page);
    expect(said.framesSent).toBeGreaterThanOrEqual(50);
    const ofOne = twoHeard.frames.filter((f) => f.talker === one.uid);
    // what is decoded is played, or left out by the jitter buffer to shorten its delay or catch up
    // after a stall (a few)
    expect(twoHeard.framesPlayed + twoHeard.framesSkipped).toBeGreaterThanOrEqual(twoHeard.framesDecoded - 2);
    expect(twoHeard.framesSkipped).toBeLessThanOrEqual(twoHeard.framesDecoded / 10);
    await expect
      .poll(async () => (await terminal.stats()).lastHeard, { timeout: 60_000 })
      .toMatchObject({ uid: one.uid, ended: true, tone: expect.anything() });
    const terminalHeard = await terminal.stats();
    expect(terminalHeard.lastHeard!.frames).toBeGreaterThanOrEqual(50);
    expect(Math.abs(terminalHeard.lastHeard!.tone!.hz - 1000)).toBeLessThanOrEqual(10);
    measured(
      'console 1 talks 1 kHz',
      `sent ${said.framesSent}; console 2 decoded ${ofOne.length}, ${toneFrames(twoHeard, one.uid, 1000)} at 1 kHz ` +
        `(${playout(twoHeard)}); terminal heard ${terminalHeard.lastHeard!.frames} frames, ` +
        `lost ${terminalHeard.lastHeard!.lost}, tone ${terminalHeard.lastHeard!.tone!.hz} Hz ` +
        `(strength ${terminalHeard.lastHeard!.tone!.strength.toFixed(2)})`,
    );

    // ---- the terminal talks 600 Hz: console 1 hears it and shows who talks
    const talking = terminal.talk(tgid, { seconds: 4, tone: 600 });
    await expect(one.panel.getByTestId('talk-talker')).toHaveAttribute('data-uid', String(terminal.uid), {
      timeout: 60_000,
    });
    await expect(one.panel.getByTestId('talk-talker')).toHaveText(HOSTNAME);
    await expect(one.panel.getByTestId('talk-state')).toHaveAttribute('data-state', 'busy');
    await expect(one.node.getByTestId('group-floor')).toHaveAttribute('data-uid', String(terminal.uid));
    await expect(one.panel.getByTestId('talk-level')).not.toHaveAttribute('data-frame', '0', { timeout: 30_000 });
    // console 1's burst is in the history by now (read again after the floor was free)
    await expect(one.panel.getByTestId('talk-record')).toHaveCount(1, { timeout: 30_000 });
    await shoot(page, 'zh-CN');
    const terminalBurst = await talking;
    expect(terminalBurst).toMatchObject({ result: 'granted' });
    expect(terminalBurst.reason).toBeUndefined();
    await expect
      .poll(async () => toneFrames(await heard(page), terminal.uid, 600), { timeout: 60_000, intervals: [500] })
      .toBeGreaterThanOrEqual(100);
    const oneHeard = await heard(page);
    expect(oneHeard.framesPlayed + oneHeard.framesSkipped).toBeGreaterThanOrEqual(oneHeard.framesDecoded - 2);
    expect(oneHeard.framesSkipped).toBeLessThanOrEqual(oneHeard.framesDecoded / 10);
    measured(
      'terminal talks 600 Hz',
      `sent ${terminalBurst.sent}; console 1 decoded ${oneHeard.frames.filter((f) => f.talker === terminal.uid).length}, ` +
        `${toneFrames(oneHeard, terminal.uid, 600)} at 600 Hz (${playout(oneHeard)}, all bursts)`,
    );

    // ---- an emergency talk of the terminal takes the floor from console 1
    await holdTalk(page);
    await expect(one.panel.getByTestId('talk-state')).toHaveAttribute('data-state', 'granted', { timeout: 60_000 });
    await expect
      .poll(async () => (await heard(two.page)).frames.filter((f) => f.talker === one.uid).length, { timeout: 60_000 })
      .toBeGreaterThan(ofOne.length + 10);
    const emergency = terminal.talk(tgid, { seconds: 3, tone: 800, emergency: true });
    await expect(one.panel.getByTestId('talk-lost')).toHaveAttribute('data-reason', 'preempted', { timeout: 60_000 });
    await expect(one.panel.getByTestId('talk-button')).toHaveAttribute('data-active', '0');
    await expect(one.panel.getByTestId('talk-talker')).toHaveAttribute('data-uid', String(terminal.uid));
    await page.mouse.up();
    expect(await emergency).toMatchObject({ result: 'granted' });
    await expect
      .poll(async () => toneFrames(await heard(two.page), terminal.uid, 800), { timeout: 60_000, intervals: [500] })
      .toBeGreaterThanOrEqual(50);

    // ---- so does console 2 with its emergency toggle; the terminal hears its 1 kHz flagged emergency
    await holdTalk(page);
    await expect(one.panel.getByTestId('talk-state')).toHaveAttribute('data-state', 'granted', { timeout: 60_000 });
    await two.panel.getByTestId('talk-emergency').click();
    await expect(two.panel.getByTestId('talk-emergency')).toHaveAttribute('aria-checked', 'true');
    await holdTalk(two.page);
    await expect(two.panel.getByTestId('talk-state')).toHaveAttribute('data-state', 'granted', { timeout: 60_000 });
    await expect(one.panel.getByTestId('talk-lost')).toHaveAttribute('data-reason', 'preempted', { timeout: 60_000 });
    await expect(one.panel.getByTestId('talk-talker')).toHaveAttribute('data-uid', String(two.uid));
    await expect(one.panel.locator('.bwc-talk-talker')).toContainText(text('zh-CN', 'talk:history.emergency'));
    await expect
      .poll(async () => toneFrames(await heard(page), two.uid, 1000), { timeout: 60_000, intervals: [500] })
      .toBeGreaterThanOrEqual(30);
    await two.page.mouse.up();
    await page.mouse.up();
    await expect
      .poll(async () => (await terminal.stats()).lastHeard, { timeout: 60_000 })
      .toMatchObject({ uid: two.uid, emergency: true, ended: true, tone: expect.anything() });
    const flagged = (await terminal.stats()).lastHeard!;
    expect(Math.abs(flagged.tone!.hz - 1000)).toBeLessThanOrEqual(10);
    measured(
      "console 2's emergency talk",
      `terminal heard ${flagged.frames} frames flagged emergency, lost ${flagged.lost}, tone ${flagged.tone!.hz} Hz; ` +
        `console 1 decoded ${toneFrames(await heard(page), two.uid, 1000)} frames of it at 1 kHz`,
    );

    // ---- the bursts are listed; the terminal's 600 Hz one replays from its signed address
    const records = one.panel.getByTestId('talk-record');
    await expect.poll(() => records.count(), { timeout: 60_000 }).toBeGreaterThanOrEqual(6);
    const record = one.panel.locator(`[data-testid="talk-record"][data-refid="${terminalBurst.refid}"]`);
    await expect(record).toContainText(HOSTNAME);
    await record.getByTestId('talk-replay').click();
    const audio = one.panel.getByTestId('talk-replay-audio');
    await expect(audio).toHaveAttribute('src', new RegExp(`/talk/records/${terminalBurst.refid}\\.ogg\\?token=`));
    await expect
      .poll(
        () =>
          audio.evaluate((a: HTMLAudioElement) => ({
            error: a.error?.code ?? 0,
            advanced: a.currentTime > 1,
          })),
        { timeout: 60_000 },
      )
      .toEqual({ error: 0, advanced: true });
    // its length is known (the player reads the file's last page with a byte range) and it seeks
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.duration), { timeout: 30_000 }).toBeCloseTo(4, 0);
    expect(await audio.evaluate((a: HTMLAudioElement) => a.seekable.length)).toBeGreaterThan(0);
    measured(
      'replay element',
      JSON.stringify(
        await audio.evaluate((a: HTMLAudioElement) => ({ currentTime: a.currentTime, duration: String(a.duration) })),
      ),
    );
    // what it plays: the burst's tone, decoded by the browser from the same address
    const replayHz = await audio.evaluate(async (a: HTMLAudioElement) => {
      const bytes = await (await fetch(a.src)).arrayBuffer();
      const pcm = (await new OfflineAudioContext(1, 48_000, 48_000).decodeAudioData(bytes)).getChannelData(0);
      const window = pcm.subarray(Math.floor(pcm.length / 3), Math.floor(pcm.length / 3) + 4800);
      let best = 0;
      let bestPower = 0;
      for (let hz = 100; hz <= 4000; hz += 10) {
        const coeff = 2 * Math.cos((2 * Math.PI * hz) / 48_000);
        let s1 = 0;
        let s2 = 0;
        for (const x of window) [s2, s1] = [s1, x + coeff * s1 - s2];
        const power = s1 * s1 + s2 * s2 - coeff * s1 * s2;
        if (power > bestPower) [best, bestPower] = [hz, power];
      }
      return { hz: best, seconds: pcm.length / 48_000, duration: a.duration };
    });
    measured('replay', JSON.stringify(replayHz));
    expect(Math.abs(replayHz.hz - 600)).toBeLessThanOrEqual(20);

    // ---- the same screens in English, while the terminal talks: the panel stays in the group
    // through the language switch, whose console-service connection starts over in the new
    // language (the terminal talks once it is back: nothing tells a console of a floor change it
    // missed while away)
    const reconnected = page
      .waitForEvent('websocket', {
        predicate: (ws) => ws.url().includes(`${CONSOLE_WS_PATH}?lang=en-US`),
        timeout: 60_000,
      })
      .then((ws) =>
        ws.waitForEvent('framereceived', {
          predicate: (frame) => typeof frame.payload === 'string' && frame.payload.includes('"heartbeat"'),
          timeout: 60_000,
        }),
      );
    await switchLanguage(page, 'en-US');
    await reconnected;
    await expect(one.panel).toContainText(text('en-US', 'talk:history.title'));
    const before = toneFrames(await heard(page), terminal.uid, 600);
    const english = terminal.talk(tgid, { seconds: 3, tone: 600 });
    await expect(one.panel.getByTestId('talk-talker')).toHaveAttribute('data-uid', String(terminal.uid), {
      timeout: 60_000,
    });
    await expect(one.panel.getByTestId('talk-state')).toHaveText(text('en-US', 'talk:state.busy', { name: HOSTNAME }));
    await shoot(page, 'en-US');
    expect(await english).toMatchObject({ result: 'granted' });
    await expect
      .poll(async () => toneFrames(await heard(page), terminal.uid, 600) - before, {
        timeout: 60_000,
        intervals: [500],
      })
      .toBeGreaterThanOrEqual(100);
    await expect(one.panel.getByTestId('talk-error')).toHaveCount(0);
    expect((await terminal.stats()).errors).toEqual([]);
    measured('run time (s)', String(Math.round((Date.now() - started) / 1000)));
  } finally {
    await terminal.stop();
  }
});
