import { CmdStatus, MenuId } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleClient } from '../../../../test/console-client';
import { consoleUrl, logonConsole, logonTerminal, type LoggedOn } from '../../../../test/console-fixtures';
import { addDevice, deviceLogin, unitIdOf, type CreatedDevice } from '../../../../test/devices';
import { createRole, createTestApp, createUser, DEMO, login, type TestApp } from '../../../../test/helpers';
import { freePort } from '../../../../test/wait';

/**
 * Media codes: live video of a terminal works (issue 13); the others, before their media lands,
 * are validated, stored, their parties told and answered not available.
 */
let t: TestApp;
let url: string;
let desk: LoggedOn;
let luohuDesk: LoggedOn;
let camA: CreatedDevice;
let camB: CreatedDevice;
let a: LoggedOn;
let b: LoggedOn;
const clients: ConsoleClient[] = [];
const stored = () => t.db.selectFrom('console_media_requests').selectAll().orderBy('id').execute();

beforeAll(async () => {
  // the media gateway listens (a free RTMP port): live video of terminals works
  t = await createTestApp({ rtmpPort: await freePort() });
  url = consoleUrl(await t.app.listen({ port: 0, host: '127.0.0.1' }));
  const admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  const role = await createRole(t.db, 'media desk', [{ ids: [MenuId.EMERGENCY], actions: ['view'] }]);
  const logon = async (unit: string) => {
    const u = await createUser(t.db, { roleId: role, unitBh: unit });
    const l = await logonConsole(t.app, url, await login(t.app, u.username, u.password));
    clients.push(l.client);
    return l;
  };
  desk = await logon('440304000000');
  luohuDesk = await logon('440303000000');
  const futian = await unitIdOf(t.db, '440304000000');
  camA = await addDevice(t.app, admin, futian, { jq_hostcode: '570001' });
  camB = await addDevice(t.app, admin, futian, { jq_hostcode: '570002' });
  a = await logonTerminal(url, camA);
  b = await logonTerminal(url, camB);
  clients.push(a.client, b.client);
});
afterAll(async () => {
  for (const c of clients) c.close();
  await t.close();
});

describe('media codes before their media lands', () => {
  it('a camera switch: answered not available, stored, and the terminal told', async () => {
    const rsp = await desk.client.request('req_switch_camera', { target: camA.id, channel: 1, type: 2 });
    expect(rsp).toMatchObject({ msg_code: 'rsp_switch_camera', cmd_status: CmdStatus.NOT_AVAILABLE });
    expect(String(rsp.error_reason)).toContain('req_switch_camera');
    const told = await a.client.notice('notice_switch_camera');
    expect(told).toMatchObject({
      request: 'req_switch_camera',
      from: desk.uid,
      target: camA.id,
      type: 2,
      available: 0,
    });
    const [row] = await stored();
    expect(row).toMatchObject({ code: 'req_switch_camera', from_uid: desk.uid, target_uid: camA.id, tgid: null });
    expect(row!.outcome).toBe('not_available');
    expect(JSON.parse(row!.payload)).toMatchObject({ target: camA.id, type: 2 });
  });

  it('a video request about a user the caller may not see is not found, and nothing is stored', async () => {
    const before = (await stored()).length;
    expect(await luohuDesk.client.request('req_play_video', { target: camA.id })).toMatchObject({
      cmd_status: CmdStatus.NOT_FOUND,
    });
    expect(await stored()).toHaveLength(before);
  });

  it('live video of a terminal works: the terminal told, startlive queued, the console gets its play paths; DTMF stored with nobody to tell', async () => {
    // offline (its device API has not said online): refused with the reason
    const offline = await desk.client.request('req_play_video', { exttarget: '570002', channel: 1 });
    expect(offline).toMatchObject({ cmd_status: CmdStatus.CONFLICT });
    expect(String(offline.error_reason)).toContain('不在线');
    const res = await t.app.inject({
      method: 'POST',
      url: '/rest/device/api/status',
      headers: await deviceLogin(t.app, camB),
      payload: { state: 'online' },
    });
    expect(res.json()).toMatchObject({ code: 200 });
    expect(await desk.client.request('req_play_video', { exttarget: '570002', channel: 1 })).toMatchObject({
      cmd_status: CmdStatus.OK,
      available: 1,
      play: { device_id: camB.id, state: 'starting', ws: expect.stringMatching(/^\/live\/\d+\.flv\?token=/) },
    });
    expect(await b.client.notice('notice_play_video')).toMatchObject({ from: desk.uid, channel: 1, available: 1 });
    expect(await desk.client.notice('notice_play_video')).toMatchObject({ available: 1, play: { device_id: camB.id } });
    const queued = await t.db.selectFrom('device_commands').select('type').where('device_id', '=', camB.id).execute();
    expect(queued.map((c) => c.type)).toEqual(['startlive']);
    expect(await desk.client.request('req_stop_play_video', { exttarget: '570002' })).toMatchObject({
      cmd_status: CmdStatus.OK,
      available: 1,
    });
    expect(await b.client.notice('notice_stop_play_video')).toMatchObject({ from: desk.uid, available: 1 });
    // a terminal asking for video, or a console as target: not available
    expect(await a.client.request('req_play_video', { exttarget: '570002' })).toMatchObject({
      cmd_status: CmdStatus.NOT_AVAILABLE,
    });
    expect(await desk.client.request('req_video_mute', { target: camA.id, mute: 1 })).toMatchObject({
      cmd_status: CmdStatus.NOT_AVAILABLE,
    });
    expect((await stored()).at(-1)).toMatchObject({ code: 'req_video_mute', target_uid: camA.id, tgid: null });
  });
});
