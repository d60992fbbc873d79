import {
  ALARM_TYPE,
  Api,
  MenuId,
  ResultCode,
  type MediaItem,
  type PlaybackDevice,
  type PlaybackInfo,
  type PlaybackMarksAnswer,
  type PlaybackSearchAnswer,
} from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../../test/api';
import { addDevice, unitIdOf, type CreatedDevice } from '../../../../test/devices';
import {
  createRole,
  createTestApp,
  createUser,
  DEMO,
  login,
  type Session,
  type TestApp,
} from '../../../../test/helpers';
import { insertItem, makeMp4 } from '../library/library.fixture';

let t: TestApp;
/** /monitor/playback view + edit, unit Futian */
let replayUser: Session;
/** the same role, unit Luohu */
let luohuUser: Session;
/** dispatch: emergency 10101 view + edit, unit Futian */
let dispatcher: Session;
/** history 10103 view only, unit Futian */
let historyViewer: Session;
/** no rights */
let nobody: Session;
let camera: CreatedDevice;
let camera2: CreatedDevice;
let foreignCamera: CreatedDevice;
let mp4: Buffer;

const DAY = '2026-03-10';
const at = (hms: string) => `${DAY}T${hms}.000Z`;
/** the range asked: 08:00 to 12:00 */
const range = { start: at('08:00:00'), end: at('12:00:00') };
const items = {} as Record<
  'before' | 'overlapping' | 'first' | 'second' | 'other' | 'after' | 'deleted' | 'foreign',
  { id: number; sha256: string }
>;

/** mediadown / media_down answer */
type MediaDownloadAnswer = { url: string; file_name: string; sha256: string; expires: number };

const custody = async (id: number) =>
  (await t.db.selectFrom('evidence_custody').select('action').where('media_id', '=', id).orderBy('seq').execute()).map(
    (r) => r.action,
  );

beforeAll(async () => {
  t = await createTestApp();
  const admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  const futian = await unitIdOf(t.db, '440304000000');
  const luohu = await unitIdOf(t.db, '440303000000');
  const replay = await createRole(t.db, 'replay desk', [{ ids: [MenuId.PLAYBACK], actions: ['view', 'edit'] }]);
  replayUser = await login(t.app, ...creds(await createUser(t.db, { roleId: replay, unitBh: '440304000000' })));
  luohuUser = await login(t.app, ...creds(await createUser(t.db, { roleId: replay, unitBh: '440303000000' })));
  const dispatch = await createRole(t.db, 'dispatch desk', [{ ids: [MenuId.EMERGENCY], actions: ['view', 'edit'] }]);
  dispatcher = await login(t.app, ...creds(await createUser(t.db, { roleId: dispatch, unitBh: '440304000000' })));
  const history = await createRole(t.db, 'history viewer', [{ ids: [MenuId.HISTORY], actions: ['view'] }]);
  historyViewer = await login(t.app, ...creds(await createUser(t.db, { roleId: history, unitBh: '440304000000' })));
  nobody = await login(t.app, ...creds(await createUser(t.db, { unitBh: '440304000000' })));

  camera = await addDevice(t.app, admin, futian);
  camera2 = await addDevice(t.app, admin, futian);
  foreignCamera = await addDevice(t.app, admin, luohu);
  mp4 = await makeMp4(1);
  const clip = (device: CreatedDevice, unit: number, recorded_at: string, duration: number, title: string) =>
    insertItem(t.app, {
      unit_id: unit,
      bytes: mp4,
      device_id: device.id,
      hostbody: device.hostbody,
      recorded_at,
      duration,
      title,
    });
  items.before = await clip(camera, futian, at('06:00:00'), 600, 'before');
  items.overlapping = await clip(camera, futian, at('07:50:00'), 1200, 'overlapping');
  items.second = await clip(camera, futian, at('10:30:00'), 300, 'second');
  items.first = await clip(camera, futian, at('09:00:00'), 900, 'first');
  items.other = await clip(camera2, futian, at('09:30:00'), 60, 'other device');
  items.after = await clip(camera, futian, at('12:00:01'), 60, 'after');
  items.deleted = await clip(camera, futian, at('11:00:00'), 60, 'deleted');
  await t.db
    .updateTable('evidence_items')
    .set({ deleted_at: at('11:30:00'), delete_reason: 'test' })
    .where('id', '=', items.deleted.id)
    .execute();
  items.foreign = await clip(foreignCamera, luohu, at('09:00:00'), 60, 'luohu');
  await t.app.alarms.ingest({
    eid: `sos:playback-test:${camera.id}`,
    type: ALARM_TYPE.SOS,
    device_id: camera.id,
    unit_id: futian,
    hostname: '',
    hostcode: '',
    hostbody: camera.hostbody,
    alarm_time: at('09:05:00'),
    lat: null,
    lng: null,
    message: 'SOS',
  });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

function creds(u: { username: string; password: string }): [string, string] {
  return [u.username, u.password];
}

describe('videoreplay', () => {
  it('lists the devices of the caller units by keyword', async () => {
    const mine = await api<PlaybackDevice[]>(t.app, 'replayDevices', replayUser, { keyword: camera.hostbody });
    expect(mine.code).toBe(200);
    expect(mine.data.map((d) => d.id)).toEqual([camera.id]);
    const foreign = await api<PlaybackDevice[]>(t.app, 'replayDevices', replayUser, {
      keyword: foreignCamera.hostbody,
    });
    expect(foreign.data).toEqual([]);
  });

  it('finds the devices recordings overlapping the range, oldest first', async () => {
    const res = await api<PlaybackSearchAnswer>(t.app, 'replaySearch', replayUser, {
      ids: [camera.id, camera2.id],
      ...range,
    });
    expect(res.code).toBe(200);
    expect(res.data.recordings.map((r) => r.id)).toEqual([
      items.overlapping.id,
      items.first.id,
      items.other.id,
      items.second.id,
    ]);
    const first = res.data.recordings.find((r) => r.id === items.first.id)!;
    expect(first).toMatchObject({
      device_id: camera.id,
      recorded_at: at('09:00:00'),
      duration: 900,
      end: at('09:15:00'),
      media_type: 1,
    });
    expect(res.data.devices.map((d) => d.id)).toEqual([camera.id, camera2.id]);
    expect(res.data.alarms).toMatchObject([
      { device_id: camera.id, type: 'alarm', alarm_type: ALARM_TYPE.SOS, time: at('09:05:00') },
    ]);
    expect(res.data.truncated).toBe(false);
  });

  it('answers another unit device or item as not found', async () => {
    const search = await api(t.app, 'replaySearch', luohuUser, { ids: [camera.id], ...range });
    expect(search.code).toBe(ResultCode.NOT_FOUND);
    const mixed = await api(t.app, 'replaySearch', replayUser, { ids: [camera.id, foreignCamera.id], ...range });
    expect(mixed.code).toBe(ResultCode.NOT_FOUND);
    for (const [name, input] of [
      ['replayInfo', { id: items.first.id }],
      ['replaySave', { id: items.first.id, flg: 1 }],
      ['replayDownload', { id: items.first.id }],
    ] as const) {
      const res = await api(t.app, name, luohuUser, input);
      expect(res.code, name).toBe(ResultCode.NOT_FOUND);
    }
    expect(await custody(items.first.id)).toEqual(['uploaded']);
    expect((await api(t.app, 'replaySearch', nobody, { ids: [camera.id], ...range })).code).toBe(ResultCode.FORBIDDEN);
    expect((await api(t.app, 'replaySearch', dispatcher, { ids: [camera.id], ...range })).code).toBe(
      ResultCode.FORBIDDEN,
    );
  });

  it('refuses bad input with a message naming the problem', async () => {
    const tooMany = await api(
      t.app,
      'replaySearch',
      replayUser,
      {
        ids: Array.from({ length: 21 }, (_, i) => i + 1),
        ...range,
      },
      'en-US',
    );
    expect(tooMany.code).toBe(ResultCode.INVALID);
    expect(tooMany.msg).toContain('20 devices');
    const reversed = await api(t.app, 'replaySearch', replayUser, {
      ids: [camera.id],
      start: range.end,
      end: range.start,
    });
    expect(reversed.code).toBe(ResultCode.INVALID);
    const noReason = await api(t.app, 'replaySave', replayUser, { id: items.second.id, title: 'x' });
    expect(noReason.code).toBe(ResultCode.INVALID);
  });

  it('getinfo answers a signed play address that serves the bytes and records the view', async () => {
    const res = await api<PlaybackInfo>(t.app, 'replayInfo', replayUser, { id: items.other.id });
    expect(res.code).toBe(200);
    expect(res.data.item).toMatchObject({ id: items.other.id, device_id: camera2.id });
    const play = await t.app.inject({ method: 'GET', url: res.data.play_url, headers: { range: 'bytes=0-9' } });
    expect(play.statusCode).toBe(206);
    expect(play.rawPayload.equals(mp4.subarray(0, 10))).toBe(true);
    expect(await custody(items.other.id)).toEqual(['uploaded', 'viewed', 'streamed']);
    const deleted = await api(t.app, 'replayInfo', replayUser, { id: items.deleted.id });
    expect(deleted.code).toBe(ResultCode.NOT_FOUND);
  });

  it('saveinfo revises title and description and marks, through the library', async () => {
    const res = await api<MediaItem>(t.app, 'replaySave', replayUser, {
      id: items.second.id,
      title: 'traffic stop',
      description: 'plate checked',
      flg: 1,
      reason: 'named after review',
    });
    expect(res.code).toBe(200);
    expect(res.data).toMatchObject({ title: 'traffic stop', description: 'plate checked', flg: 1 });
    const revisions = await t.db
      .selectFrom('evidence_revisions')
      .selectAll()
      .where('media_id', '=', items.second.id)
      .execute();
    expect(revisions).toHaveLength(1);
    expect(JSON.parse(revisions[0]!.changes)).toEqual([
      { field: 'title', before: 'second', after: 'traffic stop' },
      { field: 'description', before: '', after: 'plate checked' },
    ]);
    expect(revisions[0]!.reason).toBe('named after review');
    expect(await custody(items.second.id)).toEqual(['uploaded', 'revised', 'marked']);
    const again = await api(t.app, 'replaySave', replayUser, { id: items.second.id, flg: 1 });
    expect(again.code).toBe(ResultCode.INVALID);
    expect(await custody(items.second.id)).toEqual(['uploaded', 'revised', 'marked']);
    // on the operation log with the item's id, the refusals too (no reason, earlier; the repeat)
    const logged = await t.db
      .selectFrom('operation_log')
      .select(['action', 'target', 'result_code'])
      .where('target', '=', String(items.second.id))
      .where('action', '=', Api.replaySave.path)
      .orderBy('id')
      .execute();
    expect(logged).toEqual([
      { action: Api.replaySave.path, target: String(items.second.id), result_code: 400 },
      { action: Api.replaySave.path, target: String(items.second.id), result_code: 200 },
      { action: Api.replaySave.path, target: String(items.second.id), result_code: 400 },
    ]);
  });

  it('mediadown signs a download address that serves the verified original', async () => {
    const res = await api<MediaDownloadAnswer>(t.app, 'replayDownload', replayUser, { id: items.first.id });
    expect(res.code).toBe(200);
    expect(res.data.sha256).toBe(items.first.sha256);
    const file = await t.app.inject({ method: 'GET', url: res.data.url });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(mp4)).toBe(true);
    const forged = await t.app.inject({
      method: 'GET',
      url: res.data.url.replace(/.$/, (c: string) => (c === 'a' ? 'b' : 'a')),
    });
    expect(forged.statusCode).not.toBe(200);
  });
});

describe('dispatch playback (gis/mediafile, gis/playback)', () => {
  it('history_mark answers recordings as spans and alarms as moments', async () => {
    const res = await api<PlaybackMarksAnswer>(t.app, 'mediafileMarks', historyViewer, { ids: [camera.id], ...range });
    expect(res.code).toBe(200);
    expect(res.data.marks.map((m) => [m.type, m.media_id, m.time, m.end])).toEqual([
      ['recording', items.overlapping.id, at('07:50:00'), at('08:10:00')],
      ['recording', items.first.id, at('09:00:00'), at('09:15:00')],
      ['alarm', null, at('09:05:00'), null],
      ['recording', items.second.id, at('10:30:00'), at('10:35:00')],
    ]);
    const search = await api<PlaybackSearchAnswer>(t.app, 'mediafileSearch', dispatcher, {
      ids: [camera2.id],
      ...range,
    });
    expect(search.data.recordings.map((r) => r.id)).toEqual([items.other.id]);
    expect((await api(t.app, 'mediafileSearch', luohuUser, { ids: [camera.id], ...range })).code).toBe(
      ResultCode.FORBIDDEN,
    );
  });

  it('info_play, mediaflg_edit and media_down go through the library with custody', async () => {
    const info = await api<PlaybackInfo>(t.app, 'playbackInfo', dispatcher, { id: items.overlapping.id });
    expect(info.code).toBe(200);
    expect(info.data.play_url).toContain(`/media/evidence/play/${items.overlapping.id}?token=`);
    const flag = await api<MediaItem>(t.app, 'playbackFlag', dispatcher, { id: items.overlapping.id, flg: 1 });
    expect(flag.code).toBe(200);
    expect(flag.data.flg).toBe(1);
    expect((await api(t.app, 'playbackFlag', historyViewer, { id: items.overlapping.id, flg: 0 })).code).toBe(
      ResultCode.FORBIDDEN,
    );
    const down = await api<MediaDownloadAnswer>(t.app, 'mediafileDownload', historyViewer, {
      id: items.overlapping.id,
    });
    expect(down.code).toBe(200);
    const file = await t.app.inject({ method: 'GET', url: down.data.url });
    expect(file.statusCode).toBe(200);
    expect(await custody(items.overlapping.id)).toEqual(['uploaded', 'viewed', 'marked', 'downloaded']);
    expect((await api(t.app, 'playbackInfo', dispatcher, { id: items.foreign.id })).code).toBe(ResultCode.NOT_FOUND);
  });
});
