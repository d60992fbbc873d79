import { CONSOLE_WS_PATH, ImType, SdkCode, type GroupApi } from '@bwc/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LoginCacheStore } from './cache';
import { SdkLogger } from './log';
import { InitStatus, RealtimeSdk, type AnyMessage, type Notice, type SdkSocket } from './RealtimeSdk';

/**
 * The real SDK against a real server (the server's own test helpers: fresh SQLite database, demo
 * data, listening on a free port) over real websockets (the `ws` package: Node 20 has no global
 * WebSocket). The server's test helpers are loaded by path at run time, so that the console's
 * type check does not compile the server (its Node types are not the console's).
 */

interface ServerApp {
  listen(options: { port: number; host: string }): Promise<string>;
  db: unknown;
}
interface Logged {
  client: {
    request(code: string, payload?: Record<string, unknown>): Promise<AnyMessage>;
    notice(code: string, test?: (m: AnyMessage) => boolean): Promise<AnyMessage>;
    close(): void;
  };
  uid: number;
}
interface Helpers {
  createTestApp(): Promise<{ app: ServerApp; db: unknown; close(): Promise<void> }>;
  login(app: ServerApp, username: string, password: string): Promise<unknown>;
  DEMO: { admin: { username: string; password: string } };
}
interface Fixtures {
  groupApiOf(app: ServerApp, session: unknown): Promise<GroupApi>;
  logonTerminal(url: string, device: { hostbody: string; secret: string }): Promise<Logged>;
  consoleUrl(address: string): string;
}
interface Devices {
  addDevice(
    app: ServerApp,
    session: unknown,
    unitId: number,
    extra: Record<string, unknown>,
  ): Promise<{ id: number; hostbody: string; secret: string }>;
  unitIdOf(db: unknown, bh: string): Promise<number>;
}

const load = <T>(file: string) =>
  import(/* @vite-ignore */ new URL(`../../../../server/test/${file}`, import.meta.url).pathname) as Promise<T>;

class MemoryStorage implements Storage {
  private map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  clear() {
    this.map.clear();
  }
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  key(index: number) {
    return [...this.map.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
  setItem(key: string, value: string) {
    this.map.set(key, value);
  }
}

let server: Awaited<ReturnType<Helpers['createTestApp']>>;
let terminal: Logged | undefined;
let sdk: RealtimeSdk | undefined;
afterAll(async () => {
  sdk?.destroy();
  terminal?.client.close();
  await server?.close();
});

let address = '';
let account: GroupApi;
let device: { id: number; hostbody: string; secret: string };
beforeAll(async () => {
  const helpers = await load<Helpers>('helpers.ts');
  const fixtures = await load<Fixtures>('console-fixtures.ts');
  const devices = await load<Devices>('devices.ts');
  server = await helpers.createTestApp();
  address = await server.app.listen({ port: 0, host: '127.0.0.1' });
  const admin = await helpers.login(server.app, helpers.DEMO.admin.username, helpers.DEMO.admin.password);
  account = await fixtures.groupApiOf(server.app, admin);
  device = await devices.addDevice(server.app, admin, await devices.unitIdOf(server.db, '440304000000'), {
    jq_hostcode: '770101',
  });
  terminal = await fixtures.logonTerminal(fixtures.consoleUrl(address), device);
}, 120_000);

it('logs on with the group_api account, caches the login and exchanges messages with a terminal', async () => {
  const wsPackage = 'ws'; // untyped here: the console has no @types/ws
  const { WebSocket } = (await import(/* @vite-ignore */ wsPackage)) as { WebSocket: new (url: string) => unknown };
  const port = Number(new URL(address).port);
  const storage = new MemoryStorage();
  sdk = new RealtimeSdk({
    createSocket: (url) => new WebSocket(url) as unknown as SdkSocket,
    cache: new LoginCacheStore(() => storage),
    logger: new SdkLogger({
      document: null,
      sink: { debug: () => undefined, info: () => undefined, warn: console.warn, error: console.error },
    }),
    location: { protocol: 'http:', host: `127.0.0.1:${port}`, hostname: '127.0.0.1' },
  });
  expect(account.switch).toBe(1);
  // the configured address answers on the main port under the path
  sdk.init({ ip: '127.0.0.1', port, path: account.path, lang: 'en-US' });
  expect(account.path).toBe(CONSOLE_WS_PATH);
  expect(sdk.initStatus).toBe(InitStatus.DONE);
  await expect(sdk.request('req_user_state', { uids: [device.id] })).rejects.toMatchObject({
    code: SdkCode.NOT_LOGGED_IN,
  });

  const answer = await sdk.logon({
    logon_name: account.username,
    passwd: account.djpwd,
    orgid: account.orgid,
    client_alive_time: 5,
  });
  expect(sdk.login).toMatchObject({
    login_uid: answer.uid,
    login_user: { uid: answer.uid, user_type: 1 },
    token: answer.token,
  });
  expect(sdk.login?.upload_url_gfile).toContain(`uid=${answer.uid}`);

  const received = new Promise<Notice<'notice_im'>>((resolve) =>
    sdk!.on('notice_im', (n) => n.im.extfrom === '770101' && resolve(n)),
  );
  const ownCopy = new Promise<Notice<'notice_im'>>((resolve) =>
    sdk!.on('notice_im', (n) => n.im.from === answer.uid && resolve(n)),
  );

  // console -> terminal: the response resolves the request and comes back as a notice_im
  const sent = await sdk.request('req_send_im', {
    target: device.id,
    im_type: ImType.TEXT,
    content: 'to the terminal',
  });
  expect(sent.im.content).toBe('to the terminal');
  expect((await ownCopy).cmd_type).toBe(2);
  const atTerminal = await terminal!.client.notice(
    'notice_im',
    (m) => (m.im as { content: string }).content === 'to the terminal',
  );
  expect((atTerminal.im as { from: number }).from).toBe(answer.uid);

  // terminal -> console
  const reply = await terminal!.client.request('req_send_im', {
    target: answer.uid,
    im_type: ImType.TEXT,
    content: 'to the console',
  });
  expect(reply.cmd_status).toBe(0);
  expect((await received).im.content).toBe('to the console');

  // a fire-and-forget code resolves true, the server's answer comes back as notices
  const state = new Promise<Notice<'notice_user_state'>>((resolve) =>
    sdk!.on('notice_user_state', (n) => n.uid === device.id && resolve(n)),
  );
  await expect(sdk.request('req_user_state', { uids: [device.id] })).resolves.toBe(true);
  expect((await state).state).toBe(7);

  // a failure carries the service's reason in the console's language
  const refused = await sdk.request('req_im_list', { target: 999_999_999 }).catch((e: unknown) => e);
  expect(refused).toMatchObject({ code: SdkCode.FAILURE });

  await sdk.logout();
  expect(sdk.login).toBeNull();
}, 60_000);
