import { MenuId } from '@bwc/protocol';
import { afterAll, expect, it } from 'vitest';
import { ConsoleClient } from '../../../test/console-client';
import { consoleUrl, logonConsole, logonTerminal } from '../../../test/console-fixtures';
import { createRole, createTestApp, createUser, DEMO, login, type TestApp } from '../../../test/helpers';
import { buildApp } from '../../app';
import { addDevice, unitIdOf } from '../../../test/devices';

/** Logins outlive a server restart: consoles and terminals resume them on the new process. */
let t: TestApp;
const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await t.close();
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
