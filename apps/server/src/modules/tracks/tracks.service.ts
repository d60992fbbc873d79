import {
  TRACK_EXPORT_POINTS_MAX,
  TRACK_POINTS_PAGE,
  type DeviceTrack,
  type TrackAnswer,
  type TrackExportQuery,
  type TrackMark,
  type TrackMarkAnswer,
  type TrackPoint,
  type TrackQuery,
} from '@bwc/protocol';
import type { Db } from '../../db/connection';
import type { AuthUser } from '../../http/auth';
import { Errors } from '../../http/errors';
import { assertInScope, unitScope } from '../../http/scope';
import { findGaps, findStops, trackDistance } from './track-analysis';
import * as repo from './tracks.repository';
import type { TrackDevice } from './tracks.repository';

/** Most marks of one history_mark answer. */
const MARKS_MAX = 10_000;

/** The devices of the ids, all existing and in the caller's scope (400 naming unknown ids, 403 out of scope). */
async function scopedDevices(db: Db, user: AuthUser, ids: number[]): Promise<TrackDevice[]> {
  const unique = [...new Set(ids)];
  const rows = await repo.trackDevices(db, unique);
  const missing = unique.filter((id) => !rows.some((r) => r.id === id));
  if (missing.length) throw Errors.field('ids', 'errors.track.unknownDevices', { ids: missing.join(', ') });
  assertInScope(await unitScope(db, user), ...rows.map((r) => r.unit_id));
  return unique.map((id) => rows.find((r) => r.id === id)!);
}

const points = repo.positionsOf;

function track(d: TrackDevice, pts: TrackPoint[], truncated: boolean): DeviceTrack {
  return {
    device_id: d.id,
    hostbody: d.hostbody,
    hostname: d.hostname,
    hostcode: d.hostcode,
    points: pts,
    stops: findStops(pts),
    gaps: findGaps(pts),
    distance_m: Math.round(trackDistance(pts) * 10) / 10,
    truncated,
    next_start: truncated ? (pts[pts.length - 1]?.time ?? null) : null,
  };
}

/**
 * gismoni history: each device's fixes in [start, end], oldest first, at most TRACK_POINTS_PAGE
 * per device; `truncated` + `next_start` tell the console to ask again from there (the point at
 * next_start comes again as the first of the next page, so the line stays joined).
 */
export async function history(db: Db, user: AuthUser, q: TrackQuery): Promise<TrackAnswer> {
  const devices = await scopedDevices(db, user, q.ids);
  const tracks: DeviceTrack[] = [];
  for (const d of devices) {
    const pts = await points(db, d.id, q.start, q.end, TRACK_POINTS_PAGE + 1);
    const truncated = pts.length > TRACK_POINTS_PAGE;
    tracks.push(track(d, truncated ? pts.slice(0, TRACK_POINTS_PAGE) : pts, truncated));
  }
  return { start: q.start, end: q.end, tracks, page_size: TRACK_POINTS_PAGE };
}

const EVENT_MARKS: Record<string, TrackMark['type']> = {
  sos: 'sos',
  online: 'online',
  offline: 'offline',
  remote_kill: 'remote_kill',
  remote_wakeon: 'remote_wakeon',
};

function labelOf(type: string, payload: string): string {
  try {
    const p = JSON.parse(payload) as Record<string, unknown>;
    if (type === 'sos' && typeof p.message === 'string') return p.message;
    if (type === 'offline' && typeof p.reason === 'string') return p.reason;
  } catch {
    /* not JSON: no label */
  }
  return '';
}

/** gismoni history_mark: stops, gaps, device events and fence crossings in the range, oldest first. */
export async function marks(db: Db, user: AuthUser, q: TrackQuery): Promise<TrackMarkAnswer> {
  const devices = await scopedDevices(db, user, q.ids);
  const ids = devices.map((d) => d.id);
  const out: TrackMark[] = [];
  for (const d of devices) {
    const pts = await points(db, d.id, q.start, q.end, TRACK_POINTS_PAGE);
    for (const s of findStops(pts))
      out.push({ device_id: d.id, type: 'stop', time: s.start, end: s.end, lat: s.lat, lng: s.lng, label: '' });
    for (const g of findGaps(pts))
      out.push({
        device_id: d.id,
        type: 'gap',
        time: g.start,
        end: g.end,
        lat: g.from.lat,
        lng: g.from.lng,
        label: '',
      });
  }
  const events = await repo.deviceEventsOf(db, ids, q.start, q.end, MARKS_MAX);
  for (const e of events) {
    const type = EVENT_MARKS[e.type];
    if (type)
      out.push({
        device_id: e.device_id,
        type,
        time: e.time,
        end: null,
        lat: e.lat,
        lng: e.lng,
        label: labelOf(e.type, e.payload),
      });
  }
  const crossings = await repo.fenceCrossingsOf(db, ids, q.start, q.end, MARKS_MAX);
  for (const c of crossings)
    out.push({
      device_id: c.device_id,
      type: c.direction === 'enter' ? 'fence_enter' : 'fence_exit',
      time: c.time,
      end: null,
      lat: c.lat,
      lng: c.lng,
      label: c.fence_name,
    });
  out.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.device_id - b.device_id));
  return { marks: out.slice(0, MARKS_MAX), truncated: out.length > MARKS_MAX };
}

/** Tracks of an export: every point of the range, refused above TRACK_EXPORT_POINTS_MAX per device. */
export async function exportTracks(db: Db, user: AuthUser, q: TrackExportQuery): Promise<DeviceTrack[]> {
  const devices = await scopedDevices(db, user, q.ids);
  const tracks: DeviceTrack[] = [];
  for (const d of devices) {
    const pts = await points(db, d.id, q.start, q.end, TRACK_EXPORT_POINTS_MAX + 1);
    if (pts.length > TRACK_EXPORT_POINTS_MAX) {
      const n = await repo.countPositions(db, d.id, q.start, q.end);
      throw Errors.invalid('errors.track.exportTooMany', { device: d.hostbody, n, max: TRACK_EXPORT_POINTS_MAX });
    }
    tracks.push(track(d, pts, false));
  }
  return tracks;
}
