import { CmdStatus, MenuId } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleClient } from '../../../../test/console-client';
import { consoleUrl, logonConsole, logonTerminal, type LoggedOn } from '../../../../test/console-fixtures';
import { addDevice, unitIdOf, type CreatedDevice } from '../../../../test/devices';
import { createRole, createTestApp, createUser, DEMO, login, type TestApp } from '../../../../test/helpers';

/** Video family: terminals report recorded videos; consoles of their unit list them and ask for transfers. */
let t: TestApp;
let url: string;
let futianDesk: LoggedOn;
let futianViewer: LoggedOn;
let luohuDesk: LoggedOn;
let futianCam: CreatedDevice;
let luohuCam: CreatedDevice;
let cam: LoggedOn;
let luohu: LoggedOn;
const clients: ConsoleClient[] = [];
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
const videoIds = (rsp: Record<string, unknown>) => (rsp.videos as { videoid: string }[]).map((v) => v.videoid);

beforeAll(async () => {
  t = await createTestApp();
  url = consoleUrl(await t.app.listen({ port: 0, host: '127.0.0.1' }));
  const admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  const editor = await createRole(t.db, 'video desk', [
    { ids: [MenuId.EMERGENCY], actions: ['view'] },
    { ids: [MenuId.DISPATCH_VIDEO], actions: ['view', 'edit'] },
  ]);
  const viewer = await createRole(t.db, 'video viewer', [
    { ids: [MenuId.EMERGENCY], actions: ['view'] },
    { ids: [MenuId.DISPATCH_VIDEO], actions: ['view'] },
  ]);
  const logon = async (role: number, unit: string) => {
    const u = await createUser(t.db, { roleId: role, unitBh: unit });
    const l = await logonConsole(t.app, url, await login(t.app, u.username, u.password));
    clients.push(l.client);
    return l;
  };
  futianDesk = await logon(editor, '440304000000');
  futianViewer = await logon(viewer, '440304000000');
  luohuDesk = await logon(editor, '440303000000');
  futianCam = await addDevice(t.app, admin, await unitIdOf(t.db, '440304000000'), {
    jq_hostcode: '560001',
    hostname: 'Patrol cam A',
  });
  luohuCam = await addDevice(t.app, admin, await unitIdOf(t.db, '440303000000'), { jq_hostcode: '560002' });
  cam = await logonTerminal(url, futianCam);
  luohu = await logonTerminal(url, luohuCam);
  clients.push(cam.client, luohu.client);
});
afterAll(async () => {
  for (const c of clients) c.close();
  await t.close();
});

describe('req_report_video', () => {
  it('stores a terminal video, updates it when reported again, and refuses an id of another terminal', async () => {
    for (const [videoid, name, h] of [
      ['v-100', 'arrest at gate', 3],
      ['v-101', 'traffic stop', 2],
      ['v-102', 'night patrol', 1],
    ] as const)
      expect(
        await cam.client.request('req_report_video', {
          videoid,
          name,
          url: `rtmp://cam/${videoid}.mp4`,
          starttime: hoursAgo(h),
          endtime: hoursAgo(h - 0.5),
          size: 1_000_000,
        }),
      ).toMatchObject({ msg_code: 'rsp_report_video', cmd_status: 0, videoid });
    expect(
      await cam.client.request('req_report_video', {
        videoid: 'v-101',
        name: 'traffic stop (full)',
        url: 'rtmp://cam/v-101.mp4',
        starttime: hoursAgo(2),
        endtime: hoursAgo(1.2),
        size: 2_000_000,
      }),
    ).toMatchObject({ cmd_status: 0 });
    const stored = await t.db.selectFrom('console_videos').selectAll().where('videoid', '=', 'v-101').execute();
    expect(stored).toEqual([expect.objectContaining({ name: 'traffic stop (full)', size: 2_000_000 })]);

    const taken = await luohu.client.request('req_report_video', {
      videoid: 'v-100',
      url: 'rtmp://other/v-100.mp4',
      starttime: hoursAgo(1),
      endtime: hoursAgo(0.5),
    });
    expect(taken).toMatchObject({ cmd_status: CmdStatus.CONFLICT, error_reason: expect.stringContaining('v-100') });
    const still = await t.db.selectFrom('console_videos').select('device_id').where('videoid', '=', 'v-100').execute();
    expect(still).toEqual([{ device_id: futianCam.id }]);
    expect(
      await luohu.client.request('req_report_video', {
        videoid: 'v-200',
        url: 'rtmp://luohu/v-200.mp4',
        starttime: hoursAgo(1),
        endtime: hoursAgo(0.5),
      }),
    ).toMatchObject({ cmd_status: 0 });
  });

  it('refuses consoles, a missing url and an end before the start, storing nothing', async () => {
    const ok = { videoid: 'v-x', url: 'rtmp://x', starttime: hoursAgo(1), endtime: hoursAgo(0.5) };
    expect(await futianDesk.client.request('req_report_video', ok)).toMatchObject({
      cmd_status: CmdStatus.WRONG_CLIENT,
    });
    expect(await cam.client.request('req_report_video', { ...ok, url: '' })).toMatchObject({
      cmd_status: CmdStatus.BAD_PAYLOAD,
      error_reason: expect.stringContaining('url'),
    });
    expect(await cam.client.request('req_report_video', { ...ok, endtime: hoursAgo(2) })).toMatchObject({
      cmd_status: CmdStatus.BAD_PAYLOAD,
      error_reason: expect.stringContaining('endtime'),
    });
    expect(await t.db.selectFrom('console_videos').select('videoid').where('videoid', '=', 'v-x').execute()).toEqual(
      [],
    );
  });
});

describe('req_get_video_list', () => {
  it('lists the videos of the unit newest first with names; start below 0 is 0, length 0 is 100', async () => {
    const rsp = await futianDesk.client.request('req_get_video_list', { start: -5, length: 0 });
    expect(rsp).toMatchObject({ msg_code: 'rsp_get_video_list', cmd_status: 0, total: 3, start: 0, length: 100 });
    expect(videoIds(rsp)).toEqual(['v-102', 'v-101', 'v-100']);
    expect((rsp.videos as unknown[])[0]).toMatchObject({
      uid: futianCam.id,
      ext_id: '560001',
      display_name: 'Patrol cam A',
      name: 'night patrol',
      url: 'rtmp://cam/v-102.mp4',
    });
    const luohuList = await luohuDesk.client.request('req_get_video_list', {});
    expect(videoIds(luohuList)).toEqual(['v-200']);
  });

  it('pages, filters by name and time, and refuses a reversed range', async () => {
    const page = await futianDesk.client.request('req_get_video_list', { start: 1, length: 1 });
    expect(page).toMatchObject({ total: 3, start: 1, length: 1 });
    expect(videoIds(page)).toEqual(['v-101']);
    expect(videoIds(await futianDesk.client.request('req_get_video_list', { usercamnamelike: 'PATROL' }))).toEqual([
      'v-102',
      'v-101',
      'v-100',
    ]);
    expect(videoIds(await futianDesk.client.request('req_get_video_list', { usercamnamelike: 'traffic' }))).toEqual([
      'v-101',
    ]);
    expect(
      videoIds(
        await futianDesk.client.request('req_get_video_list', { starttime: hoursAgo(2.5), endtime: hoursAgo(1.5) }),
      ),
    ).toEqual(['v-101']);
    expect(
      await futianDesk.client.request('req_get_video_list', { starttime: hoursAgo(1), endtime: hoursAgo(2) }),
    ).toMatchObject({ cmd_status: CmdStatus.BAD_PAYLOAD });
  });
});

describe('req_transform_video', () => {
  it('answers cmd_status 2 for an empty videoId and 3 for an empty videoUrl, as the spec says', async () => {
    expect(await futianDesk.client.request('req_transform_video', { videoid: '', videourl: 'ftp://x' })).toMatchObject({
      cmd_status: 2,
      error_reason: 'videoId empty',
    });
    expect(await futianDesk.client.request('req_transform_video', { videoid: 'v-100' })).toMatchObject({
      cmd_status: 3,
      error_reason: 'videoUrl empty',
    });
  });

  it('records the transfer and notifies the owning terminal; refuses other units and viewers', async () => {
    const rsp = await futianDesk.client.request('req_transform_video', {
      videoid: 'v-101',
      videourl: 'ftp://evidence/v-101.mp4',
    });
    expect(rsp).toMatchObject({ cmd_status: 0, videoid: 'v-101', videourl: 'ftp://evidence/v-101.mp4' });
    expect(await cam.client.notice('notice_transform_video')).toMatchObject({
      videoid: 'v-101',
      videourl: 'ftp://evidence/v-101.mp4',
    });
    const row = await t.db.selectFrom('console_videos').selectAll().where('videoid', '=', 'v-101').executeTakeFirst();
    expect(row).toMatchObject({ transform_url: 'ftp://evidence/v-101.mp4', transform_by: futianDesk.uid });

    expect(
      await luohuDesk.client.request('req_transform_video', { videoid: 'v-100', videourl: 'ftp://x' }),
    ).toMatchObject({ cmd_status: CmdStatus.NOT_FOUND });
    expect(
      await futianViewer.client.request('req_transform_video', { videoid: 'v-100', videourl: 'ftp://x' }),
    ).toMatchObject({ cmd_status: CmdStatus.FORBIDDEN });
    const untouched = await t.db
      .selectFrom('console_videos')
      .select('transform_url')
      .where('videoid', '=', 'v-100')
      .executeTakeFirst();
    expect(untouched).toEqual({ transform_url: '' });
  });
});

describe('req_get_push_video_users', () => {
  it('answers the empty list: no terminal pushes live video before live video exists', async () => {
    expect(await futianDesk.client.request('req_get_push_video_users', {})).toMatchObject({
      cmd_status: 0,
      users: [],
    });
  });
});
