import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
// protocol files directly: the protocol's index imports JSON catalogues, which Node's ESM loader
// refuses without import attributes
import { Api } from '../../packages/protocol/src/endpoints';
import { ALARM_MAP_SIZE, ALARM_MARKER_SIZE } from '../../packages/protocol/src/limits';
import { imeiWithCheckDigit } from '../../packages/protocol/src/schemas/device-fields';
import { DEVICE_PROVISION_KEY } from '../playwright.config';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, buttonName, login, switchLanguage } from '../support/console';
import { text, type Lang } from '../support/texts';
import { apiPost } from '../support/devices';

/**
 * The alarm bell against the real server: a device speaking the device API (the calls the
 * simulator makes: provision, login, positions, SOS) raises an SOS; the dispatcher's bell count
 * rises through the session push channel, the row appears unread at the top of the critical tab,
 * locate shows the marker, mark read drops the counts, mark-all-read empties the bell and does
 * nothing at 0. Sound: the browser refuses it before a user gesture, so the bell shows its
 * enable-sound button, which turns red when a critical alarm could not ring.
 */
const SHOTS = '/tmp/shots-bell';
const HOSTBODY = 'E2EBELL01';
const HOSTNAME = '铃声测试';
const HOSTCODE = '990001';
const AT = { lng: 114.0579, lat: 22.5431 };

// Chromium's own autoplay policy applies (document-user-activation-required: Web Audio stays
// suspended until the user clicks or types on the page); the config sets no autoplay flag.
test.describe.configure({ timeout: 180_000 });

const post = apiPost;

/** One camera on the device API. */
class Camera {
  private token = '';
  constructor(private readonly base: string) {}

  async start(): Promise<void> {
    const provisioned = await post<{ devices: { secret: string }[] }>(
      this.base,
      Api.deviceProvision.path,
      {
        devices: [
          { hostbody: HOSTBODY, imei: imeiWithCheckDigit('86990000000001'), hostname: HOSTNAME, hostcode: HOSTCODE },
        ],
      },
      DEVICE_PROVISION_KEY,
    );
    const answer = await post<{ token: string }>(this.base, Api.deviceLogin.path, {
      device: HOSTBODY,
      secret: provisioned.devices[0]!.secret,
    });
    this.token = answer.token;
    await post(this.base, Api.devicePositions.path, { positions: [{ time: Date.now(), ...AT }] }, this.token);
  }

  /** A fix every few seconds: the device stays online (a silent one would raise an offline alarm). */
  keepAlive(): () => void {
    const timer = setInterval(() => {
      void post(this.base, Api.devicePositions.path, { positions: [{ time: Date.now(), ...AT }] }, this.token).catch(
        () => undefined,
      );
    }, 5_000);
    return () => clearInterval(timer);
  }

  sos(): Promise<{ event_id: number }> {
    return post(this.base, Api.deviceSos.path, { time: Date.now(), ...AT, message: 'e2e bell' }, this.token);
  }
}

let camera: Camera;
let stopCamera: (() => void) | undefined;

// eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture arguments from this pattern
test.beforeAll(async ({}, testInfo) => {
  mkdirSync(SHOTS, { recursive: true });
  camera = new Camera(String(testInfo.project.use.baseURL));
  await camera.start();
  stopCamera = camera.keepAlive();
});

test.afterAll(() => stopCamera?.());

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: artifact(name) });
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

const bell = (page: Page) => page.getByTestId('alarm-bell');
const soundButton = (page: Page) => page.getByTestId('alarm-sound-enable');
const panel = (page: Page) => page.getByTestId('alarm-bell-panel');
const tabCount = (page: Page, level: string) => page.getByTestId(`alarm-bell-count-${level}`);
const myRows = (page: Page) =>
  page.getByTestId('alarm-bell-table-criticle').locator('tr.ant-table-row', { hasText: HOSTNAME });

/**
 * Points of the locate dialog's map (its corners, 4 px in, and its centre) where something else is
 * on top: the bell's panel stays open behind the dialog and must not cover it.
 */
function coveredPoints(page: Page): Promise<string[]> {
  return page.getByTestId('alarm-locate').evaluate((map) => {
    const r = map.getBoundingClientRect();
    const points: [number, number][] = [
      [r.left + 4, r.top + 4],
      [r.right - 4, r.top + 4],
      [(r.left + r.right) / 2, (r.top + r.bottom) / 2],
      [r.left + 4, r.bottom - 4],
      [r.right - 4, r.bottom - 4],
    ];
    return points
      .filter(([x, y]) => {
        const hit = document.elementFromPoint(x, y);
        return !hit || !map.contains(hit);
      })
      .map(([x, y]) => `${Math.round(x)},${Math.round(y)}`);
  });
}

async function bellCount(page: Page): Promise<number> {
  await expect(bell(page)).toHaveAttribute('data-count', /^\d+$/);
  return Number(await bell(page).getAttribute('data-count'));
}

/** Opens the closed panel (an action that leaves the panel closes it first, with an animation). */
async function openPanel(page: Page): Promise<void> {
  await expect(panel(page)).toBeHidden();
  await bell(page).click();
  await expect(panel(page)).toBeVisible();
}

/**
 * Chromium refuses Web Audio before the first user gesture of a document (checked by hand: a page
 * that creates an AudioContext on its own gets 'suspended'), but Playwright runs its locator and
 * evaluate calls WITH a user gesture, so under test the refusal comes and goes with timing. This
 * init script reproduces the refusal deterministically: contexts stay suspended, and resume()
 * does nothing, until a trusted click or key press, as in a browser an operator just opened.
 */
function emulateAutoplayRefusal(): void {
  const Native = window.AudioContext;
  let gesture = false;
  const onGesture = (event: Event) => {
    if (event.isTrusted) gesture = true;
  };
  window.addEventListener('pointerdown', onGesture, true);
  window.addEventListener('keydown', onGesture, true);
  window.AudioContext = class extends Native {
    override get state(): AudioContextState {
      return gesture ? super.state : 'suspended';
    }
    override resume(): Promise<void> {
      return gesture ? super.resume() : Promise.resolve();
    }
  };
}

/**
 * A new tab of the logged-in browser context (same session cookie, its session storage copied):
 * its document has had no user gesture and no same-origin page before it in that tab (a reload
 * after a click may sound at once). The fixture watches only the first page, so this tab's console
 * errors are collected here.
 */
async function tabWithoutGesture(page: Page, errors: string[]): Promise<Page> {
  const storage = await page.evaluate(() => Object.entries(sessionStorage));
  await page.goto('about:blank');
  const tab = await page.context().newPage();
  tab.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console error: ${message.text()}`);
  });
  tab.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  await tab.addInitScript((entries) => {
    for (const [key, value] of entries) sessionStorage.setItem(key, value);
  }, storage);
  await tab.addInitScript(emulateAutoplayRefusal);
  await tab.goto('/menu');
  return tab;
}

/** An SOS while the page has had no user gesture: the count rises, the enable-sound button turns red. */
async function sosBeforeAnyGesture(page: Page, lang: Lang): Promise<number> {
  await expect(bell(page)).toBeVisible();
  await expect(soundButton(page)).toBeVisible();
  await expect(soundButton(page)).toHaveText(text(lang, 'bell:sound.enable'));
  await expect(soundButton(page)).toHaveAttribute('data-missed', 'false');
  // the snapshot has loaded (the count is a number) before the SOS is raised
  const before = await bellCount(page);
  await camera.sos();
  await expect(bell(page)).toHaveAttribute('data-count', String(before + 1));
  await expect(bell(page)).toHaveAttribute('data-ringing', 'true');
  await expect(soundButton(page)).toHaveAttribute('data-missed', 'true');
  return before;
}

test('an SOS rings the bell: critical row, locate marker, mark read, mark all read; sound needs a gesture', async ({
  page: first,
}) => {
  await login(first, ACCOUNTS.dispatcher.username, ACCOUNTS.dispatcher.password);
  const errors: string[] = [];
  const page = await tabWithoutGesture(first, errors);
  const requests: string[] = [];
  page.on('request', (request) => requests.push(new URL(request.url()).pathname));
  const before = await sosBeforeAnyGesture(page, 'zh-CN');
  await shot(page, 'alarm-bell-sound-blocked-zh');

  // enabling the sound while the alarm rings: the button goes, the bell keeps ringing
  await soundButton(page).click();
  await expect(soundButton(page)).toHaveCount(0);
  await expect(bell(page)).toHaveAttribute('data-ringing', 'true');

  await openPanel(page);
  const criticalBefore = Number(await tabCount(page, 'criticle').textContent());
  expect(criticalBefore).toBeGreaterThanOrEqual(1);
  const row = myRows(page).first();
  await expect(row).toBeVisible();
  await expect(row).toHaveClass(/alarm-bell-row-unread/);
  await expect(row).toContainText(`${HOSTNAME}(${HOSTCODE})`);
  await expect(row).toContainText(text('zh-CN', 'bell:action.read'));
  // newest first: the SOS is the table's first row
  await expect(page.getByTestId('alarm-bell-table-criticle').locator('tr.ant-table-row').first()).toContainText(
    HOSTNAME,
  );
  await shot(page, 'alarm-bell-panel-zh');

  // locate: the 750x300 map with the 65x65 marker
  await row.getByTestId('alarm-bell-locate').click();
  const locate = page.getByTestId('alarm-locate');
  await expect(locate).toBeVisible();
  // polled: the dialog opens with a zoom animation (scaled below 1 for a few frames)
  await expect
    .poll(async () => {
      const box = await locate.boundingBox();
      return box && [Math.round(box.width), Math.round(box.height)];
    })
    .toEqual([ALARM_MAP_SIZE.width, ALARM_MAP_SIZE.height]);
  const marker = page.getByTestId('alarm-locate-marker');
  await expect(marker).toBeVisible();
  await expect
    .poll(async () => {
      const markerBox = await marker.boundingBox();
      return markerBox && Math.round(markerBox.width);
    })
    .toBe(ALARM_MARKER_SIZE);
  // the dialog opens above the panel it was opened from: nothing covers its map
  await expect.poll(() => coveredPoints(page)).toEqual([]);
  await shot(page, 'alarm-bell-locate-zh');
  await page
    .getByRole('dialog')
    .filter({ has: locate })
    .getByRole('button', { name: /close|关闭/i })
    .click();
  await expect(locate).toHaveCount(0);
  await expect(panel(page)).toBeVisible();

  // mark read: the total and the critical count drop by one, the row stays, marked read
  await row.getByTestId('alarm-bell-read').click();
  await expect(bell(page)).toHaveAttribute('data-count', String(before));
  await expect(tabCount(page, 'criticle')).toHaveText(String(criticalBefore - 1));
  await expect(row).toHaveClass(/alarm-bell-row-read/);
  await expect(row.getByTestId('alarm-bell-read')).toHaveCount(0);
  await shot(page, 'alarm-bell-read-zh');

  // live: the Emergency page opens and the sound stops (a fresh SOS first: the bell rings again)
  const beforeLive = await bellCount(page);
  await camera.sos();
  await expect(bell(page)).toHaveAttribute('data-count', String(beforeLive + 1));
  await expect(bell(page)).toHaveAttribute('data-ringing', 'true');
  await myRows(page).first().getByTestId('alarm-bell-live').click();
  await expect(page).toHaveURL(/\/dispatch\/emergency$/);
  await expect(bell(page)).toHaveAttribute('data-ringing', 'false');

  // view-all leads to the dispatch alarm history on the tab's severity
  await openPanel(page);
  await page.getByTestId('alarm-bell-tab-middle').click();
  await page.getByTestId('alarm-bell-view-all').click();
  await expect(page).toHaveURL(/\/dispatch\/alarm\?alarmNavActive=1$/);

  // mark all read: highlighted while the count is not 0, then counts 0 and empty tables
  const beforeSecond = await bellCount(page);
  await camera.sos();
  await expect(bell(page)).toHaveAttribute('data-count', String(beforeSecond + 1));
  await openPanel(page);
  const readAll = page.getByTestId('alarm-bell-read-all');
  await expect(readAll).toHaveClass(/ant-btn-primary/);
  await readAll.click();
  await expect(bell(page)).toHaveAttribute('data-count', '0');
  for (const level of ['criticle', 'middle', 'normal']) await expect(tabCount(page, level)).toHaveText('0');
  await page.getByTestId('alarm-bell-tab-criticle').click();
  await expect(myRows(page)).toHaveCount(0);
  await expect(page.getByTestId('alarm-bell-table-criticle')).toContainText(text('zh-CN', 'bell:empty'));
  await expect(readAll).not.toHaveClass(/ant-btn-primary/);
  // at 0 it does nothing: no request leaves
  const readAllCalls = () => requests.filter((p) => p === Api.alarmReadAll.path).length;
  expect(readAllCalls()).toBe(1);
  await readAll.click();
  await page.waitForTimeout(500);
  expect(readAllCalls()).toBe(1);
  await shot(page, 'alarm-bell-all-read-zh');

  // the server agrees: after a reload the bell is still empty
  await page.reload();
  await expect(bell(page)).toHaveAttribute('data-count', '0');
  expect(errors, 'the browser console stayed free of errors').toEqual([]);
});

test('English: the bell, its enable-sound button and the locate dialog', async ({ page: first }) => {
  await login(first, ACCOUNTS.dispatcher.username, ACCOUNTS.dispatcher.password);
  await switchLanguage(first, 'en-US');
  const errors: string[] = [];
  const page = await tabWithoutGesture(first, errors);
  // a laptop's screen: the centred locate dialog reaches up into the bell's panel
  await page.setViewportSize({ width: 1366, height: 640 });
  await sosBeforeAnyGesture(page, 'en-US');
  await shot(page, 'alarm-bell-sound-blocked-en');
  await soundButton(page).click();
  await expect(soundButton(page)).toHaveCount(0);

  await openPanel(page);
  await expect(page.getByTestId('alarm-bell-tab-criticle')).toContainText(text('en-US', 'alarm:level.criticle'));
  const row = myRows(page).first();
  await expect(row).toContainText(text('en-US', 'bell:action.read'));
  await expect(page.getByRole('button', { name: buttonName(text('en-US', 'bell:action.readAll')) })).toBeVisible();
  await shot(page, 'alarm-bell-panel-en');

  await row.getByTestId('alarm-bell-locate').click();
  await expect(page.getByTestId('alarm-locate-marker')).toBeVisible();
  await expect.poll(() => coveredPoints(page)).toEqual([]);
  await shot(page, 'alarm-bell-locate-en');
  expect(errors, 'the browser console stayed free of errors').toEqual([]);
});

test('live from the bell: the emergency page stays shown while its info window loads', async ({ page }) => {
  // The info window the live opens reads a catalogue of its own (playback), held back here until
  // asked for. It loads with the emergency page (its route names it), before the page shows; were
  // it asked for later, react-i18next would suspend to the page's route boundary and hide the page
  // already shown (React's inline display: none, refs detached): the device tree's virtual list
  // then wrote scrollTop through its detached holder ("Cannot set properties of null", the
  // console's error page) on a loaded machine.
  await login(page, ACCOUNTS.dispatcher.username, ACCOUNTS.dispatcher.password);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = false;
  await page.route(/\/assets\/playback-[^/]*\.js$/, async (route) => {
    held = true;
    await released;
    await route.continue();
  });
  // every change of the page from here on: was the emergency page there but not shown
  await page.evaluate(() => {
    const flags = window as unknown as { bwcEmergencyHidden: boolean };
    flags.bwcEmergencyHidden = false;
    new MutationObserver(() => {
      const emergency = document.querySelector('[data-testid="emergency-page"]');
      if (emergency && !emergency.checkVisibility()) flags.bwcEmergencyHidden = true;
    }).observe(document.body, { attributes: true, childList: true, subtree: true });
  });
  const before = await bellCount(page);
  await camera.sos();
  await expect(bell(page)).toHaveAttribute('data-count', String(before + 1));
  await openPanel(page);
  await myRows(page).first().getByTestId('alarm-bell-live').click();
  await expect(page).toHaveURL(/\/dispatch\/emergency$/);
  await expect.poll(() => held, { message: 'the page asked for the catalogue' }).toBe(true);
  release();
  await expect(page.getByTestId('info-window-title')).toContainText(HOSTNAME);
  await expect(page.getByTestId('emergency-page')).toBeVisible();
  const hidden = await page.evaluate(() => (window as unknown as { bwcEmergencyHidden: boolean }).bwcEmergencyHidden);
  expect(hidden, 'the emergency page stayed shown').toBe(false);
});
