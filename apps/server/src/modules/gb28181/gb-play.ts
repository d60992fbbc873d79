import type { MansrtspControl } from '@bwc/gb28181/sip';
import { GB_PLAYBACK_MAX_S, type GbPlayAnswer, type GbPlaybackControlRequest, type GbPlayRequest } from '@bwc/protocol';
import type { AuthUser } from '../../http/auth';
import { AppError, Errors } from '../../http/errors';
import { gbTimeToIso } from './gb-alarms';
import { requestFailed } from './gb-devices.service';
import type { GbLive } from './live/gb-live.module';
import { GbNoMediaError } from './live/gb-live.service';

/** videopatrols/gbplay: live video of a channel, or its playback between start and end (GB local time). */
export async function gbPlay(live: GbLive | null, user: AuthUser, req: GbPlayRequest): Promise<GbPlayAnswer> {
  let playback: { start: number; end: number } | undefined;
  if (req.start !== undefined || req.end !== undefined) {
    if (req.start === undefined) throw Errors.field('start', 'validation.required');
    if (req.end === undefined) throw Errors.field('end', 'validation.required');
    const start = Math.floor(Date.parse(gbTimeToIso(req.start)) / 1000);
    const end = Math.floor(Date.parse(gbTimeToIso(req.end)) / 1000);
    if (!(end > start) || end - start > GB_PLAYBACK_MAX_S) throw Errors.field('end', 'validation.gb.timeRange');
    playback = { start, end };
  }
  if (!live) throw Errors.conflict('errors.gb.notRunning');
  try {
    const p = await live.play(user, req.channel, {
      ...(req.device ? { deviceId: req.device } : {}),
      ...(req.transport ? { transport: req.transport } : {}),
      ...(playback ? { playback } : {}),
    });
    return {
      channel_id: p.channel_id,
      key: p.key,
      transport: p.transport,
      ssrc: p.ssrc,
      flv: p.flv,
      ws: p.ws,
      expires: p.expires,
      has_audio: p.hasAudio ? 1 : 0,
    };
  } catch (err) {
    if (err instanceof GbNoMediaError) throw new AppError(504, 'errors.gb.noMedia');
    return requestFailed(err);
  }
}

/** videoreplay/gbcontrol: pause, resume, seek or set the speed of a running playback (MANSRTSP INFO in its dialog). */
export async function gbPlaybackControl(
  live: GbLive | null,
  user: AuthUser,
  req: GbPlaybackControlRequest,
): Promise<null> {
  if (!live) throw Errors.conflict('errors.gb.notRunning');
  try {
    await live.control(user, req.key, controlOf(req));
    return null;
  } catch (err) {
    if (err instanceof AppError) throw err;
    return requestFailed(err);
  }
}

/** The MANSRTSP control a gbcontrol request asks for (the schema made sure seek has offset, speed scale). */
function controlOf(req: GbPlaybackControlRequest): MansrtspControl {
  if (req.action === 'seek') return { command: 'seek', offset: req.offset! };
  if (req.action === 'speed') return { command: 'speed', scale: req.scale! };
  return { command: req.action };
}
