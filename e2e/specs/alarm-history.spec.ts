import { mkdirSync, readFileSync } from 'node:fs';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
// protocol files directly: the protocol's index imports JSON catalogues, which Node's ESM loader
// refuses without import attributes
import { Api } from '../../packages/protocol/src/endpoints';
import { ALARM_MARKER_SIZE } from '../../packages/protocol/src/limits';
import { imeiWithCheckDigit } from '../../packages/protocol/src/schemas/device-fields';
import { AI_ENGINE_TOKEN, DEVICE_PROVISION_KEY } from '../playwright.config';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, buttonName, login, switchLanguage } from '../support/console';
import { facePicture } from '../support/png';
import { text, type Lang } from '../support/texts';
import { apiPost, type Envelope } from '../support/devices';

/**
 * Alarm history against the real server. Two cameras on the device API raise alarms (two SOS,
 * critical; one goes offline, middle) and the AI engine API posts a face match with pictures.
 * The dispatcher filters by type and severity, acknowledges one alarm with a note (the row shows
 * handler and note), exports to Excel, opens the face alarm's details (scene picture, library
 * face, similarity), locates an alarm, and acknowledges all. In English: the GB page and, with
 * alerm_face on, the emergency screen's face-alarm column with a pushed picture on top.
 */
const SHOTS = '/tmp/shots-alarm-history';
const TAG = String(Date.now()).slice(-5);
const PREFIX = `E2EHIS${TAG}`;
const CAMS = [
  { hostbody: `${PREFIX}A`, hostname: '历史甲', hostcode: `7${TAG}1`, imei: imeiWithCheckDigit(`8699${TAG}00001`) },
  { hostbody: `${PREFIX}B`, hostname: '历史乙', hostcode: `7${TAG}2`, imei: imeiWithCheckDigit(`8699${TAG}00002`) },
];
const AT = { lng: 114.0579, lat: 22.5431 };
const FACE_NAME = '张测试';
const SIMILARITY = 93.5;

test.describe.configure({ timeout: 180_000 });

const post = apiPost;

/** The cameras' tokens after provision + login + one position each. */
let tokens: string[] = [];
let base = '';
let faceSeq = 0;
let heartbeat: ReturnType<typeof setInterval> | undefined;

/** A face result through the AI engine API (the engine's token), with scene and library pictures. */
async function postFace(hostbody: string): Promise<number> {
  faceSeq += 1;
  const answer = await post<{ id: number; created: number }>(
    base,
    Api.aiAlarm.path,
    {
      event_id: `e2e-his-${TAG}-${faceSeq}`,
      kind: 'face',
      deviceid: hostbody,
      shottime: new Date().toISOString(),
      ...AT,
      imgfile: facePicture(160, [90, 140, 200]),
      imgfile_small: facePicture(64, [90, 140, 200]),
      compare_result: [
        {
          name: FACE_NAME,
          comparison: `P${TAG}`,
          similarity: SIMILARITY,
          face_image: facePicture(96, [200, 200, 200]),
        },
        { name: '李对照', comparison: `Q${TAG}`, similarity: 61.2 },
      ],
    },
    AI_ENGINE_TOKEN,
  );
  expect(answer.created).toBe(1);
  return answer.id;
}

// eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture arguments from this pattern
test.beforeAll(async ({}, testInfo) => {
  mkdirSync(SHOTS, { recursive: true });
  base = String(testInfo.project.use.baseURL);
  const provisioned = await post<{ devices: { hostbody: string; secret: string }[] }>(
    base,
    Api.deviceProvision.path,
    { devices: CAMS },
    DEVICE_PROVISION_KEY,
  );
  tokens = [];
  for (const cam of CAMS) {
    const secret = provisioned.devices.find((d) => d.hostbody === cam.hostbody)!.secret;
    const { token } = await post<{ token: string }>(base, Api.deviceLogin.path, { device: cam.hostbody, secret });
    await post(base, Api.devicePositions.path, { positions: [{ time: Date.now(), ...AT }] }, token);
    tokens.push(token);
  }
  // two SOS of camera A (critical), camera B goes offline (middle), a face match on camera A (critical)
  await post(base, Api.deviceSos.path, { time: Date.now(), ...AT, message: 'e2e history 1' }, tokens[0]);
  await post(base, Api.deviceSos.path, { time: Date.now(), ...AT, message: 'e2e history 2' }, tokens[0]);
  await post(base, Api.deviceState.path, { state: 'offline' }, tokens[1]);
  await postFace(CAMS[0]!.hostbody);
  // camera A keeps reporting like a real camera, so that the silence timeout raises no offline alarm
  heartbeat = setInterval(() => {
    void post(base, Api.devicePositions.path, { positions: [{ time: Date.now(), ...AT }] }, tokens[0]).catch(
      () => undefined,
    );
  }, 10_000);
});

test.afterAll(() => {
  if (heartbeat) clearInterval(heartbeat);
});

async function shot(page: Page, name: string): Promise<void> {
  // no dialog half way through its opening animation
  await expect(page.locator('.ant-modal.ant-zoom-appear, .ant-modal.ant-zoom-enter')).toHaveCount(0);
  await page.screenshot({ path: artifact(name) });
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

async function getData<T>(request: APIRequestContext, path: string, lang: Lang = 'zh-CN'): Promise<T> {
  const res = await request.get(path, { headers: { 'x-lang': lang } });
  const envelope = (await res.json()) as Envelope<T>;
  expect(envelope.code, `${path}: ${envelope.msg}`).toBe(200);
  return envelope.data;
}

/** The table's rows (this run's devices only: the device filter is set). */
const rows = (page: Page) => page.getByTestId('alarm-history').locator('tr.ant-table-row');

/** Waits for the table to hold exactly these row counts after a filter change. */
async function expectRows(page: Page, count: number): Promise<void> {
  await expect(rows(page)).toHaveCount(count);
}

async function pickSelect(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('search').locator('.bwc-search-bar-item', { hasText: label }).locator('.ant-select').click();
  const popup = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
  await popup
    .locator('.ant-select-item-option')
    .filter({ hasText: new RegExp(`^${option}$`) })
    .click();
}

async function clearSelect(page: Page, label: string): Promise<void> {
  const select = page.getByRole('search').locator('.bwc-search-bar-item', { hasText: label }).locator('.ant-select');
  await select.hover();
  await select.locator('.ant-select-clear').click();
}

function okButton(page: Page, lang: Lang): Locator {
  return page.locator('.ant-modal-footer').getByRole('button', { name: buttonName(text(lang, 'alarm:sure.ok')) });
}

test('dispatcher: filter by type and severity, acknowledge one with a note, export, face details, locate, acknowledge all', async ({
  page,
}) => {
  const lang: Lang = 'zh-CN';
  await login(page, ACCOUNTS.dispatcher.username, ACCOUNTS.dispatcher.password);
  const me = await getData<{ hostname: string; username: string }>(page.request, Api.userInfo.path);
  const handler = me.hostname || me.username;
  const categories = await getData<{ key: string; label: string }[]>(page.request, Api.alarmCategories.path);
  const label = (key: string) => categories.find((c) => c.key === key)!.label;

  // the bell's view-all lands here with alarmNavActive=0: the critical tab
  await page.goto(`/dispatch/alarm?alarmNavActive=0&device=${PREFIX}`);
  const history = page.getByTestId('alarm-history');
  await expect(history.getByRole('tab', { name: text(lang, 'alarm:level.criticle') })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  // two SOS and the face match of camera A; not the offline alarm
  await expectRows(page, 3);
  await expect(rows(page).filter({ hasText: label('5') })).toHaveCount(0);

  // the middle tab: camera B's offline alarm only
  await history.getByRole('tab', { name: text(lang, 'alarm:level.middle') }).click();
  await expect(page).toHaveURL(/alarmNavActive=1/);
  await expectRows(page, 1);
  await expect(rows(page).first()).toContainText(label('5'));
  await expect(rows(page).first()).toContainText(CAMS[1]!.hostname);

  // every severity, type SOS picked in the search bar: the two SOS
  await history.getByRole('tab', { name: text(lang, 'alarm:tab.all') }).click();
  await expectRows(page, 4);
  await pickSelect(page, text(lang, 'alarm:filter.type'), label('1'));
  await expect(page).toHaveURL(/type=1/);
  await expectRows(page, 2);
  for (const row of await rows(page).all()) await expect(row).toContainText(label('1'));
  await shot(page, 'alarm-history-filtered-zh-CN');

  // acknowledge one with a note: the row shows handler and note, its acknowledge action is gone
  const first = rows(page).first();
  await first.getByRole('button', { name: buttonName(text(lang, 'alarm:action.sure')) }).click();
  const dialog = page.getByTestId('alarm-sure-dialog');
  await expect(dialog).toBeVisible();
  const note = `已派警 ${TAG}`;
  await dialog.getByTestId('alarm-sure-note').fill(note);
  await okButton(page, lang).click();
  await expect(page.getByText(text('zh-CN', 'success:alarm.sure'))).toBeVisible();
  const sured = rows(page).filter({ hasText: note });
  await expect(sured).toHaveCount(1);
  await expect(sured.getByTestId('alarm-sure-cell')).toContainText(handler);
  await expect(sured.getByRole('button', { name: buttonName(text(lang, 'alarm:action.sure')) })).toHaveCount(0);
  await expect(rows(page).getByRole('button', { name: buttonName(text(lang, 'alarm:action.sure')) })).toHaveCount(1);
  await shot(page, 'alarm-history-acknowledged-zh-CN');

  // export: an .xlsx (a zip) of the filtered list
  const downloading = page.waitForEvent('download');
  await page.getByTestId('alarm-export').click();
  const file = await downloading;
  expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
  expect(
    readFileSync((await file.path())!)
      .subarray(0, 2)
      .toString('latin1'),
  ).toBe('PK');

  // the face alarm's details: scene picture, library face, similarity
  await clearSelect(page, text(lang, 'alarm:filter.type'));
  await pickSelect(page, text(lang, 'alarm:filter.type'), label('6'));
  await expectRows(page, 1);
  await rows(page)
    .first()
    .getByRole('button', { name: buttonName(text(lang, 'alarm:action.detail')) })
    .click();
  const detail = page.getByTestId('alarm-detail');
  await expect(detail).toBeVisible();
  const scene = detail.getByTestId('alarm-scene-picture');
  await expect(scene).toBeVisible();
  await expect.poll(() => scene.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);
  const best = detail.getByTestId('alarm-compare-item').first();
  await expect(best).toContainText(FACE_NAME);
  await expect(best.getByTestId('alarm-similarity')).toHaveText(`${SIMILARITY}%`);
  await expect
    .poll(() => best.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(96);
  await expect(detail.getByTestId('alarm-compare-item')).toHaveCount(2);
  await shot(page, 'alarm-history-face-detail-zh-CN');
  await page.keyboard.press('Escape');
  await expect(detail).toBeHidden();

  // locate: the 'locate' dialog with the 65x65 marker
  await rows(page)
    .first()
    .getByRole('button', { name: buttonName(text(lang, 'alarm:action.locate')) })
    .click();
  await expect(page.getByRole('dialog', { name: text(lang, 'alarm:locate.title') })).toBeVisible();
  const marker = page.getByTestId('alarm-locate-marker');
  await expect(marker).toBeVisible();
  // polled: the dialog opens with a zoom animation (scaled below 1 for a few frames)
  await expect
    .poll(async () => {
      const box = await marker.boundingBox();
      return box && Math.round(box.width);
    })
    .toBe(ALARM_MARKER_SIZE);
  await shot(page, 'alarm-history-locate-zh-CN');
  await page.keyboard.press('Escape');
  await expect(marker).toBeHidden();

  // acknowledge all: nothing of this run stays open
  await clearSelect(page, text(lang, 'alarm:filter.type'));
  await expectRows(page, 4);
  await page.getByTestId('alarm-sure-all').click();
  await expect(page.getByTestId('alarm-sure-dialog')).toContainText(text(lang, 'alarm:sure.allQuestion'));
  await page.getByTestId('alarm-sure-note').fill(`交班 ${TAG}`);
  await okButton(page, lang).click();
  await expect(rows(page).getByRole('button', { name: buttonName(text(lang, 'alarm:action.sure')) })).toHaveCount(0);
  await expect(rows(page).filter({ hasText: `交班 ${TAG}` })).toHaveCount(3);
  await expect(rows(page).filter({ hasText: note })).toHaveCount(1);
  await shot(page, 'alarm-history-all-acknowledged-zh-CN');
  await pickSelect(page, text(lang, 'alarm:filter.sure'), text(lang, 'alarm:state.unsured'));
  await expect(history.locator('.ant-empty')).toBeVisible();
  await expectRows(page, 0);
});

test('en-US: GB history with the face details; emergency face column with a pushed picture on top', async ({
  page,
}) => {
  const lang: Lang = 'en-US';
  await login(page, ACCOUNTS.admin.username, ACCOUNTS.admin.password);
  await switchLanguage(page, lang);

  await page.goto(`/monitor/alarm?device=${PREFIX}`);
  const history = page.getByTestId('alarm-history');
  await expect(history).toContainText(text(lang, 'alarm:title.gb'));
  await expectRows(page, 4);
  // the device column shows the GB code under the name
  await expect(history.locator('.bwc-alarm-device-key').first()).toHaveText(new RegExp(`^${PREFIX}[AB]$`));
  await shot(page, 'alarm-history-gb-en-US');
  const face = rows(page).filter({
    has: page.getByRole('button', { name: buttonName(text(lang, 'alarm:action.detail')) }),
  });
  await history.getByRole('tab', { name: text(lang, 'alarm:level.criticle') }).click();
  await expectRows(page, 3);
  const categories = await getData<{ key: string; label: string }[]>(page.request, Api.alarmCategories.path, lang);
  const faceLabel = categories.find((c) => c.key === '6')!.label;
  await face
    .filter({ hasText: faceLabel })
    .getByRole('button', { name: buttonName(text(lang, 'alarm:action.detail')) })
    .click();
  const detail = page.getByTestId('alarm-detail');
  await expect(detail.getByTestId('alarm-similarity').first()).toHaveText(`${SIMILARITY}%`);
  await expect(detail).toContainText(text(lang, 'alarm:detail.pictures'));
  await expect
    .poll(() =>
      detail.getByTestId('alarm-scene-picture').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
    )
    .toBe(160);
  await shot(page, 'alarm-history-face-detail-en-US');
  await page.keyboard.press('Escape');

  // the emergency screen's right column: on with alarmset.alerm_face (admin has view on 10095)
  const settings = await page.request.post(Api.settingsUpdate.path, {
    data: { type: 'alarmset', sos_alarm_time: 30, sos_alarm_audio: '', type_levels: {}, alerm_face: 1 },
  });
  expect(((await settings.json()) as Envelope<unknown>).code).toBe(200);
  // the session socket's client_login answer: pushes reach this page from then on
  let armed = false;
  const loggedIn = new Promise<void>((resolve) => {
    page.on('websocket', (ws) => {
      if (!armed) return;
      ws.on('framereceived', ({ payload }) => {
        if (String(payload).includes('"cmd":"client_login"') && String(payload).includes('"code":200')) resolve();
      });
    });
  });
  // the console opens its socket after fetching user info, i.e. after the new document's
  // DOMContentLoaded; a socket the previous page reopened meanwhile does not count
  page.once('domcontentloaded', () => {
    armed = true;
  });
  await page.goto('/dispatch/emergency');
  await loggedIn;
  const column = page.getByTestId('face-alarm-column');
  await expect(column).toBeVisible();
  await expect(column).toContainText(text(lang, 'alarm:face.title'));
  const cards = column.getByTestId('face-alarm-card');
  await expect(cards.first()).toContainText(FACE_NAME);
  const before = await cards.count();
  // a new face result is pushed (face_data) and goes on top
  const id = await postFace(CAMS[1]!.hostbody);
  await expect(cards.first()).toHaveAttribute('data-id', String(id));
  await expect(cards).toHaveCount(before + 1);
  await expect(cards.first().getByTestId('face-alarm-similarity')).toContainText(`${SIMILARITY}%`);
  await expect
    .poll(() =>
      cards
        .first()
        .locator('img')
        .first()
        .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
    )
    .toBe(64);
  await shot(page, 'emergency-face-column-en-US');

  // back to off, so that other specs see the emergency screen as configured by default
  await page.request.post(Api.settingsUpdate.path, {
    data: { type: 'alarmset', sos_alarm_time: 30, sos_alarm_audio: '', type_levels: {}, alerm_face: 0 },
  });
});
