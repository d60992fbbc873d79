import { createHash } from 'node:crypto';
import {
  Api,
  AudioKind,
  decodeAudioFrame,
  encodeAudioFrame,
  MenuId,
  SHARE_PASSWORD_TRIES,
  UPLOAD_PATH,
  type Envelope,
  type MediaDetail,
  type ShareAddAnswer,
  type ShareOpenAnswer,
} from '@bwc/protocol';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../src/db/connection';
import { insertItem, makeMp4, PNG as PNG_BYTES } from '../src/modules/evidence/library/library.fixture';
import { LocalContentStore } from '../src/modules/evidence/store';
import { api } from '../test/api';
import { consoleUrl, logonConsole, logonTerminal, type LoggedOn } from '../test/console-fixtures';
import { ConsoleClient } from '../test/console-client';
import { addDevice, deviceLogin, unitIdOf, type CreatedDevice } from '../test/devices';
import { createRole, createUser, DEMO, login, type Session } from '../test/helpers';
import { openPushChannel } from '../test/push-channel';
import type { TestConsole } from '../test/ws-client';
import {
  createDatabase,
  sharedDataDir,
  startNode,
  startRedis,
  until,
  type Database,
  type RedisServer,
  type ServerNode,
} from './nodes';

/**
 * Issue 12: three server processes on one PostgreSQL database and one Redis behave as one system.
 * Every check talks to the nodes over HTTP and websockets as consoles and devices do, and reads
 * the shared database to count what was stored.
 */

const AI_ENGINE_TOKEN = 'cluster-ai-engine-token-0001';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const FUTIAN = '440304000000';
const LUOHU = '440303000000';
// a ~1.1 km square around (114.05, 22.54)
const SQUARE = [
  { lng: 114.045, lat: 22.535 },
  { lng: 114.055, lat: 22.535 },
  { lng: 114.055, lat: 22.545 },
  { lng: 114.045, lat: 22.545 },
];

let redis: RedisServer;
let database: Database;
let data: ReturnType<typeof sharedDataDir>;
let db: Db;
let nodes: ServerNode[];
let a: ServerNode;
let b: ServerNode;
let c: ServerNode;
let admin: Session;
let futian: number;
let luohu: number;
const sockets: { close: () => void }[] = [];

beforeAll(async () => {
  redis = await startRedis();
  database = await createDatabase();
  data = sharedDataDir();
  const options = (name: string) => ({
    name,
    databaseUrl: database.url,
    redisUrl: redis.url,
    dataDir: data.path,
    env: { AI_ENGINE_TOKEN },
  });
  // started together: the first to take the start lock migrates and seeds, the others wait for it
  nodes = await Promise.all(['node-a', 'node-b', 'node-c'].map((n) => startNode(options(n))));
  [a, b, c] = nodes as [ServerNode, ServerNode, ServerNode];
  db = createDb({ kind: 'postgres', url: database.url });
  admin = await login(a.app, DEMO.admin.username, DEMO.admin.password);
  futian = await unitIdOf(db, FUTIAN);
  luohu = await unitIdOf(db, LUOHU);
}, 180_000);

afterAll(async () => {
  for (const s of sockets) s.close();
  await Promise.all((nodes ?? []).map((n) => n.stop()));
  await db?.destroy();
  await database?.drop();
  await redis?.stop();
  data?.remove();
}, 60_000);

/** A console on the push channel (bell and map) of `node`, logged in with the session's user info. */
async function pushChannel(node: ServerNode, s: Session): Promise<TestConsole> {
  const ws = await openPushChannel(node.app, node.address.replace('http', 'ws'), s);
  sockets.push(ws);
  return ws;
}

/** A user of `unit` with `menus` (view + edit), logged in on `node`. */
async function desk(node: ServerNode, unitBh: string, menus: number[]): Promise<Session> {
  const role = await createRole(db, `role ${Math.random()}`, [{ ids: menus, actions: ['view', 'edit', 'add'] }]);
  const user = await createUser(db, { roleId: role, unitBh });
  return login(node.app, user.username, user.password);
}

async function post(node: ServerNode, path: string, headers: Record<string, string>, payload: object) {
  const res = await node.app.inject({ method: 'POST', url: path, headers, payload });
  return res.json() as Envelope<Record<string, unknown>>;
}

async function positions(node: ServerNode, d: CreatedDevice, fixes: { lat: number; lng: number; time?: number }[]) {
  const auth = await deviceLogin(node.app, d);
  const env = await post(node, '/rest/device/api/positions', auth, {
    positions: fixes.map((f, i) => ({
      time: f.time ?? Date.now() - (fixes.length - i) * 1000,
      lat: f.lat,
      lng: f.lng,
    })),
  });
  expect(env).toMatchObject({ code: 200, data: { accepted: fixes.length } });
}

async function leaseHolder(): Promise<string | null> {
  const client = new Redis(redis.url);
  try {
    return await client.get('bwc:lease:scheduler');
  } finally {
    client.disconnect();
  }
}

const countEvents = async (deviceId: number, type: string) =>
  Number(
    (
      await db
        .selectFrom('device_events')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('device_id', '=', deviceId)
        .where('type', '=', type)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('sessions', () => {
  it('a login on one node is valid on the others; a second login elsewhere forces the first off', async () => {
    const first = await login(a.app, DEMO.dispatcher.username, DEMO.dispatcher.password);
    expect(await api(b.app, 'userInfo', first)).toMatchObject({ code: 200 });
    expect(await api(c.app, 'userInfo', first)).toMatchObject({ code: 200 });
    const bell = await pushChannel(a, first);

    await login(b.app, DEMO.dispatcher.username, DEMO.dispatcher.password);
    // the console on A: its next request and its heartbeat say forced offline, its push channel closes
    expect(await api(a.app, 'userInfo', first)).toMatchObject({ code: 401 });
    expect(JSON.stringify(await api(a.app, 'heartbeatCheck', first))).toContain('fail');
    const closed = await bell.waitClose(20_000);
    expect(closed.code).toBeGreaterThan(1000);
  });
});

describe('push across nodes', () => {
  it('an SOS, a face result and a position ingested on A reach the bell and map of a console on B, once, within its unit', async () => {
    const menus = [MenuId.EMERGENCY, MenuId.DISPATCH_ALARM, MenuId.MONITOR_ALARM, MenuId.FACE_ALARM];
    const futianDesk = await desk(b, FUTIAN, menus);
    const luohuDesk = await desk(b, LUOHU, menus);
    const onB = await pushChannel(b, futianDesk);
    const luohuOnB = await pushChannel(b, luohuDesk);
    const cam = await addDevice(a.app, admin, futian);
    const other = await addDevice(a.app, admin, luohu);

    const auth = await deviceLogin(a.app, cam);
    const sos = await post(a, '/rest/device/api/sos', auth, { lat: 22.54, lng: 114.05, message: 'cluster sos' });
    expect(sos).toMatchObject({ code: 200 });
    const alarm = await onB.next(
      (m) => m.type === 'alarm_data' && (m.data as { hostbody?: string }).hostbody === cam.hostbody,
      20_000,
    );
    expect(alarm.data).toMatchObject({ alerm_level: 'criticle' });

    await post(
      a,
      Api.aiAlarm.path,
      { authorization: `Bearer ${AI_ENGINE_TOKEN}` },
      {
        event_id: `cluster-face-${cam.id}`,
        kind: 'face',
        deviceid: cam.hostbody,
        shottime: new Date().toISOString(),
        imgfile: PNG,
      },
    );
    await onB.next(
      (m) => m.type === 'face_data' && (m.data as { deviceid?: string }).deviceid === cam.hostbody,
      20_000,
    );

    await positions(a, cam, [{ lat: 22.61, lng: 114.1 }]);
    await onB.next(
      (m) => m.type === 'site_data' && (m.data as { device_id: number }[]).some((p) => p.device_id === cam.id),
      20_000,
    );

    // a later SOS of the Luohu device, also on A, reaches Luohu's console on B: by then any
    // duplicate of the first would have come (one publisher, one ordered channel)
    const auth2 = await deviceLogin(a.app, other);
    await post(a, '/rest/device/api/sos', auth2, { lat: 22.55, lng: 114.12, message: 'second' });
    await luohuOnB.next(
      (m) => m.type === 'alarm_data' && (m.data as { hostbody?: string }).hostbody === other.hostbody,
      20_000,
    );
    const alarms = (ws: TestConsole) =>
      ws.messages
        .filter((m) => m.type === 'alarm_data')
        .map((m) => m.data as { id: number; eid: string; hostbody: string });
    // each alarm once: the SOS and the face comparison of the Futian camera, nothing of Luohu's
    const futianAlarms = alarms(onB);
    expect(new Set(futianAlarms.map((x) => x.id)).size).toBe(futianAlarms.length);
    expect(futianAlarms.filter((x) => x.eid.startsWith('sos:'))).toHaveLength(1);
    expect(futianAlarms.every((x) => x.hostbody === cam.hostbody)).toBe(true);
    expect(alarms(luohuOnB).map((x) => x.hostbody)).toEqual([other.hostbody]);
    expect(luohuOnB.messages.filter((m) => m.type === 'face_data')).toEqual([]);
    expect(onB.messages.filter((m) => m.type === 'face_data')).toHaveLength(1);
  });
});

describe('console service across nodes', () => {
  let consoleA: LoggedOn;
  let terminalB: LoggedOn;
  let cam: CreatedDevice;

  beforeAll(async () => {
    const dispatcher = await desk(a, FUTIAN, [MenuId.EMERGENCY, MenuId.CLUSTER, MenuId.MSG_MANAGE]);
    cam = await addDevice(a.app, admin, futian, { jq_hostcode: '449001' });
    consoleA = await logonConsole(a.app, consoleUrl(a.address), dispatcher);
    terminalB = await logonTerminal(consoleUrl(b.address), cam);
    sockets.push(consoleA.client.ws, terminalB.client.ws);
  });

  it('online state agrees on every node', async () => {
    for (const node of [a, b, c]) {
      const viewer = await logonConsole(node.app, consoleUrl(node.address), admin);
      sockets.push(viewer.client.ws);
      await until(`node ${node.name} sees the terminal online`, async () => {
        const rsp = await viewer.client.request('req_user_state', { uids: [terminalB.uid] });
        return (rsp.user_state as { uid: number; state: number }[] | undefined)?.some(
          (u) => u.uid === terminalB.uid && u.state === 7,
        );
      });
      viewer.client.ws.close();
    }
  });

  it('a console on A and a terminal on B exchange messages; an emergency raised on B rings the console on A', async () => {
    const sent = await consoleA.client.request('req_send_im', {
      target_type: 0,
      target: String(terminalB.uid),
      im_type: 1,
      content: 'to the camera on B',
    });
    expect(sent.cmd_status).toBe(0);
    await terminalB.client.notice(
      'notice_im',
      (m) => (m.im as { content: string }).content === 'to the camera on B',
      20_000,
    );

    const back = await terminalB.client.request('req_send_im', {
      target_type: 0,
      target: String(consoleA.uid),
      im_type: 1,
      content: 'from the camera on B',
    });
    expect(back.cmd_status).toBe(0);
    await consoleA.client.notice(
      'notice_im',
      (m) => (m.im as { content: string }).content === 'from the camera on B',
      20_000,
    );

    const sos = await terminalB.client.request('req_emergency', { lat: 22.54, lng: 114.05, message: 'help' });
    expect(sos.cmd_status).toBe(0);
    await consoleA.client.notice('notice_emergency', (m) => m.uid === terminalB.uid, 20_000);
  });

  it('a group created on A reaches its member on B and reads the same on C', async () => {
    const created = await consoleA.client.request('req_create_grp', { name: 'cluster group', uids: [terminalB.uid] });
    expect(created.cmd_status).toBe(0);
    const tgid = (created.group as { tgid: number }).tgid;
    await terminalB.client.notice('notice_create_grp', (m) => (m.group as { tgid: number }).tgid === tgid, 20_000);
    const viewer = await logonConsole(c.app, consoleUrl(c.address), admin);
    sockets.push(viewer.client.ws);
    const profile = await viewer.client.request('req_grp_profile', { tgid });
    expect(profile.groups).toEqual([
      expect.objectContaining({ tgid, tg_name: 'cluster group', uids: expect.arrayContaining([terminalB.uid]) }),
    ]);
    viewer.client.ws.close();
  });

  it("group talk: one floor for the group whichever node asks; the talker's audio reaches listeners on the other nodes", async () => {
    const camOnC = await addDevice(a.app, admin, futian, { jq_hostcode: '449003' });
    const terminalC = await logonTerminal(consoleUrl(c.address), camOnC);
    sockets.push(terminalC.client.ws);
    const created = await consoleA.client.request('req_create_grp', {
      name: 'talk across nodes',
      uids: [terminalB.uid, terminalC.uid],
    });
    const tgid = (created.group as { tgid: number }).tgid;
    for (const who of [consoleA, terminalB, terminalC])
      expect(await who.client.request('req_enter_group', { tgid })).toMatchObject({ cmd_status: 0 });

    // the two terminals on B and C ask at once, many times over: never two talkers
    const since = (who: LoggedOn) => {
      const mark = who.client.ws.messages.length;
      return (m: Record<string, unknown>) => who.client.ws.messages.indexOf(m) >= mark;
    };
    for (let round = 0; round < 5; round += 1) {
      const fresh = { a: since(consoleA), b: since(terminalB), c: since(terminalC) };
      const [onB, onC] = await Promise.all([
        terminalB.client.request('req_ptt_on', { tgid }),
        terminalC.client.request('req_ptt_on', { tgid }),
      ]);
      const results = [onB.result, onC.result].sort();
      expect(results).toEqual(['granted', 'queued']);
      const winner = onB.result === 'granted' ? terminalB : terminalC;
      const other = winner === terminalB ? terminalC : terminalB;
      const otherFresh = other === terminalB ? fresh.b : fresh.c;
      // the console on A learns who talks
      await consoleA.client.notice(
        'notice_ptt_status',
        (m) => fresh.a(m) && m.tgid === tgid && (m.talker as { uid: number } | null)?.uid === winner.uid,
        20_000,
      );
      // the winner's frames reach A and the other terminal, on their own nodes
      const before = { a: consoleA.client.ws.audio.length, other: other.client.ws.audio.length };
      for (let i = 0; i < 20; i += 1)
        winner.client.ws.sendBinary(
          encodeAudioFrame({
            kind: AudioKind.GROUP,
            flags: 0,
            tgid,
            uid: 0,
            seq: round * 100 + i,
            clock: i * 20,
            opus: Uint8Array.from([0xfc, round, i]),
          }),
        );
      await until('the frames crossed the nodes', async () =>
        consoleA.client.ws.audio.length - before.a >= 20 && other.client.ws.audio.length - before.other >= 20
          ? true
          : undefined,
      );
      const heard = consoleA.client.ws.audio.slice(before.a).map((f) => decodeAudioFrame(f.data)!);
      expect(heard.map((f) => f.seq)).toEqual(Array.from({ length: 20 }, (_, i) => round * 100 + i));
      expect(heard.every((f) => f.uid === winner.uid && f.tgid === tgid)).toBe(true);
      // the waiting one gets the floor when the winner lets go, then lets go too
      expect(await winner.client.request('req_ptt_off', { tgid })).toMatchObject({ cmd_status: 0 });
      await other.client.notice(
        'notice_ptt_status',
        (m) => otherFresh(m) && m.tgid === tgid && (m.talker as { uid: number } | null)?.uid === other.uid,
        20_000,
      );
      expect(await other.client.request('req_ptt_off', { tgid })).toMatchObject({ cmd_status: 0 });
      await consoleA.client.notice(
        'notice_ptt_status',
        (m) =>
          fresh.a(m) &&
          m.tgid === tgid &&
          m.talker === null &&
          (m.previous as { uid: number } | null)?.uid === other.uid,
        20_000,
      );
    }
    terminalC.client.ws.close();
  });

  it("a node killed with -9: its terminal resumes on another node, and the dead node's logins are announced offline", async () => {
    const watcher = await logonConsole(a.app, consoleUrl(a.address), admin);
    sockets.push(watcher.client.ws);
    const cam2 = await addDevice(a.app, admin, futian, { jq_hostcode: '449002' });
    const onC = await logonTerminal(consoleUrl(c.address), cam2, { clientid: 'cam2-client', client_alive_time: 5 });
    await until('A sees the terminal on C', async () => {
      const rsp = await watcher.client.request('req_user_state', { uids: [onC.uid] });
      return (rsp.user_state as { uid: number; state: number }[]).some((u) => u.state === 7);
    });
    const stored = await onC.client.request('req_send_im', {
      target_type: 0,
      target: String(watcher.uid),
      im_type: 1,
      content: 'sent before the crash',
    });
    expect(stored.cmd_status).toBe(0);

    await c.kill();
    // announced offline by the node running the scheduled work, once C's beat expired
    await watcher.client.notice('notice_user_state', (m) => m.uid === onC.uid && m.state === 0, 60_000);
    // the terminal resumes its login on B with its token
    const again = await ConsoleClient.open(consoleUrl(b.address));
    sockets.push(again.ws);
    const resumed = await again.request('heartbeat', { clientid: 'cam2-client', token: onC.token });
    expect(resumed).toMatchObject({ logged_on: 1, uid: onC.uid });
    await watcher.client.notice('notice_user_state', (m) => m.uid === onC.uid && m.state === 7, 20_000);
    // what C acknowledged before it died is there
    await watcher.client.notice(
      'notice_im',
      (m) => (m.im as { content: string }).content === 'sent before the crash',
      20_000,
    );
    await c.restart();
  });
});

describe('device runtime across nodes', () => {
  it('positions and online state are right whichever node a device reports to; the silence timeout fires once', async () => {
    const cam = await addDevice(a.app, admin, futian);
    const t0 = Date.now() - 100_000;
    await positions(a, cam, [{ lat: 22.5, lng: 114.0, time: t0 }]);
    await positions(b, cam, [{ lat: 22.51, lng: 114.01, time: t0 + 10_000 }]);
    await positions(c, cam, [{ lat: 22.52, lng: 114.02, time: t0 + 20_000 }]);
    await positions(a, cam, [{ lat: 22.53, lng: 114.03, time: t0 + 30_000 }]);
    const row = await db.selectFrom('devices').selectAll().where('id', '=', cam.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ lineon: 1, lat: 22.53, lng: 114.03 });
    expect(await countEvents(cam.id, 'online')).toBe(1);
    // a fix older than A's last one but newer than anything B has seen itself does not replace it
    await positions(b, cam, [{ lat: 1, lng: 1, time: t0 + 25_000 }]);
    expect(await db.selectFrom('devices').select('lat').where('id', '=', cam.id).executeTakeFirstOrThrow()).toEqual({
      lat: 22.53,
    });

    // the shortest silence timeout, set on C: the device goes offline once, not once per node
    expect(await api(c.app, 'deviceSettingsUpdate', admin, { silence_timeout_s: 10 })).toMatchObject({ code: 200 });
    await until('the silent device is offline', async () => {
      const r = await db.selectFrom('devices').select('lineon').where('id', '=', cam.id).executeTakeFirstOrThrow();
      return r.lineon === 0;
    });
    expect(await countEvents(cam.id, 'offline')).toBe(1);
    const offlineAlarms = () =>
      db.selectFrom('alarms').select('eid').where('device_id', '=', cam.id).where('eid', 'like', 'offline:%').execute();
    await until('its offline alarm is stored', async () => (await offlineAlarms()).length > 0);
    expect(await offlineAlarms()).toHaveLength(1);

    // back online through B (A's cached copy still said online before the sweep told it): once
    await positions(b, cam, [{ lat: 22.54, lng: 114.04 }]);
    await positions(a, cam, [{ lat: 22.55, lng: 114.05 }]);
    expect(await countEvents(cam.id, 'online')).toBe(2);
    expect(await api(c.app, 'deviceSettingsUpdate', admin, { silence_timeout_s: 300 })).toMatchObject({ code: 200 });
  });

  it("a command queued on one node wakes the device's long poll on another", async () => {
    const cam = await addDevice(a.app, admin, futian);
    await positions(b, cam, [{ lat: 22.5, lng: 114.0 }]);
    const auth = await deviceLogin(b.app, cam);
    const started = Date.now();
    const poll = b.app.inject({
      method: 'GET',
      url: '/rest/device/api/commands',
      query: { wait: '25' },
      headers: auth,
    });
    // the poll is waiting on B before the command is queued on A
    await new Promise((r) => setTimeout(r, 500));
    expect(await api(a.app, 'gisSendCmd', admin, { imei: cam.imei, type: 'takephoto' })).toMatchObject({ code: 200 });
    const got = (await poll).json() as Envelope<{ type: string }[]>;
    expect(got.data.map((x) => x.type)).toEqual(['takephoto']);
    // woken, not answered at the end of its 25 s wait
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

describe('caches', () => {
  it('a permission revoked on A is refused on B at the next request; a device deleted on A is refused on B', async () => {
    const role = await createRole(db, `cache role ${Date.now()}`, [{ ids: [MenuId.RECORDERS], actions: ['view'] }]);
    const user = await createUser(db, { roleId: role });
    const s = await login(b.app, user.username, user.password);
    expect(await api(b.app, 'deviceSettingsGet', s)).toMatchObject({ code: 200 });
    expect(await api(a.app, 'roleAuthUpdate', admin, { id: role, permissions: [] })).toMatchObject({ code: 200 });
    expect(await api(b.app, 'deviceSettingsGet', s)).toMatchObject({ code: 403 });

    const cam = await addDevice(a.app, admin, futian);
    const auth = await deviceLogin(b.app, cam);
    expect(
      await post(b, '/rest/device/api/positions', auth, { positions: [{ time: Date.now(), lat: 22.5, lng: 114 }] }),
    ).toMatchObject({ code: 200 });
    expect(await api(a.app, 'deviceDelete', admin, { id: cam.id })).toMatchObject({ code: 200 });
    await until(
      'B refuses the deleted device',
      async () => {
        const env = await post(b, '/rest/device/api/positions', auth, {
          positions: [{ time: Date.now(), lat: 22.5, lng: 114 }],
        });
        return env.code === 401;
      },
      10_000,
    );
  });
});

describe('evidence across nodes', () => {
  it("a file token's first request is on the custody record once whichever nodes serve it; a share link's wrong passwords count on every node", async () => {
    // the nodes share DATA_DIR, so an original stored by one is read by all
    const owner = {
      db,
      evidenceLibrary: { store: new LocalContentStore(data.path) },
    } as unknown as FastifyInstance;
    const item = await insertItem(owner, { unit_id: futian, bytes: PNG_BYTES, title: 'cluster item' });
    const view = await api<MediaDetail>(a.app, 'mediaView', admin, { id: item.id });
    expect(view.code).toBe(200);
    for (const node of [a, b, c, b]) {
      const res = await node.app.inject({ method: 'GET', url: view.data.play_url });
      expect(res.statusCode, node.name).toBe(200);
    }
    const streamed = await db
      .selectFrom('evidence_custody')
      .select('id')
      .where('media_id', '=', item.id)
      .where('action', '=', 'streamed')
      .execute();
    expect(streamed).toHaveLength(1);

    const share = await api<ShareAddAnswer>(a.app, 'shareAdd', admin, {
      media_ids: [item.id],
      recipient: 'cluster prosecutor',
      days: 1,
      password: 'right one',
    });
    expect(share.code).toBe(200);
    const open = async (node: ServerNode, password: string) =>
      (await post(node, Api.shareOpen.path, {}, { token: share.data.token, password }))
        .data as unknown as ShareOpenAnswer;
    // the tries spread over the three nodes add up to the limit
    for (let i = 0; i < SHARE_PASSWORD_TRIES; i++)
      expect((await open(nodes[i % 3]!, `wrong ${i}`)).status).toBe('wrongPassword');
    for (const node of nodes) expect((await open(node, 'right one')).status, node.name).toBe('locked');
  });

  it('an upload begun on one node is finished on another (shared DATA_DIR) with the right hash', async () => {
    const bytes = await makeMp4(1);
    const half = Math.floor(bytes.length / 2);
    const tus = { ...admin.headers, 'tus-resumable': '1.0.0' };
    const b64 = (v: string) => Buffer.from(v).toString('base64');
    const created = await fetch(`${a.address}${UPLOAD_PATH}`, {
      method: 'POST',
      headers: {
        ...tus,
        'upload-length': String(bytes.length),
        'upload-metadata': `filename ${b64('cluster clip.mp4')},filetype ${b64('video/mp4')}`,
      },
    });
    expect(created.status).toBe(201);
    const path = new URL(created.headers.get('location')!, a.address).pathname;
    const patch = (node: ServerNode, offset: number, part: Buffer) =>
      fetch(`${node.address}${path}`, {
        method: 'PATCH',
        headers: { ...tus, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        body: part,
      });
    expect((await patch(a, 0, bytes.subarray(0, half))).status).toBe(204);
    // B knows nothing of A's running hash: it rebuilds it from the partial file
    const head = await fetch(`${b.address}${path}`, { method: 'HEAD', headers: tus });
    expect(head.headers.get('upload-offset')).toBe(String(half));
    const done = await patch(b, half, bytes.subarray(half));
    expect(done.status).toBe(204);
    const itemId = Number(done.headers.get('evidence-item'));
    const item = await db
      .selectFrom('evidence_items')
      .select('sha256')
      .where('id', '=', itemId)
      .executeTakeFirstOrThrow();
    expect(item.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
  });
});

describe('scheduled work', () => {
  it('fence crossings are detected once, whichever node the positions reach, and the work moves when its node dies', async () => {
    const holder = await until('a node holds the scheduler lease', leaseHolder);
    const fence = await api<{ id: number }>(b.app, 'fenceAdd', admin, {
      name: 'cluster square',
      rule: 'both',
      shape: { type: 'polygon', points: SQUARE },
      unit_id: futian,
    });
    expect(fence).toMatchObject({ code: 200 });
    const cam = await addDevice(a.app, admin, futian);
    // the bell of a console on a node that does not run the engine
    const bell = await pushChannel(
      nodes.find((n) => n.name !== holder)!,
      admin,
    );
    const t0 = Date.now() - 60_000;
    await positions(a, cam, [{ lat: 22.52, lng: 114.05, time: t0 }]);
    await positions(b, cam, [{ lat: 22.54, lng: 114.05, time: t0 + 10_000 }]);
    await positions(c, cam, [{ lat: 22.52, lng: 114.05, time: t0 + 20_000 }]);
    const crossings = () =>
      db.selectFrom('fence_events').select(['direction']).where('device_id', '=', cam.id).orderBy('id').execute();
    await until('two crossings stored', async () => (await crossings()).length >= 2);
    expect((await crossings()).map((x) => x.direction)).toEqual(['enter', 'exit']);
    const fenceAlarms = () =>
      bell.messages
        .filter((m) => m.type === 'alarm_data' && (m.data as { hostbody: string }).hostbody === cam.hostbody)
        .map((m) => (m.data as { eid: string }).eid);
    await until('both fence alarms rang the bell', async () => fenceAlarms().length >= 2);
    expect(new Set(fenceAlarms()).size).toBe(fenceAlarms().length);
    expect(fenceAlarms().every((eid) => eid.startsWith('fence:'))).toBe(true);

    // the holder dies: another node takes the lease and the engine with it
    const dead = nodes.find((n) => n.name === holder)!;
    await dead.kill();
    const next = await until(
      'another node holds the lease',
      async () => {
        const h = await leaseHolder();
        return h && h !== holder ? h : null;
      },
      60_000,
    );
    expect(nodes.map((n) => n.name)).toContain(next);
    const alive = nodes.find((n) => n.name !== holder)!;
    await positions(alive, cam, [{ lat: 22.54, lng: 114.05, time: t0 + 30_000 }]);
    await until('the third crossing stored', async () => (await crossings()).length >= 3);
    expect((await crossings()).map((x) => x.direction)).toEqual(['enter', 'exit', 'enter']);
    await dead.restart();
  });
});
