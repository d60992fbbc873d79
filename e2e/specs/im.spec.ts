import { deflateSync } from 'node:zlib';
// protocol files directly: the protocol's index imports JSON catalogues, which Node's ESM loader
// refuses without import attributes
import { Api } from '../../packages/protocol/src/endpoints';
import { DEVICE_PROVISION_KEY } from '../playwright.config';
import { expect, test } from '../fixtures';
import { ACCOUNTS, artifact, login, switchLanguage } from '../support/console';
import { apiPost, imei, runTag } from '../support/devices';
import { Terminal } from '../support/terminal';
import { text } from '../support/texts';

/**
 * Instant messages between the dispatcher and a terminal: a body-worn camera
 * with a cluster number, logged onto the console service over a plain websocket, writes to the
 * dispatcher; the emergency screen's messages tab counts it unread, opening the conversation shows
 * it, the dispatcher's answer reaches the terminal as notice_im; an image the terminal uploads
 * (chunk upload, req_send_file_done, req_send_im) is shown inline.
 */
const TAG = runTag();
const HOSTBODY = `E2EIM${TAG}`;
const HOSTNAME = '消息测试';
const HOSTCODE = `66${TAG.slice(-4)}`;

test.describe.configure({ timeout: 240_000 });

let terminal: Terminal;
let logonAnswer: Record<string, unknown>;

/** A small solid PNG (width x width, one colour). */
function png(width: number, rgb: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(width, 4);
  header[8] = 8;
  header[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: width }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture arguments from this pattern
test.beforeAll(async ({}, testInfo) => {
  const base = String(testInfo.project.use.baseURL);
  const provisioned = await apiPost<{ devices: { hostbody: string; secret: string }[] }>(
    base,
    Api.deviceProvision.path,
    {
      devices: [
        {
          hostbody: HOSTBODY,
          imei: imei(`8688${TAG}000`),
          hostname: HOSTNAME,
          hostcode: HOSTCODE,
          jq_hostcode: `9${TAG}`,
        },
      ],
    },
    DEVICE_PROVISION_KEY,
  );
  terminal = await Terminal.logon(base, HOSTBODY, provisioned.devices[0]!.secret);
  logonAnswer = await terminal.next((m) => m.cmd_type === 1 && typeof m.token === 'string');
});
test.afterAll(() => terminal?.close());

test('a terminal and the dispatcher exchange text and images in the messages tab', async ({ page }, testInfo) => {
  await login(page, ACCOUNTS.dispatcher.username, ACCOUNTS.dispatcher.password);
  await page.goto('/dispatch/emergency');
  await expect(page.getByTestId('emergency-page')).toBeVisible();
  await expect.poll(() => page.evaluate(() => Number(sessionStorage.getItem('bwc_login_uid')))).toBeGreaterThan(0);
  const dispatcher = await page.evaluate(() => Number(sessionStorage.getItem('bwc_login_uid')));

  // the terminal writes: unread on the tab and on the conversation
  const hello = `现场需要支援 ${TAG}`;
  const sent = await terminal.request('req_send_im', { target: dispatcher, im_type: 1, content: hello });
  expect(sent).toMatchObject({ cmd_status: 0 });
  const tab = page.getByTestId('im-tab');
  await expect(tab).toHaveAttribute('data-unread', '1');
  await tab.click();
  const row = page.getByTestId('im-conversation').filter({ hasText: HOSTNAME });
  await expect(row.getByTestId('im-unread')).toHaveAttribute('data-count', '1');
  await expect(row).toContainText(hello);
  await page.screenshot({ path: artifact('im-unread-zh-CN') });

  // opened: the message, read; the answer reaches the terminal
  await row.click();
  const messages = page.getByTestId('im-message');
  await expect(messages.filter({ hasText: hello })).toBeVisible();
  await expect(tab).toHaveAttribute('data-unread', '0');
  const reply = `收到，保持位置 ${TAG}`;
  await page.getByTestId('im-input').fill(reply);
  await page.getByTestId('im-input').press('Enter');
  const heard = await terminal.next(
    (m) => m.msg_code === 'notice_im' && (m.im as { content?: string })?.content === reply,
  );
  expect(heard.im).toMatchObject({ from: dispatcher, target: terminal.uid, im_type: 1 });
  await expect(messages.filter({ hasText: reply })).toHaveAttribute('data-mine', '1');

  // an image uploaded by the terminal appears inline in the open conversation
  // the terminal's chunk upload address: /gfile/upload with its token and uid (spec part 1 section 7)
  const upload = `/gfile/upload?token=${encodeURIComponent(String(logonAnswer.token))}&uid=${terminal.uid}`;
  /** The terminal sends a file message: one chunk, completed, then req_send_im naming the fid. */
  const terminalSends = async (bytes: Buffer, name: string, filename: string, imType: number) => {
    const fid = `${name}${TAG}`.replace(/[^A-Za-z0-9_-]/g, '').padEnd(8, '0');
    const posted = await fetch(
      new URL(
        `${upload}&fid=${fid}&offset=0&size=${bytes.length}&filename=${filename}&im_type=${imType}`,
        String(testInfo.project.use.baseURL),
      ),
      { method: 'POST', body: new Uint8Array(bytes), headers: { 'content-type': 'application/octet-stream' } },
    );
    expect(posted.ok).toBe(true);
    expect(await terminal.request('req_send_file_done', { fid })).toMatchObject({ cmd_status: 0 });
    expect(await terminal.request('req_send_im', { target: dispatcher, im_type: imType, fid })).toMatchObject({
      cmd_status: 0,
    });
  };
  await terminalSends(png(48, [200, 60, 40]), 'e2eim', 'scene.png', 2);
  const image = page.getByTestId('im-image');
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(48);
  // the dispatcher sends an image: uploaded in chunks, then the terminal hears of it
  await page
    .getByTestId('im-file-input')
    .setInputFiles({ name: 'reply.png', mimeType: 'image/png', buffer: png(32, [40, 90, 200]) });
  const image2 = await terminal.next(
    (m) => m.msg_code === 'notice_im' && (m.im as { filename?: string })?.filename === 'reply.png',
  );
  expect(image2.im).toMatchObject({ from: dispatcher, im_type: 2 });
  await expect(page.getByTestId('im-image')).toHaveCount(2);
  await expect
    .poll(() =>
      page
        .getByTestId('im-image')
        .nth(1)
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    )
    .toBe(32);
  await page.screenshot({ path: artifact('im-open-zh-CN') });

  // a voice note recorded from the (fake) microphone: Opus in WebM, sent as a voice message
  await page.getByTestId('im-record').click();
  await expect(page.getByTestId('im-recording')).toHaveAttribute('data-seconds', /^[1-9]/);
  await page.screenshot({ path: artifact('im-recording-zh-CN') });
  await page.getByTestId('im-record-send').click();
  const voice = await terminal.next((m) => m.msg_code === 'notice_im' && (m.im as { im_type?: number })?.im_type === 3);
  const note = voice.im as { from: number; filename: string; ourl: string; size: number };
  expect(note).toMatchObject({ from: dispatcher, filename: expect.stringMatching(/^voice-.*\.webm$/) });
  // the terminal downloads it with its token: a WebM file (EBML header) of the announced size
  const auth = `token=${encodeURIComponent(String(logonAnswer.token))}&uid=${terminal.uid}`;
  const fetched = await fetch(new URL(`${note.ourl}?${auth}`, String(testInfo.project.use.baseURL)));
  expect(fetched.ok).toBe(true);
  const recorded = Buffer.from(await fetched.arrayBuffer());
  expect(recorded.length).toBe(note.size);
  expect(recorded.subarray(0, 4).toString('hex')).toBe('1a45dfa3');
  await expect(page.getByTestId('im-voice')).toHaveCount(1);

  // the terminal answers with a voice note of its own: shown in the conversation and played there
  await terminalSends(recorded, 'e2evc', 'answer.webm', 3);
  const answer = page.getByTestId('im-voice').nth(1);
  await expect(page.getByTestId('im-voice')).toHaveCount(2);
  await answer.evaluate((audio: HTMLAudioElement) => audio.play());
  await expect.poll(() => answer.evaluate((audio: HTMLAudioElement) => audio.currentTime)).toBeGreaterThan(0.2);
  expect(await answer.evaluate((audio: HTMLAudioElement) => audio.error)).toBeNull();

  // en-US: the same conversation, its texts in English
  await switchLanguage(page, 'en-US');
  // a message while the dispatcher is on another screen: delivered there, not read
  await page.goto('/menu');
  const away = `换岗时间到了 ${TAG}`;
  expect(await terminal.request('req_send_im', { target: dispatcher, im_type: 1, content: away })).toMatchObject({
    cmd_status: 0,
  });
  // a new page lists its conversations again (req_im_sessions): the terminal's, with what is unread
  await page.goto('/dispatch/emergency');
  await expect(page.getByTestId('im-tab')).toHaveAttribute('data-unread', '1');
  await page.getByTestId('im-tab').click();
  const listed = page.getByTestId('im-conversation').filter({ hasText: HOSTNAME });
  await expect(listed).toContainText(away);
  await expect(listed.getByTestId('im-unread')).toHaveAttribute('data-count', '1');
  await page.screenshot({ path: artifact('im-listed-en-US') });
  await listed.click();
  await expect(page.getByTestId('im-message').filter({ hasText: away })).toBeVisible();
  await expect(page.getByTestId('im-tab')).toHaveAttribute('data-unread', '0');
  // the host list's message button opens the same conversation
  await page.getByRole('tab', { name: text('en-US', 'dispatch:tab.person') }).click();
  const search = page.locator('input[data-testid="host-search"], [data-testid="host-search"] input').first();
  await search.fill(HOSTBODY);
  await search.press('Enter');
  await page.getByTestId('host-list').locator('tr', { hasText: HOSTNAME }).getByTestId('host-message').click();
  await expect(page.getByTestId('im-tab')).toContainText(text('en-US', 'dispatch:tab.im'));
  await expect(page.getByTestId('im-message').filter({ hasText: reply })).toBeVisible();
  await expect(page.getByTestId('im-image')).toHaveCount(2);
  await page.screenshot({ path: artifact('im-open-en-US') });
  await switchLanguage(page, 'zh-CN');
});
