import { describe, expect, it } from 'vitest';
import { FenceAddRequest, FenceShape, ZoneAddRequest } from './fences';
import { GroupAddRequest, GroupFromDevicesRequest } from './groups';
import { GeocodeSettings } from './maps';
import { TrackExportQuery, TrackQuery } from './tracks';

const firstIssue = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) => {
  expect(r.success).toBe(false);
  const i = r.error!.issues[0]!;
  return { path: i.path.map(String).join('.'), message: i.message };
};
const square = [
  { lng: 114, lat: 22 },
  { lng: 114.01, lat: 22 },
  { lng: 114.01, lat: 22.01 },
  { lng: 114, lat: 22.01 },
];
const base = { name: 'F1', rule: 'both', shape: { type: 'polygon', points: square } };

describe('fence shapes', () => {
  it('a valid polygon, circle and rectangle parse, with defaults', () => {
    const f = FenceAddRequest.parse(base);
    expect(f.shape).toMatchObject({ type: 'polygon', holes: [] });
    expect(f).toMatchObject({ time_start: '', time_end: '', device_ids: [], unit_ids: [], enabled: 1, remark: '' });
    expect(FenceShape.parse({ type: 'circle', center: { lng: '114', lat: '22' }, radius: '150' })).toEqual({
      type: 'circle',
      center: { lng: 114, lat: 22 },
      radius: 150,
    });
    expect(FenceShape.safeParse({ type: 'rectangle', sw: { lng: 1, lat: 1 }, ne: { lng: 2, lat: 2 } }).success).toBe(
      true,
    );
  });
  it('two points are refused', () => {
    expect(
      firstIssue(FenceAddRequest.safeParse({ ...base, shape: { type: 'polygon', points: square.slice(0, 2) } })),
    ).toEqual({ path: 'shape.points', message: 'validation.fence.points' });
  });
  it('latitude 91 is refused on that point', () => {
    const pts = square.map((p, i) => (i === 2 ? { ...p, lat: 91 } : p));
    expect(firstIssue(FenceAddRequest.safeParse({ ...base, shape: { type: 'polygon', points: pts } }))).toEqual({
      path: 'shape.points.2.lat',
      message: 'validation.latitude',
    });
    expect(firstIssue(FenceShape.safeParse({ type: 'circle', center: { lng: 0, lat: -91 }, radius: 5 }))).toEqual({
      path: 'center.lat',
      message: 'validation.latitude',
    });
  });
  it('bow tie, collinear, radius 0 and an inverted rectangle are refused', () => {
    const bow = [square[0], square[2], square[1], square[3]];
    expect(firstIssue(FenceShape.safeParse({ type: 'polygon', points: bow }))).toEqual({
      path: 'points',
      message: 'validation.fence.selfIntersect',
    });
    const line = [
      { lng: 0, lat: 0 },
      { lng: 1, lat: 1 },
      { lng: 2, lat: 2 },
    ];
    expect(firstIssue(FenceShape.safeParse({ type: 'polygon', points: line }))).toEqual({
      path: 'points',
      message: 'validation.fence.degenerate',
    });
    expect(firstIssue(FenceShape.safeParse({ type: 'circle', center: square[0], radius: 0 }))).toEqual({
      path: 'radius',
      message: 'validation.fence.radius',
    });
    expect(
      firstIssue(FenceShape.safeParse({ type: 'rectangle', sw: { lng: 2, lat: 2 }, ne: { lng: 1, lat: 1 } })),
    ).toEqual({ path: 'ne', message: 'validation.fence.rectangle' });
    expect(firstIssue(FenceShape.safeParse({ type: 'hexagon' }))).toMatchObject({
      message: 'validation.fence.shapeType',
    });
  });
  it('holes need 3 points; rule and time window are checked', () => {
    expect(firstIssue(FenceShape.safeParse({ type: 'polygon', points: square, holes: [square.slice(0, 2)] }))).toEqual({
      path: 'holes.0',
      message: 'validation.fence.holePoints',
    });
    expect(firstIssue(FenceAddRequest.safeParse({ ...base, rule: 'inside' }))).toEqual({
      path: 'rule',
      message: 'validation.fence.rule',
    });
    expect(firstIssue(FenceAddRequest.safeParse({ ...base, time_start: '25:00', time_end: '06:00' }))).toEqual({
      path: 'time_start',
      message: 'validation.fence.clock',
    });
    expect(firstIssue(FenceAddRequest.safeParse({ ...base, time_start: '22:00' }))).toEqual({
      path: 'time_end',
      message: 'validation.fence.window',
    });
    expect(FenceAddRequest.safeParse({ ...base, time_start: '22:00', time_end: '06:00' }).success).toBe(true);
  });
  it('zones take the same shapes', () => {
    expect(ZoneAddRequest.safeParse({ name: 'Z', shape: base.shape }).success).toBe(true);
    expect(firstIssue(ZoneAddRequest.safeParse({ name: '', shape: base.shape }))).toEqual({
      path: 'name',
      message: 'validation.required',
    });
  });
});

describe('tracks, groups, geocode settings', () => {
  it('track ranges: ordered, at most 31 days, ids from a comma list', () => {
    expect(TrackQuery.parse({ ids: [1, '2'], start: '2026-01-01 00:00:00', end: '2026-01-02' })).toMatchObject({
      ids: [1, 2],
      start: '2026-01-01T00:00:00.000Z',
    });
    expect(firstIssue(TrackQuery.safeParse({ ids: [1], start: '2026-01-02', end: '2026-01-01' }))).toEqual({
      path: 'end',
      message: 'validation.timeRange',
    });
    expect(firstIssue(TrackQuery.safeParse({ ids: [1], start: '2026-01-01', end: '2026-03-01' }))).toEqual({
      path: 'end',
      message: 'validation.track.rangeTooLong',
    });
    expect(TrackExportQuery.parse({ ids: '3,4', start: '2026-01-01', end: '2026-01-02' })).toMatchObject({
      ids: [3, 4],
      format: 'gpx',
    });
    expect(
      firstIssue(TrackExportQuery.safeParse({ ids: '3', start: '2026-01-01', end: '2026-01-02', format: 'kmz' })),
    ).toEqual({ path: 'format', message: 'validation.track.format' });
  });
  it('groups: the spec payloads', () => {
    expect(
      GroupAddRequest.parse({ channel_name: '', cate: 0, remark: '', device: ['9001'], bh: '440300000000' }),
    ).toMatchObject({ cate: '0' });
    expect(
      firstIssue(GroupAddRequest.safeParse({ channel_name: '', cate: '1', device: ['9001'], bh: '440300000000' })),
    ).toEqual({ path: 'channel_name', message: 'validation.group.name' });
    expect(GroupFromDevicesRequest.parse({ ids: ['5'] })).toMatchObject({ ids: [5], confirm: 0 });
  });
  it('geocode settings: template needs {lat} and {lng}', () => {
    expect(
      GeocodeSettings.safeParse({ url: 'http://x/r?lat={lat}&lon={lng}', address_field: 'display_name' }).success,
    ).toBe(true);
    expect(firstIssue(GeocodeSettings.safeParse({ url: 'ftp://x/{lat}', address_field: 'a' }))).toEqual({
      path: 'url',
      message: 'validation.map.geocodeUrl',
    });
  });
});
