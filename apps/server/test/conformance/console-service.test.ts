import {
  CmdStatus,
  ConsoleCodes,
  CONSOLE_MESSAGE_MAX_BYTES,
  GFILE_UPLOAD_PATH,
  ImType,
  MenuId,
  type ConsoleCode,
} from '@bwc/protocol';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleClient } from '../console-client';
import { consoleUrl, logonConsole, logonTerminal, type LoggedOn } from '../console-fixtures';
import { addDevice, deviceLogin, unitIdOf, type CreatedDevice } from '../devices';
import { createRole, createTestApp, createUser, DEMO, login, usingPostgres, type TestApp } from '../helpers';
import { freePort, until } from '../wait';

/**
 * Conformance of the console service, driven with a plain websocket client through every request
 * code of the protocol registry (a code added to the registry without a case here fails the first
 * test). For each code, on the wire as a foreign client would speak it:
 * - without a login: 10104 (but the open codes heartbeat, req_logon, req_logout);
 * - from the other kind of client: 40302; from a console whose role lacks the right: 40301;
 * - a payload with a field of the wrong type: 40004 naming the field;
 * and after each refusal the connection still answers a heartbeat and no table gained or lost a
 * row. Then a valid request gets its documented cmd_status: 0, or for the video codes whose media
 * does not exist yet 50101 "not available yet". The families' own test files check the
 * stored state and the notices in depth; this suite checks that nothing answers outside the
 * contract.
 */

type As = 'desk' | 'cam' | 'fresh' | 'pw' | 'bye';
interface Case {
  /** who sends the valid request */
  as: As;
  /** a valid payload (called when the case runs, after the fixtures exist) */
  valid: () => Record<string, unknown>;
  /** cmd_status of the valid request */
  status: number;
  /** a field that, given an object value, fails the schema (none: the code takes no fields) */
  field?: string;
  /**
   * work the valid request starts after its answer: the case waits until `count` has grown by
   * one, so that the next case's "nothing stored" does not see it land
   */
  after?: () => Promise<number>;
}

let t: TestApp;
let url: string;
let desk: LoggedOn;
let cam: LoggedOn;
let weak: LoggedOn;
let pwUser: { username: string; password: string };
let pwDesk: LoggedOn;
let bye: LoggedOn;
let anon: ConsoleClient;
let camA: CreatedDevice;
let camB: CreatedDevice;
let camC: CreatedDevice;
let tgid = 0;
let tgidToDelete = 0;
const fid = 'conformance-file-1';
const clients: ConsoleClient[] = [];
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
const NOT_AVAILABLE = CmdStatus.NOT_AVAILABLE;

const media = (valid: () => Record<string, unknown>, field: string): Case => ({
  as: 'desk',
  valid,
  status: NOT_AVAILABLE,
  field,
});

const CASES: Record<ConsoleCode, Case> = {
  heartbeat: { as: 'fresh', valid: () => ({ clientid: 'c-1' }), status: 0, field: 'clientid' },
  req_logon: {
    as: 'fresh',
    valid: () => ({ logon_name: camC.hostbody, passwd: camC.secret, user_type: 0, clientid: 'conf-logon' }),
    status: 0,
    field: 'passwd',
  },
  req_logout: { as: 'bye', valid: () => ({}), status: 0 },
  req_change_passwd: {
    as: 'pw',
    valid: () => ({ username: pwUser.username, oldpasswd: pwUser.password, newpasswd: 'Conform@12' }),
    status: 0,
    field: 'oldpasswd',
  },
  req_user_profile: { as: 'desk', valid: () => ({ targets: [camA.id] }), status: 0, field: 'targets' },
  req_params_set: {
    as: 'desk',
    valid: () => ({ targets: [camA.id], paraminfo: { gps_interval: 10 } }),
    status: 0,
    field: 'targets',
  },
  req_user_state: { as: 'desk', valid: () => ({ uids: [camA.id] }), status: 0, field: 'uids' },
  req_add_admin_users: { as: 'desk', valid: () => ({ uids: [camA.id] }), status: 0, field: 'uids' },
  req_query_gps: { as: 'desk', valid: () => ({ target: camA.id }), status: 0, field: 'target' },
  req_query_history_gps: {
    as: 'desk',
    valid: () => ({ target: camA.id, starttime: minutesAgo(60), endtime: minutesAgo(0) }),
    status: 0,
    field: 'starttime',
  },
  req_report_gps: {
    as: 'cam',
    valid: () => ({ gps: [{ time: minutesAgo(1), lat: 22.54, lng: 114.05 }] }),
    status: 0,
    field: 'gps',
  },
  req_send_im: {
    as: 'desk',
    valid: () => ({ target: camA.id, im_type: ImType.TEXT, content: 'conformance' }),
    status: 0,
    field: 'content',
  },
  req_send_file_done: { as: 'desk', valid: () => ({ fid }), status: 0, field: 'fid' },
  req_im_list: { as: 'desk', valid: () => ({ target: camA.id }), status: 0, field: 'count' },
  req_im_sessions: { as: 'desk', valid: () => ({ count: 10 }), status: 0, field: 'count' },
  req_emergency: {
    as: 'cam',
    valid: () => ({ lat: 22.54, lng: 114.05, message: 'help' }),
    status: 0,
    field: 'lat',
    // the SOS makes the camera publish for its recording (sos-recorder.ts): a startlive command
    after: async () =>
      Number(
        (
          await t.db
            .selectFrom('device_commands')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('device_id', '=', camA.id)
            .where('type', '=', 'startlive')
            .executeTakeFirstOrThrow()
        ).n,
      ),
  },
  req_emergency_handled: {
    as: 'desk',
    valid: () => ({ uid: camA.id, processor: 'conformance', ack_type: 0 }),
    status: 0,
    field: 'processor',
  },
  req_grp_profile: { as: 'desk', valid: () => ({ tgid }), status: 0, field: 'tgid' },
  req_group_attach_info: { as: 'desk', valid: () => ({ tgid }), status: 0, field: 'uids' },
  req_create_grp: { as: 'desk', valid: () => ({ name: 'conf temp', uids: [camB.id] }), status: 0, field: 'name' },
  req_delete_grp: { as: 'desk', valid: () => ({ tgid: tgidToDelete }), status: 0, field: 'tgid' },
  req_enter_group: { as: 'desk', valid: () => ({ tgid }), status: 0, field: 'mute' },
  req_leave_group: { as: 'desk', valid: () => ({ tgid }), status: 0, field: 'tgid' },
  req_force_enter_group: { as: 'desk', valid: () => ({ tgid, uids: [camA.id] }), status: 0, field: 'uids' },
  req_force_leave_group: { as: 'desk', valid: () => ({ tgid, uids: [camA.id] }), status: 0, field: 'uids' },
  req_add_grp_mem: { as: 'desk', valid: () => ({ tgid, uids: [camC.id] }), status: 0, field: 'uids' },
  req_rem_grp_mem: { as: 'desk', valid: () => ({ tgid, uids: [camC.id] }), status: 0, field: 'uids' },
  req_get_video_list: { as: 'desk', valid: () => ({ start: -1, length: 0 }), status: 0, field: 'usercamnamelike' },
  req_transform_video: {
    as: 'desk',
    valid: () => ({ videoid: 'conf-v1', videourl: 'ftp://evidence/conf-v1.mp4' }),
    status: 0,
    field: 'videourl',
  },
  req_get_push_video_users: { as: 'desk', valid: () => ({}), status: 0 },
  req_report_video: {
    as: 'cam',
    valid: () => ({
      videoid: 'conf-v2',
      url: 'rtmp://cam/conf-v2.mp4',
      starttime: minutesAgo(30),
      endtime: minutesAgo(20),
    }),
    status: 0,
    field: 'url',
  },
  // voice calls (issue 14 section 4), in this order: the desk calls camA (ringing), camA answers
  // its call, the desk keys a digit
  req_call: { as: 'desk', valid: () => ({ target: camA.id, call_type: 0 }), status: 0, field: 'target' },
  req_call_status: { as: 'cam', valid: () => ({ status: 2 }), status: 0, field: 'status' },
  req_dtmf: { as: 'desk', valid: () => ({ value: '1' }), status: 0, field: 'value' },
  // group talk (issue 14): the floor's outcome is in the answer (denied: the desk is not attached)
  req_ptt_on: { as: 'desk', valid: () => ({ tgid }), status: 0, field: 'emergency' },
  req_ptt_off: { as: 'desk', valid: () => ({ tgid }), status: 0, field: 'tgid' },
  req_ptt_release: { as: 'desk', valid: () => ({ tgid }), status: 0, field: 'tgid' },
  req_ptt_records: { as: 'desk', valid: () => ({ tgid }), status: 0, field: 'count' },
  req_ptt_replay: {
    as: 'desk',
    valid: () => ({ tgid, refid: 'nosuchburst1' }),
    status: CmdStatus.NOT_FOUND,
    field: 'refid',
  },
  // live video of a terminal works (issue 13): camC is online through the device API and the test
  // server runs RTMP ingest
  req_play_video: { as: 'desk', valid: () => ({ target: camC.id, channel: 0 }), status: 0, field: 'channel' },
  req_stop_play_video: { as: 'desk', valid: () => ({ target: camC.id }), status: 0, field: 'resolution' },
  req_switch_camera: media(() => ({ target: camA.id, type: 1 }), 'type'),
  req_video_mute: media(() => ({ target: camA.id, mute: 1 }), 'mute'),
  req_update_video_set: media(() => ({ target: camA.id, quality: 2 }), 'quality'),
  // video conferences (issue 14 section 5), in this order: the desk starts one in the group, shares
  // camC's video into it (by ext id), stops the share (by uid) and ends it
  req_start_video_conf: { as: 'desk', valid: () => ({ tgid }), status: 0, field: 'tgid' },
  req_share_video_in_video_conf: { as: 'desk', valid: () => ({ tgid, vsid: '590003' }), status: 0, field: 'vsid' },
  req_stop_share_video_in_video_conf: {
    as: 'desk',
    valid: () => ({ tgid, vsid: String(camC.id) }),
    status: 0,
    field: 'vsid',
  },
  req_stop_video_conf: { as: 'desk', valid: () => ({ tgid }), status: 0, field: 'tgid' },
};

/** Row count of every table of the database. */
async function rowCounts(): Promise<Record<string, number>> {
  const names = usingPostgres()
    ? await sql<{
        name: string;
      }>`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(
        t.db,
      )
    : await sql<{
        name: string;
      }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(t.db);
  const counts: Record<string, number> = {};
  for (const { name } of names.rows) {
    const r = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(name)}`.execute(t.db);
    counts[name] = Number(r.rows[0]!.n);
  }
  return counts;
}

/** Run `refusals`, then check the connection still answers and no table changed its row count. */
async function refusedWithoutTrace(c: ConsoleClient, refusals: () => Promise<void>): Promise<void> {
  const before = await rowCounts();
  await refusals();
  expect(await c.request('heartbeat')).toMatchObject({ msg_code: 'heartbeat', cmd_status: 0 });
  expect(await rowCounts()).toEqual(before);
}

const clientOf = (as: As): ConsoleClient =>
  ({ cam: cam.client, pw: pwDesk.client, bye: bye.client, desk: desk.client, fresh: anon })[as];

beforeAll(async () => {
  t = await createTestApp({ rtmpPort: await freePort() });
  url = consoleUrl(await t.app.listen({ port: 0, host: '127.0.0.1' }));
  const admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  desk = await logonConsole(t.app, url, admin);
  const futian = await unitIdOf(t.db, '440304000000');
  camA = await addDevice(t.app, admin, futian, { jq_hostcode: '590001' });
  camB = await addDevice(t.app, admin, futian, { jq_hostcode: '590002' });
  camC = await addDevice(t.app, admin, futian, { jq_hostcode: '590003' });
  const online = await t.app.inject({
    method: 'POST',
    url: '/rest/device/api/status',
    headers: await deviceLogin(t.app, camC),
    payload: { state: 'online' },
  });
  expect(online.json()).toMatchObject({ code: 200 });
  cam = await logonTerminal(url, camA);
  // a console that may only read messages (view on Message push): refused everything else
  const reader = await createRole(t.db, 'message reader', [{ ids: [MenuId.MSG_MANAGE], actions: ['view'] }]);
  const readerUser = await createUser(t.db, { roleId: reader, unitBh: '440304000000' });
  weak = await logonConsole(t.app, url, await login(t.app, readerUser.username, readerUser.password));
  const deskRole = await createRole(t.db, 'desk', [{ ids: [MenuId.EMERGENCY], actions: ['view'] }]);
  pwUser = await createUser(t.db, { roleId: deskRole, unitBh: '440304000000' });
  pwDesk = await logonConsole(t.app, url, await login(t.app, pwUser.username, pwUser.password));
  bye = await logonTerminal(url, camB);
  anon = await ConsoleClient.open(url);
  clients.push(desk.client, cam.client, weak.client, pwDesk.client, bye.client, anon);

  const group = await desk.client.request('req_create_grp', { name: 'conformance', uids: [camA.id, camB.id] });
  tgid = (group.group as { tgid: number }).tgid;
  const doomed = await desk.client.request('req_create_grp', { name: 'conformance doomed', uids: [camB.id] });
  tgidToDelete = (doomed.group as { tgid: number }).tgid;
  expect(
    await cam.client.request('req_report_video', {
      videoid: 'conf-v1',
      url: 'rtmp://cam/conf-v1.mp4',
      starttime: minutesAgo(50),
      endtime: minutesAgo(40),
    }),
  ).toMatchObject({ cmd_status: 0 });
  const bytes = Buffer.from('conformance file body');
  const q = new URLSearchParams({
    token: desk.token,
    uid: String(desk.uid),
    fid,
    offset: '0',
    size: String(bytes.length),
    filename: 'notes.txt',
    im_type: String(ImType.FILE),
  });
  const res = await t.app.inject({
    method: 'POST',
    url: `${GFILE_UPLOAD_PATH}?${q.toString()}`,
    payload: bytes,
    headers: { 'content-type': 'application/octet-stream' },
  });
  expect(res.statusCode).toBe(200);
});
afterAll(async () => {
  for (const c of clients) c.close();
  await t.close();
});

describe('console service conformance', () => {
  it('has a case for every request code of the protocol registry', () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(ConsoleCodes).sort());
  });

  it('answers invalid JSON, an unknown code and a 1 MB message with an error, storing nothing', async () => {
    await refusedWithoutTrace(desk.client, async () => {
      expect(await desk.client.raw('{"msg_code": "req_send_im", "target": ')).toMatchObject({
        cmd_status: CmdStatus.BAD_JSON,
      });
      expect(await desk.client.request('req_teleport', { target: camA.id })).toMatchObject({
        msg_code: 'rsp_teleport',
        cmd_status: CmdStatus.UNKNOWN_CODE,
        error_reason: expect.stringContaining('req_teleport'),
      });
      const big = JSON.stringify({
        msg_code: 'req_send_im',
        cmd_type: 0,
        target: camA.id,
        im_type: ImType.TEXT,
        content: 'x'.repeat(1_000_000),
      });
      expect(big.length).toBeGreaterThan(CONSOLE_MESSAGE_MAX_BYTES);
      expect(await desk.client.raw(big)).toMatchObject({ cmd_status: CmdStatus.TOO_LARGE });
    });
  });

  for (const [code, c] of Object.entries(CASES) as [ConsoleCode, Case][]) {
    const rule = ConsoleCodes[code].rule;
    describe(code, () => {
      if (rule.kind !== 'open')
        it('without a login: 10104, connection kept, nothing stored', async () => {
          await refusedWithoutTrace(anon, async () => {
            expect(await anon.request(code, c.valid())).toMatchObject({
              msg_code: code.replace(/^req_/, 'rsp_'),
              cmd_status: CmdStatus.NOT_LOGGED_ON,
            });
          });
        });

      if (rule.kind === 'console' || rule.kind === 'terminal')
        it(`from a ${rule.kind === 'console' ? 'terminal' : 'console'}: 40302, nothing stored`, async () => {
          const other = rule.kind === 'console' ? cam.client : desk.client;
          await refusedWithoutTrace(other, async () => {
            expect(await other.request(code, c.valid())).toMatchObject({
              cmd_status: CmdStatus.WRONG_CLIENT,
              error_reason: expect.stringContaining(code),
            });
          });
        });

      if (rule.kind === 'console' || rule.kind === 'any') {
        const readerMay = rule.action === 'view' && rule.menus.includes(MenuId.MSG_MANAGE);
        if (!readerMay)
          it(`from a console without ${rule.action} on ${rule.menus.join(' / ')}: 40301, nothing stored`, async () => {
            await refusedWithoutTrace(weak.client, async () => {
              expect(await weak.client.request(code, c.valid())).toMatchObject({
                cmd_status: CmdStatus.FORBIDDEN,
                error_reason: expect.stringContaining(String(rule.menus[0])),
              });
            });
          });
      }

      const field = c.field;
      if (field)
        it(`with a wrong type in ${field}: 40004 naming it, nothing stored`, async () => {
          const sender = clientOf(c.as);
          await refusedWithoutTrace(sender, async () => {
            const rsp = await sender.request(code, { ...c.valid(), [field]: { nested: [1] } });
            expect(rsp).toMatchObject({ cmd_status: CmdStatus.BAD_PAYLOAD });
            expect(rsp.error_reason).toContain(field);
          });
        });

      it(`valid: cmd_status ${c.status}${c.status === NOT_AVAILABLE ? ' (media not available yet)' : ''}`, async () => {
        const sender = c.as === 'fresh' ? await ConsoleClient.open(url) : clientOf(c.as);
        if (c.as === 'fresh') clients.push(sender);
        const effects = await c.after?.();
        const rsp = await sender.request(code, c.valid());
        if (effects !== undefined) await until(`${code}: its later work`, async () => (await c.after!()) > effects);
        expect(rsp, String(rsp.error_reason)).toMatchObject({
          msg_code: code === 'heartbeat' ? 'heartbeat' : code.replace(/^req_/, 'rsp_'),
          cmd_type: 1,
          cmd_status: c.status,
        });
        if (c.status === NOT_AVAILABLE) expect(rsp.error_reason).toContain(code);
        else if (c.status === 0) expect(rsp.error_reason).toBe('');
        else expect(rsp.error_reason).not.toBe('');
        expect(await sender.request('heartbeat')).toMatchObject({ cmd_status: 0 });
      });
    });
  }
});
