import { createServer, type AddressInfo } from 'node:net';
import { CmdStatus, CONSOLE_MESSAGE_MAX_BYTES, CONSOLE_WS_PATH } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleClient } from '../../../test/console-client';
import { groupApiOf } from '../../../test/console-fixtures';
import { createTestApp, DEMO, login, type TestApp } from '../../../test/helpers';

/** The console service's transport and dispatcher: every bad message answered, the connection kept. */
let t: TestApp;
let url: string;
const clients: ConsoleClient[] = [];

async function client(query = ''): Promise<ConsoleClient> {
  const c = await ConsoleClient.open(`${url}${query}`);
  clients.push(c);
  return c;
}

beforeAll(async () => {
  t = await createTestApp();
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `${address.replace('http', 'ws')}${CONSOLE_WS_PATH}`;
});
afterAll(async () => {
  for (const c of clients) c.close();
  await t.close();
});

describe('console service dispatcher', () => {
  it('answers a heartbeat with the cbid and session echoed', async () => {
    const c = await client();
    const rsp = await c.request('heartbeat', { clientid: '1700000000000', session: 's-1' });
    expect(rsp).toMatchObject({
      msg_code: 'heartbeat',
      cmd_type: 1,
      cmd_status: 0,
      error_reason: '',
      logged_on: 0,
      session: 's-1',
    });
    expect(rsp.time).toEqual(expect.any(Number));
  });

  it('answers invalid JSON and non-objects with BAD_JSON and keeps the connection', async () => {
    const c = await client();
    expect(await c.raw('{"msg_code": "heartbeat",')).toMatchObject({
      msg_code: 'rsp_error',
      cmd_type: 1,
      cmd_status: CmdStatus.BAD_JSON,
      error_reason: '消息不是有效的 JSON 对象',
    });
    expect(await c.raw('[1, 2]')).toMatchObject({ cmd_status: CmdStatus.BAD_JSON });
    expect(await c.raw('"text"')).toMatchObject({ cmd_status: CmdStatus.BAD_JSON });
    expect(await c.request('heartbeat')).toMatchObject({ cmd_status: 0 });
  });

  it('names an unknown or missing msg_code', async () => {
    const c = await client();
    expect(await c.request('req_fly_to_moon')).toMatchObject({
      msg_code: 'rsp_fly_to_moon',
      cmd_status: CmdStatus.UNKNOWN_CODE,
      error_reason: '未知的 msg_code：req_fly_to_moon',
    });
    expect(await c.request('notice_gps')).toMatchObject({ msg_code: 'rsp_error', cmd_status: CmdStatus.UNKNOWN_CODE });
    expect(await c.raw('{"cmd_type":0}')).toMatchObject({
      cmd_status: CmdStatus.UNKNOWN_CODE,
      error_reason: '消息缺少 msg_code',
    });
    expect(await c.raw('{"msg_code":12}')).toMatchObject({ cmd_status: CmdStatus.UNKNOWN_CODE });
  });

  it('refuses messages that are not requests', async () => {
    const c = await client();
    expect(await c.request('heartbeat', { cmd_type: 2 })).toMatchObject({
      msg_code: 'heartbeat',
      cmd_status: CmdStatus.BAD_CMD_TYPE,
    });
  });

  it('answers a 1 MB message with TOO_LARGE and keeps the connection', async () => {
    const c = await client('?lang=en-US');
    const big = JSON.stringify({ msg_code: 'heartbeat', cmd_type: 0, pad: 'x'.repeat(1_000_000) });
    const rsp = await c.raw(big);
    expect(rsp).toMatchObject({ msg_code: 'rsp_error', cmd_status: CmdStatus.TOO_LARGE });
    expect(rsp.error_reason).toBe(
      `The message is too large: ${big.length} bytes, at most ${CONSOLE_MESSAGE_MAX_BYTES} bytes`,
    );
    expect(await c.request('heartbeat')).toMatchObject({ cmd_status: 0 });
    expect(c.closed).toBeNull();
  });

  it('names the field that fails its schema, in the connection language', async () => {
    const zh = await client();
    expect(await zh.request('req_logon', { logon_name: 'dispatcher' })).toMatchObject({
      msg_code: 'rsp_logon',
      cmd_status: CmdStatus.BAD_PAYLOAD,
      error_reason: '字段 passwd：不能为空',
    });
    const en = await client('?lang=en-US');
    expect(
      await en.request('req_logon', { logon_name: 'dispatcher', passwd: 'x', client_alive_time: 'soon' }),
    ).toMatchObject({
      cmd_status: CmdStatus.BAD_PAYLOAD,
      error_reason: 'Client alive time must be a number.',
    });
  });

  it('refuses a code that needs a login before reading its payload (10104)', async () => {
    const c = await client();
    expect(await c.request('req_user_profile', { targets: 'not a list' })).toMatchObject({
      msg_code: 'rsp_user_profile',
      cmd_status: CmdStatus.NOT_LOGGED_ON,
    });
    expect(await c.request('req_call', { target: 'x' })).toMatchObject({ cmd_status: CmdStatus.NOT_LOGGED_ON });
  });
});

describe('console service listener on its own port', () => {
  it('serves the same service on CONSOLE_PORT', async () => {
    const own = await createTestApp({ consolePort: 18133 });
    try {
      await own.app.listen({ port: 0, host: '127.0.0.1' });
      let c: ConsoleClient | undefined;
      for (let i = 0; i < 50 && !c; i++) {
        c = await ConsoleClient.open('ws://127.0.0.1:18133/').catch(async () => {
          await new Promise((r) => setTimeout(r, 100));
          return undefined;
        });
      }
      expect(c).toBeDefined();
      expect(await c!.request('heartbeat')).toMatchObject({ msg_code: 'heartbeat', cmd_status: 0 });
      expect(await c!.raw('not json')).toMatchObject({ cmd_status: CmdStatus.BAD_JSON });
      c!.close();
      // gis info hands out the dedicated port while the service listens on it
      const admin = await login(own.app, DEMO.admin.username, DEMO.admin.password);
      expect(await groupApiOf(own.app, admin)).toMatchObject({ port: 18133, path: '/' });
    } finally {
      await own.close();
    }
  });

  it('hands out the main port and path when CONSOLE_PORT is taken by another process', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const taken = (holder.address() as AddressInfo).port;
    const own = await createTestApp({ consolePort: taken });
    try {
      const address = await own.app.listen({ port: 0, host: '127.0.0.1' });
      const admin = await login(own.app, DEMO.admin.username, DEMO.admin.password);
      const account = await groupApiOf(own.app, admin);
      expect(account.port).not.toBe(taken);
      expect(account).toMatchObject({ path: CONSOLE_WS_PATH });
      // and that address answers: the console reaches the service there at once
      const c = await ConsoleClient.open(`ws://127.0.0.1:${new URL(address).port}${account.path}`);
      expect(await c.request('heartbeat')).toMatchObject({ msg_code: 'heartbeat', cmd_status: 0 });
      c.close();
    } finally {
      await own.close();
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
