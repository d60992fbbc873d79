import { MenuId, type TrackAnswer, type TrackMarkAnswer } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, callApi } from '../../../test/api';
import {
  auditRows,
  createRole,
  createTestApp,
  createUser,
  DEMO,
  login,
  type Session,
  type TestApp,
} from '../../../test/helpers';
import { addDevice, deviceLogin, unitIdOf, type CreatedDevice } from '../../../test/devices';

let t: TestApp;
let admin: Session;
let dispatcher: Session;
let futianViewer: Session;
let nobody: Session;
let inFutian: CreatedDevice;
let inLuohu: CreatedDevice;
const T0 = Date.parse('2026-03-01T08:00:00Z');
const iso = (s: number) => new Date(T0 + s * 1000).toISOString();
const range = { start: iso(-60), end: iso(3600) };

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  dispatcher = await login(t.app, DEMO.dispatcher.username, DEMO.dispatcher.password);
  const role = await createRole(t.db, 'track viewers', [{ ids: [MenuId.TRACK], actions: ['view'] }]);
  const u1 = await createUser(t.db, { roleId: role, unitBh: '440304000000' });
  futianViewer = await login(t.app, u1.username, u1.password);
  nobody = await login(t.app, (await createUser(t.db, {})).username, 'Test@1234');
  inFutian = await addDevice(t.app, admin, await unitIdOf(t.db, '440304000000'));
  inLuohu = await addDevice(t.app, admin, await unitIdOf(t.db, '440303000000'));
  // drive 3 fixes north, stay 3 minutes, a 10-minute gap, then two more fixes
  const north = (m: number) => 22.5 + m / 111_195;
  const fixes = [
    [0, 0],
    [10, 100],
    [20, 200],
    [80, 205],
    [140, 210],
    [200, 212],
    [210, 400],
    [810, 1400],
    [820, 1500],
  ].map(([s, m]) => ({ time: T0 + s! * 1000, lat: north(m!), lng: 114, speed: 20 }));
  const auth = await deviceLogin(t.app, inFutian);
  const res = await t.app.inject({
    method: 'POST',
    url: '/rest/device/api/positions',
    headers: auth,
    payload: { positions: fixes },
  });
  expect(res.json()).toMatchObject({ code: 200, data: { accepted: fixes.length } });
  const auth2 = await deviceLogin(t.app, inLuohu);
  await t.app.inject({
    method: 'POST',
    url: '/rest/device/api/positions',
    headers: auth2,
    payload: { positions: [{ time: T0, lat: 22.6, lng: 114.1 }] },
  });
  await t.app.devices.drain();
});
afterAll(async () => t.close());

describe('auth, scope, bad input', () => {
  it.each(['trackHistory', 'trackMarks', 'trackExport'] as const)(
    '%s: 401, 403 without menu 10153, 403 out of scope',
    async (name) => {
      const input = { ids: [inFutian.id], ...range };
      expect(await api(t.app, name, null, input, 'en-US')).toMatchObject({ code: 401, msg: 'Please log in first' });
      expect(await api(t.app, name, nobody, input, 'en-US')).toMatchObject({
        code: 403,
        msg: 'Permission denied: this needs "view" on menu 10153',
      });
      expect(await api(t.app, name, futianViewer, { ...input, ids: [inFutian.id, inLuohu.id] }, 'en-US')).toMatchObject(
        {
          code: 403,
          msg: 'This data belongs to a unit outside your unit and its sub-units',
        },
      );
    },
  );
  it('the same history track is open to view on the dispatch menu 10103 (/dispatch/history)', async () => {
    const role = await createRole(t.db, 'dispatch history', [{ ids: [MenuId.HISTORY], actions: ['view'] }]);
    const u = await createUser(t.db, { roleId: role, unitBh: '440304000000' });
    const s = await login(t.app, u.username, u.password);
    const env = await api<TrackAnswer>(t.app, 'trackHistory', s, { ids: [inFutian.id], ...range });
    expect(env).toMatchObject({ code: 200 });
    expect(env.data.tracks[0]!.points).toHaveLength(9);
  });

  it.each([
    [{ ids: [], ...range }, 'Ids are required.'],
    [{ ids: [999999], ...range }, 'Field ids: Devices 999999 do not exist.'],
    [{ ids: [1], start: range.end, end: range.start }, 'Field end: The end time must not be before the start time.'],
    [
      { ids: [1], start: '2026-01-01', end: '2026-03-01' },
      'Field end: The time range must not exceed 31 days, please narrow it.',
    ],
    [{ ids: [1], start: 'yesterday', end: range.end }, 'Start is not a valid date and time.'],
  ])('history refuses %j', async (input, msg) => {
    expect(await api(t.app, 'trackHistory', dispatcher, input, 'en-US')).toMatchObject({ code: 400, msg });
  });
});

describe('history', () => {
  it('answers points in time order with one stop, one gap and the distance', async () => {
    const env = await api<TrackAnswer>(t.app, 'trackHistory', futianViewer, { ids: [inFutian.id], ...range });
    expect(env.code).toBe(200);
    const tr = env.data.tracks[0]!;
    expect(tr).toMatchObject({
      device_id: inFutian.id,
      hostbody: inFutian.hostbody,
      truncated: false,
      next_start: null,
    });
    expect(tr.points.map((p) => p.time)).toEqual([0, 10, 20, 80, 140, 200, 210, 810, 820].map(iso));
    expect(tr.points[0]).toMatchObject({ lat: 22.5, lng: 114, speed: 20 });
    expect(tr.stops).toEqual([
      expect.objectContaining({ start: iso(20), end: iso(200), duration_s: 180, from_index: 2, to_index: 5 }),
    ]);
    expect(tr.gaps).toEqual([expect.objectContaining({ start: iso(210), end: iso(810), duration_s: 600, index: 7 })]);
    expect(tr.distance_m).toBeGreaterThan(1490);
    expect(tr.distance_m).toBeLessThan(1510);
  });
  it('several devices at once; a narrower range cuts the points', async () => {
    const env = await api<TrackAnswer>(t.app, 'trackHistory', dispatcher, {
      ids: [inFutian.id, inLuohu.id],
      start: iso(100),
      end: iso(815),
    });
    expect(env.data.tracks.map((x) => [x.device_id, x.points.length])).toEqual([
      [inFutian.id, 4],
      [inLuohu.id, 0],
    ]);
  });
  it('marks: stop, gap and the online event, oldest first', async () => {
    const env = await api<TrackMarkAnswer>(t.app, 'trackMarks', dispatcher, { ids: [inFutian.id], ...range });
    expect(env.code).toBe(200);
    const types = env.data.marks.map((m) => m.type);
    expect(types).toContain('stop');
    expect(types).toContain('gap');
    const stop = env.data.marks.find((m) => m.type === 'stop')!;
    expect(stop).toMatchObject({ device_id: inFutian.id, time: iso(20), end: iso(200) });
    const times = env.data.marks.map((m) => m.time);
    expect([...times].sort()).toEqual(times);
  });
});

describe('export', () => {
  it('GPX 1.1 with a trkseg per gap-free run and the stop as a waypoint; audited', async () => {
    const res = await callApi(
      t.app,
      'trackExport',
      dispatcher,
      { ids: String(inFutian.id), ...range, format: 'gpx' },
      'en-US',
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/gpx+xml');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="track-20260301-075900.gpx"; filename*=UTF-8''track-20260301-075900.gpx`,
    );
    const xml = res.body;
    expect(xml).toContain('<gpx version="1.1"');
    expect(xml).toContain('xmlns="http://www.topografix.com/GPX/1/1"');
    expect(xml.match(/<trkseg>/g)).toHaveLength(2);
    expect(xml.match(/<trkpt /g)).toHaveLength(9);
    expect(xml).toContain(`<trkpt lat="22.5" lon="114"><time>${iso(0)}</time></trkpt>`);
    expect(xml).toMatch(
      /<wpt lat="[\d.]+" lon="114"><time>2026-03-01T08:00:20.000Z<\/time><name>officer [^<]+ stop of 3 min<\/name>/,
    );
    expect(xml.indexOf('<wpt')).toBeLessThan(xml.indexOf('<trk>'));
    expect((await auditRows(t.db, '/rest/gis/track/export'))[0]).toMatchObject({ result_code: 200 });
  });
  it('KML 2.2 with two LineStrings and a stop point; zh-CN file name', async () => {
    const res = await callApi(t.app, 'trackExport', dispatcher, { ids: String(inFutian.id), ...range, format: 'kml' });
    expect(res.headers['content-type']).toContain('application/vnd.google-earth.kml+xml');
    expect(res.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent('轨迹')}-20260301-075900.kml`,
    );
    expect(res.body).toContain('<kml xmlns="http://www.opengis.net/kml/2.2">');
    expect(res.body.match(/<LineString>/g)).toHaveLength(2);
    expect(res.body).toContain('<coordinates>114,22.5,0 ');
    expect(res.body).toContain('停留 3 分钟');
  });
  it('errors before the file are envelopes', async () => {
    const res = await callApi(
      t.app,
      'trackExport',
      dispatcher,
      { ids: String(inFutian.id), ...range, format: 'kmz' },
      'en-US',
    );
    expect(res.json()).toMatchObject({ code: 400, msg: 'Field format: The export format must be gpx or kml.' });
  });
});
