import { ImType, MenuId } from '@bwc/protocol';
import { afterAll, expect, it } from 'vitest';
import { ConsoleClient } from '../../../test/console-client';
import { consoleUrl, logonConsole, logonTerminal } from '../../../test/console-fixtures';
import { createRole, createTestApp, createUser, DEMO, login, type TestApp } from '../../../test/helpers';
import { buildApp } from '../../app';
import { addDevice, unitIdOf } from '../../../test/devices';

/** Logins outlive a server restart: consoles and terminals resume them on the new process. */
let t: TestApp;
let t2: TestApp | undefined;
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await t.close();
  await t2?.close();
});

it('resumes console and terminal logins after a restart (client_alive_time 0 too)', async () => {
  t = await createTestApp();
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const role = await createRole(t.db, 'desk', [{ ids: [MenuId.EMERGENCY], actions: ['view'] }]);
  const u = await createUser(t.db, { roleId: role });
  const session = await login(t.app, u.username, u.password);
  const admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  const device = await addDevice(t.app, admin, await unitIdOf(t.db, '440304000000'), { jq_hostcode: '770001' });
  const desk = await logonConsole(t.app, consoleUrl(address), session, { clientid: 'desk', client_alive_time: 0 });
  const cam = await logonTerminal(consoleUrl(address), device, { clientid: 'cam', client_alive_time: 5 });

  await t.app.close();
  await desk.client.waitClose();
  await cam.client.waitClose();

  const app = await buildApp(t.config);
  closers.push(() => app.close());
  const again = await app.listen({ port: 0, host: '127.0.0.1' });
  const deskAgain = await ConsoleClient.open(consoleUrl(again));
  const camAgain = await ConsoleClient.open(consoleUrl(again));
  closers.push(async () => {
    deskAgain.close();
    camAgain.close();
  });
  expect(await deskAgain.request('heartbeat', { clientid: 'desk', token: desk.token })).toMatchObject({
    logged_on: 1,
    uid: desk.uid,
  });
  expect(await camAgain.request('heartbeat', { clientid: 'cam', token: cam.token })).toMatchObject({
    logged_on: 1,
    uid: device.id,
  });
  expect(app.consoleService.online(desk.uid)).toBe(true);
});

it('delivers every message accepted before a restart exactly once after it', async () => {
  t2 = await createTestApp();
  const address = await t2.app.listen({ port: 0, host: '127.0.0.1' });
  const role = await createRole(t2.db, 'desk', [{ ids: [MenuId.EMERGENCY], actions: ['view'] }]);
  const u = await createUser(t2.db, { roleId: role });
  const session = await login(t2.app, u.username, u.password);
  const admin = await login(t2.app, DEMO.admin.username, DEMO.admin.password);
  const device = await addDevice(t2.app, admin, await unitIdOf(t2.db, '440304000000'), { jq_hostcode: '770002' });
  const desk = await logonConsole(t2.app, consoleUrl(address), session, { clientid: 'desk2', client_alive_time: 5 });
  const cam = await logonTerminal(consoleUrl(address), device, { clientid: 'cam2', client_alive_time: 5 });
  const text = (content: string) => ({ target: device.id, im_type: ImType.TEXT, content });

  // m1 reaches the terminal before the restart; m2 is accepted while its connection is gone
  expect(await desk.client.request('req_send_im', text('m1'))).toMatchObject({ cmd_status: 0 });
  await cam.client.notice('notice_im', (m) => (m.im as { content: string }).content === 'm1');
  cam.client.close();
  await cam.client.waitClose();
  await expect.poll(() => t2!.app.consoleService.online(device.id), { timeout: 30_000 }).toBe(false);
  expect(await desk.client.request('req_send_im', text('m2'))).toMatchObject({ cmd_status: 0 });

  await t2.app.close();
  await desk.client.waitClose();
  const app = await buildApp(t2.config);
  closers.push(() => app.close());
  const again = await app.listen({ port: 0, host: '127.0.0.1' });
  const camAgain = await ConsoleClient.open(consoleUrl(again));
  const deskAgain = await ConsoleClient.open(consoleUrl(again));
  closers.push(async () => {
    camAgain.close();
    deskAgain.close();
  });
  expect(await camAgain.request('heartbeat', { clientid: 'cam2', token: cam.token })).toMatchObject({ logged_on: 1 });
  expect(await deskAgain.request('heartbeat', { clientid: 'desk2', token: desk.token })).toMatchObject({
    logged_on: 1,
  });
  await camAgain.notice('notice_im', (m) => (m.im as { content: string }).content === 'm2');
  // a marker sent after the resume arrives after anything still pending: m1 must not come again
  expect(await deskAgain.request('req_send_im', text('m3'))).toMatchObject({ cmd_status: 0 });
  await camAgain.notice('notice_im', (m) => (m.im as { content: string }).content === 'm3');
  expect(camAgain.notices('notice_im').map((m) => (m.im as { content: string }).content)).toEqual(['m2', 'm3']);

  // the console re-syncs its conversation from the store: all three, newest first
  const list = await deskAgain.request('req_im_list', { target: device.id });
  expect((list.im as { content: string }[]).map((m) => m.content)).toEqual(['m3', 'm2', 'm1']);
});
