import { CONSOLE_WS_PATH, type GroupApi } from '@bwc/protocol';
import { describe, expect, it, vi } from 'vitest';
import { FakeSocket } from './fakeSocket';
import { groupLogin } from './groupLogin';
import { SdkLogger } from './log';
import { RealtimeSdk } from './RealtimeSdk';

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const api: GroupApi = {
  switch: 1,
  ip: '127.0.0.1',
  port: 18120,
  path: CONSOLE_WS_PATH,
  orgid: '440300000000',
  username: 'desk',
  djpwd: 'derived',
  islogin: 0,
};
const user = {
  uid: 100000007,
  ext_id: 'itrunk_desk',
  user_type: 1,
  display_name: 'Desk',
  username: 'desk',
  unit_id: 1,
  unitname: 'HQ',
  dwbh: '440300000000',
  state: 7,
  paraminfo: {},
};

function setup() {
  const sockets: FakeSocket[] = [];
  const sdk = new RealtimeSdk({
    createSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      queueMicrotask(() => s.open());
      return s;
    },
    logger: new SdkLogger({ sink: silent, document: null }),
    location: { protocol: 'http:', host: '127.0.0.1:18120', hostname: '127.0.0.1' },
    watchConnectivity: () => () => undefined,
  });
  const current = () => sockets[sockets.length - 1]!;
  /** answers the next request of `code` */
  async function answer(code: string, payload: Record<string, unknown>) {
    await vi.waitFor(() => expect(current().last(code)).toBeDefined());
    const req = current().last(code)!;
    current().receive({
      msg_code: code.replace('req_', 'rsp_'),
      cmd_type: 1,
      cbid: req.cbid,
      error_reason: '',
      cmd_status: 0,
      ...payload,
    });
    return req;
  }
  return { sdk, sockets, current, answer };
}

const logonAnswer = {
  uid: user.uid,
  ext_id: user.ext_id,
  user_type: 1,
  display_name: 'Desk',
  token: 'tok',
  clientid: '1',
  client_alive_time: 1,
  client_login_time: 1,
  took_over: 0,
};

describe('groupLogin (spec part 2 sections 4 and 8)', () => {
  it('fails when the feature is off, without connecting', async () => {
    const { sdk, sockets } = setup();
    expect(await groupLogin(sdk, undefined, 'zh-CN')).toEqual({ kind: 'featureOff' });
    expect(await groupLogin(sdk, { ...api, switch: 0 }, 'zh-CN')).toEqual({ kind: 'featureOff' });
    expect(sockets).toHaveLength(0);
  });

  it('fails when the account is logged in elsewhere', async () => {
    const { sdk, sockets } = setup();
    expect(await groupLogin(sdk, { ...api, islogin: 1 }, 'zh-CN')).toEqual({ kind: 'elsewhere' });
    expect(sockets).toHaveLength(0);
  });

  it('logs on with the group_api account at its address, then resumes that login', async () => {
    const { sdk, current, answer } = setup();
    const outcome = groupLogin(sdk, api, 'en-US');
    const req = await answer('req_logon', logonAnswer);
    expect(current().url).toBe(`ws://127.0.0.1:18120${CONSOLE_WS_PATH}?lang=en-US`);
    expect(req).toMatchObject({ logon_name: 'desk', passwd: 'derived', orgid: '440300000000', client_alive_time: 1 });
    await answer('req_user_profile', { user_info: [user], unknown: [] });
    expect(await outcome).toEqual({ kind: 'success' });
    expect(sdk.login?.login_uid).toBe(user.uid);
    // the same account again (a reload, islogin now 1): resumed, no second logon
    expect(await groupLogin(sdk, { ...api, islogin: 1 }, 'en-US')).toEqual({ kind: 'resumed' });
    expect(current().sent.filter((m) => m.msg_code === 'req_logon')).toHaveLength(1);
  });

  it('counts 10105 as already logged in and reports other failures with their reason', async () => {
    const { sdk, current } = setup();
    const first = groupLogin(sdk, api, 'zh-CN');
    await vi.waitFor(() => expect(current().last('req_logon')).toBeDefined());
    current().receive({
      msg_code: 'rsp_logon',
      cmd_type: 1,
      cbid: current().last('req_logon')!.cbid,
      cmd_status: 10105,
      error_reason: '',
    });
    expect(await first).toEqual({ kind: 'already' });
    const second = groupLogin(sdk, api, 'zh-CN');
    await vi.waitFor(() => expect(current().sent.filter((m) => m.msg_code === 'req_logon')).toHaveLength(2));
    current().receive({
      msg_code: 'rsp_logon',
      cmd_type: 1,
      cbid: current().last('req_logon')!.cbid,
      cmd_status: 40101,
      error_reason: 'wrong password',
    });
    expect(await second).toEqual({ kind: 'failed', reason: 'wrong password' });
  });
});
