import { LIVE_PLAY_TOKEN_MS, ResultCode } from '@bwc/protocol';
import type { MansrtspControl } from '@bwc/gb28181/sip';
import type { FastifyInstance } from 'fastify';
import { AppError, Errors } from '../../../http/errors';
import { inScope, unitScope } from '../../../http/scope';
import type { KeyedRefusal } from '../../media/gateway';
import { readMediaKey } from '../../media/keys';
import { PortAllocator, type Transport } from '../media';
import type { GbSipPlatform } from '../sip';
import { GB_LIVE_NS, GB_PLAYBACK_NS, parseGbKey } from './gb-keys';
import { GbLiveService, type GbStreamInfo } from './gb-live.service';

/** A GB channel as the live side needs it: the device to INVITE and the unit whose scope may watch. */
export interface GbChannelRef {
  deviceId: string;
  unitId: number;
}

/**
 * The channel rows' owner answers: null for a channel it does not know (of `deviceId` when given;
 * else of the online device that has it).
 */
export type GbChannelLookup = (channelId: string, deviceId?: string) => Promise<GbChannelRef | null>;

export interface GbLiveSettings {
  platformId: string;
  domain: string;
  /** gbconfig LocalIp: the address devices send media to */
  mediaAddress: string;
  /** gbconfig VideoPort and PortCount */
  videoPort: number;
  portCount: number;
  bindHost?: string;
  transport?: Transport;
  /** default: the server's LIVE_IDLE_S, else LIVE_IDLE_MS */
  idleMs?: number;
  receiverTimeoutMs?: number;
}

/** What a viewer is given: paths under /live/ with a signed, expiring play token. */
export interface GbPlay extends GbStreamInfo {
  channel_id: string;
  flv: string;
  ws: string;
  expires: number;
}

export interface GbLive {
  service: GbLiveService;
  /**
   * Start (or join) a channel's live video, or a playback of `playback` (seconds since 1970), for
   * `user`: the channel must be known and in the user's unit scope.
   */
  play(
    user: { id: number; unit_id: number; ifadmin: number },
    channelId: string,
    opts?: { deviceId?: string; transport?: Transport; playback?: { start: number; end: number } },
  ): Promise<GbPlay>;
  /**
   * Pause, resume, seek or set the speed of the playback under `key`
   * (gbpb:<device>_<channel>_<start>_<end>) for `user`: its channel must be in the user's unit
   * scope. 404 `errors.gb.noPlayback` when none runs; a seek past its span is 400 naming `offset`.
   */
  control(user: { id: number; unit_id: number; ifadmin: number }, key: string, control: MansrtspControl): Promise<void>;
  close(): void;
}

const notFound = (channelId: string): KeyedRefusal => ({
  status: 404,
  code: ResultCode.NOT_FOUND,
  key: 'errors.media.notPublishing',
  params: { device: channelId },
});

/**
 * GB28181 live video in the media gateway: a GbLiveService on `platform` and the viewer checks of
 * the `gb` and `gbpb` namespaces of the FLV outputs (/live/gb-<device>_<channel>.flv?token=..., as
 * media.module.ts serves /live/<device>.flv). No routes or hooks are added, so this may be called
 * once the platform has started (after the server is ready); the caller closes it.
 */
export async function createGbLive(
  app: FastifyInstance,
  deps: { platform: GbSipPlatform; lookupChannel: GbChannelLookup; settings: GbLiveSettings },
): Promise<GbLive> {
  const { platform, lookupChannel, settings: s } = deps;
  const service = new GbLiveService({
    platform,
    gateway: app.media,
    platformId: s.platformId,
    domain: s.domain,
    mediaAddress: s.mediaAddress,
    ports: new PortAllocator(s.videoPort, s.videoPort + Math.max(1, s.portCount) - 1),
    signingKey: await readMediaKey(app.db),
    log: app.log,
    ...(s.bindHost ? { bindHost: s.bindHost } : {}),
    ...(s.transport ? { transport: s.transport } : {}),
    // the gateway's idle time (LIVE_IDLE_S), as for body cameras, unless the settings say otherwise
    ...((s.idleMs ?? app.config.liveIdleMs) ? { idleMs: s.idleMs ?? app.config.liveIdleMs } : {}),
    ...(s.receiverTimeoutMs ? { receiverTimeoutMs: s.receiverTimeoutMs } : {}),
  });

  /** The play token names the user and the stream key; the channel's unit must be in the user's scope. */
  const admit =
    (ns: string) =>
    async (id: string, token: string): Promise<{ userId: number } | KeyedRefusal> => {
      const key = `${ns}:${id}`;
      const checked = service.checkPlayToken(key, token);
      if ('refused' in checked)
        return {
          status: 401,
          code: ResultCode.UNAUTHENTICATED,
          key: checked.refused === 'expired' ? 'errors.media.tokenExpired' : 'errors.media.token',
        };
      const user = await app.db
        .selectFrom('users')
        .select(['id', 'unit_id', 'ifadmin', 'status'])
        .where('id', '=', checked.userId)
        .executeTakeFirst();
      if (!user || user.status !== 'enabled')
        return { status: 401, code: ResultCode.UNAUTHENTICATED, key: 'errors.media.token' };
      const parsed = parseGbKey(key);
      if (!parsed) return notFound(id);
      const channel = await lookupChannel(parsed.channelId, parsed.deviceId);
      if (!channel) return notFound(parsed.channelId);
      if (!inScope(await unitScope(app.db, user), channel.unitId))
        return { status: 403, code: ResultCode.FORBIDDEN, key: 'errors.media.outOfScope' };
      if (!app.media.keyed.has(key)) return notFound(parsed.channelId);
      return { userId: user.id };
    };
  app.media.keyedAdmit.set(GB_LIVE_NS, admit(GB_LIVE_NS));
  app.media.keyedAdmit.set(GB_PLAYBACK_NS, admit(GB_PLAYBACK_NS));

  return {
    service,
    async play(user, channelId, opts = {}) {
      const channel = await lookupChannel(channelId, opts.deviceId);
      if (!channel) throw new AppError(ResultCode.NOT_FOUND, 'errors.media.notPublishing', { device: channelId });
      if (!inScope(await unitScope(app.db, user), channel.unitId))
        throw new AppError(ResultCode.FORBIDDEN, 'errors.media.outOfScope');
      const info = opts.playback
        ? await service.startPlayback(
            channelId,
            channel.deviceId,
            opts.playback.start,
            opts.playback.end,
            opts.transport,
          )
        : await service.start(channelId, channel.deviceId, opts.transport);
      const token = service.playToken(user.id, info.key, LIVE_PLAY_TOKEN_MS);
      const path = `/live/${info.name}?token=${encodeURIComponent(token)}`;
      return { ...info, channel_id: channelId, flv: path, ws: path, expires: Date.now() + LIVE_PLAY_TOKEN_MS };
    },
    async control(user, key, control) {
      const parsed = parseGbKey(key);
      const channel = parsed?.kind === 'playback' ? await lookupChannel(parsed.channelId, parsed.deviceId) : null;
      if (!parsed || parsed.kind !== 'playback' || !channel || channel.deviceId !== parsed.deviceId)
        throw new AppError(ResultCode.NOT_FOUND, 'errors.gb.noPlayback');
      if (!inScope(await unitScope(app.db, user), channel.unitId))
        throw new AppError(ResultCode.FORBIDDEN, 'errors.media.outOfScope');
      // the device plays the asked span only: a seek is a point inside it (its last second at most)
      const span = parsed.end - parsed.start;
      if (control.command === 'seek' && control.offset >= span)
        throw Errors.field('offset', 'validation.gb.seekOffset', { max: span - 1 });
      if (!(await service.control(key, control))) throw new AppError(ResultCode.NOT_FOUND, 'errors.gb.noPlayback');
    },
    close() {
      app.media.keyedAdmit.delete(GB_LIVE_NS);
      app.media.keyedAdmit.delete(GB_PLAYBACK_NS);
      service.close();
    },
  };
}
