import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ImType, UserState } from '@bwc/protocol';
import { startSimulator, type StopSimulator } from '@bwc/simulator';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { consoleUrl, logonConsole, type LoggedOn } from '../../../test/console-fixtures';
import { createTestApp, DEMO, login, type TestApp } from '../../../test/helpers';
import { buildApp } from '../../app';
import { PROVISION_KEY_FILE } from '../../modules/devices/device-api.routes';

/**
 * The simulator's devices with a cluster number as terminals of the real console service: they
 * log on, their positions reach the position store and the consoles' notices, and messages go
 * both ways (a console's text answered, group messages to the other members).
 */
let t: TestApp;
let address: string;
let restarted: FastifyInstance | null = null;
let sim: StopSimulator | null = null;
let desk: LoggedOn;
let terminals: { id: number; jq_hostcode: string }[];

beforeAll(async () => {
  t = await createTestApp();
  address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  sim = await startSimulator({
    server: address,
    devices: 10,
    provisionKey: readFileSync(join(t.config.dataDir, PROVISION_KEY_FILE), 'utf8').trim(),
    intervalS: [0.2, 0.4],
    seed: 3,
    offlineRate: 0,
    sosRate: 0,
    imRate: 1,
    replyRate: 1,
    commands: false,
    prefix: 'TTRM',
  });
  const devices = await t.db
    .selectFrom('devices')
    .select(['id', 'jq_hostcode'])
    .where('hostbody', 'like', 'TTRM%')
    .orderBy('id')
    .execute();
  terminals = devices.filter((d) => d.jq_hostcode !== '');
  desk = await logonConsole(t.app, consoleUrl(address), await login(t.app, DEMO.admin.username, DEMO.admin.password));
});
afterAll(async () => {
  desk?.client.close();
  await sim?.();
  await restarted?.close();
  await t.close();
});

it('logs every device with a cluster number on as a terminal, and only those', async () => {
  expect(terminals.length).toBe(7);
  expect(sim!.stats.terminals).toBe(7);
  for (const d of terminals) expect(t.app.consoleService.online(d.id)).toBe(true);
  const states = await desk.client.request('req_user_state', { uids: terminals.map((d) => d.id) });
  expect(states.cmd_status).toBe(0);
  const entries = states.user_state as { uid: number; state: number }[];
  expect(entries.map((u) => u.uid).sort()).toEqual(terminals.map((d) => d.id).sort());
  expect(entries.every((u) => u.state === UserState.ONLINE)).toBe(true);
});

it('reports positions through the service into the position store and the consoles’ gps notices', async () => {
  const first = terminals[0]!;
  await expect
    .poll(
      async () =>
        Number(
          (
            await t.db
              .selectFrom('positions')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('device_id', '=', first.id)
              .executeTakeFirstOrThrow()
          ).n,
        ),
      { timeout: 15_000 },
    )
    .toBeGreaterThanOrEqual(3);
  const notice = await desk.client.notice('notice_gps', (m) =>
    (m.gps as { uid: number }[]).some((g) => g.uid === first.id),
  );
  expect((notice.gps as { uid: number; ext_id: string }[]).find((g) => g.uid === first.id)!.ext_id).toBe(
    first.jq_hostcode,
  );
  const device = await t.db
    .selectFrom('devices')
    .select(['lat', 'lng'])
    .where('id', '=', first.id)
    .executeTakeFirstOrThrow();
  expect(device.lat).not.toBeNull();
});

it('answers a console’s text, and writes to its talk group once it has one', async () => {
  const target = terminals[1]!;
  const sent = await desk.client.request('req_send_im', { target: target.id, im_type: ImType.TEXT, content: '请回复' });
  expect(sent.cmd_status).toBe(0);
  const answer = await desk.client.notice('notice_im', (m) => (m.im as { from: number }).from === target.id, 20_000);
  expect(answer.im).toMatchObject({ target: desk.uid, target_type: 0, im_type: ImType.TEXT });
  await expect.poll(() => sim!.stats.imAnswered, { timeout: 5_000 }).toBeGreaterThanOrEqual(1);

  // a group of three terminals: they learn of it (notice_create_grp) and write to it (imRate 1:
  // at every upload), each receiving the others' messages
  const members = terminals.slice(0, 3).map((d) => d.id);
  const before = sim!.stats.imReceived;
  const created = await desk.client.request('req_create_grp', { name: 'sim', uids: members });
  expect(created.cmd_status).toBe(0);
  const tgid = (created.group as { tgid: number }).tgid;
  await expect
    .poll(
      async () =>
        (
          await t.db
            .selectFrom('console_im')
            .select('from_uid')
            .where('target_type', '=', 1)
            .where('target', '=', tgid)
            .execute()
        ).map((r) => r.from_uid),
      { timeout: 15_000 },
    )
    .toEqual(expect.arrayContaining([expect.toSatisfy((uid: number) => members.includes(uid))]));
  await expect.poll(() => sim!.stats.imReceived, { timeout: 15_000 }).toBeGreaterThan(before);
});

// last: it replaces the server the other tests use
it('resumes every terminal login on a server restarted at the same address', async () => {
  const ids = terminals.map((d) => d.id);
  const loginsBefore = await t.db.selectFrom('console_logins').select('id').where('device_id', 'in', ids).execute();
  expect(loginsBefore.length).toBeGreaterThanOrEqual(ids.length);
  desk.client.close();
  await t.app.close();
  restarted = await buildApp(t.config);
  await restarted.listen({ port: Number(new URL(address).port), host: '127.0.0.1' });
  const service = restarted.consoleService;
  // the terminals reconnect after REALTIME_RECONNECT_MS (5 s) and resume their logins
  await vi.waitFor(() => expect(ids.filter((id) => !service.online(id))).toEqual([]), {
    timeout: 60_000,
    interval: 250,
  });
  const loginsAfter = await restarted.db
    .selectFrom('console_logins')
    .select('id')
    .where('device_id', 'in', ids)
    .execute();
  // resumed, not logged on anew: the same login rows, none added
  expect(loginsAfter.map((l) => l.id).sort()).toEqual(loginsBefore.map((l) => l.id).sort());
  await vi.waitFor(() => expect(sim!.stats.terminalsOnline).toBe(ids.length), { timeout: 30_000 });
}, 120_000);
