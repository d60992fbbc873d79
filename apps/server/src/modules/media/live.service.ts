import {
  LIVE_IDLE_MS,
  LIVE_PLAY_TOKEN_MS,
  LIVE_PUBLISH_KEY_MS,
  LIVE_START_WAIT_MS,
  ResultCode,
  type LiveInfo,
  type LivePlay,
  type StartLivePayload,
} from '@bwc/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connection';
import type { DeviceRow } from '../../db/types';
import { AppError } from '../../http/errors';
import type { DeviceRuntime } from '../devices/runtime';
import { RTMP_APP, type GatewayListener, type MediaGateway } from './gateway';

/** The device fields a live request needs. */
export type LiveDevice = Pick<DeviceRow, 'id' | 'imei' | 'hostbody' | 'hostname' | 'lineon' | 'remote_kill'>;

/**
 * Live video on demand (issue 13 section 1): who asked for which device's picture, telling the
 * device to publish (`startlive`) and to stop (`stoplive`), and stopping streams nobody watches.
 *
 * - A request for a device that is not publishing queues `startlive` once (again only if the
 *   device did not start within LIVE_START_WAIT_MS) and answers play paths at once; a viewer that
 *   opens them while the device starts waits for it (gateway.waitForPublish).
 * - A stream whose last viewer has been gone for the idle time is stopped; so is one whose
 *   device goes offline. Stopping = `stoplive` queued and the publisher cut off (its key was
 *   single use, so it cannot come back by itself).
 * - Claims remember which user asked for which device (this node): live_del by the last
 *   claimant of a stream nobody watches stops it at once instead of after the idle time.
 *
 * State is this node's: in a cluster the gateway runs on the node with RTMP ingest, and live
 * requests go to it (docs/OPERATIONS.md "Several nodes"; relaying streams between nodes is not built).
 */
export class LiveService implements GatewayListener {
  /** devices told to publish and not yet publishing: when they were told */
  private readonly starting = new Map<number, number>();
  private readonly idle = new Map<number, NodeJS.Timeout>();
  private readonly claims = new Map<number, Set<number>>();
  private readonly idleMs: number;

  constructor(
    private readonly deps: {
      db: Db;
      gateway: MediaGateway;
      devices: DeviceRuntime;
      log: FastifyBaseLogger;
      idleMs?: number;
    },
  ) {
    this.idleMs = deps.idleMs ?? LIVE_IDLE_MS;
    deps.gateway.listener = this;
  }

  /** Answer play paths for `device` to `userId`, telling the device to publish if it does not. */
  async request(userId: number, device: LiveDevice): Promise<LivePlay> {
    const { gateway } = this.deps;
    if (gateway.port === null) throw new AppError(ResultCode.CONFLICT, 'errors.media.gatewayOff');
    if (device.lineon !== 1 || device.remote_kill === 1)
      throw new AppError(ResultCode.CONFLICT, 'errors.media.deviceOffline', {
        name: device.hostname || device.hostbody,
      });
    const live = gateway.streams.has(device.id);
    await this.start(device.id, userId);
    let mine = this.claims.get(userId);
    if (!mine) this.claims.set(userId, (mine = new Set()));
    mine.add(device.id);
    // nobody may connect: the idle clock runs from now (a connecting viewer stops it)
    this.viewersChanged(device.id, this.viewerCount(device.id));
    const token = gateway.keys.playToken(userId, device.id, LIVE_PLAY_TOKEN_MS);
    const path = `/live/${device.id}.flv?token=${encodeURIComponent(token)}`;
    return {
      device_id: device.id,
      imei: device.imei,
      hostbody: device.hostbody,
      hostname: device.hostname,
      state: live ? 'live' : 'starting',
      flv: path,
      ws: path,
      expires: Date.now() + LIVE_PLAY_TOKEN_MS,
    };
  }

  /** Tell the device to publish unless it does or was told within LIVE_START_WAIT_MS. */
  async start(deviceId: number, userId: number | null): Promise<void> {
    if (this.deps.gateway.streams.has(deviceId)) return;
    const told = this.starting.get(deviceId);
    if (told !== undefined && Date.now() - told <= LIVE_START_WAIT_MS) return;
    this.starting.set(deviceId, Date.now());
    await this.deps.devices.commands.send(this.deps.db, deviceId, 'startlive', userId);
  }

  /** Is the device told to publish and not yet publishing (a viewer may wait for it)? */
  isStarting(deviceId: number): boolean {
    const told = this.starting.get(deviceId);
    return told !== undefined && Date.now() - told <= LIVE_START_WAIT_MS;
  }

  /** The payload of a `startlive` the device fetches: a publish URL minted now, single use. */
  startPayload(deviceId: number, hostname: string): StartLivePayload | undefined {
    const { gateway } = this.deps;
    if (gateway.port === null) return undefined;
    const host = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
    const expires = Date.now() + LIVE_PUBLISH_KEY_MS;
    const key = gateway.keys.publishKey(deviceId, LIVE_PUBLISH_KEY_MS);
    return { url: `rtmp://${host}:${gateway.port}/${RTMP_APP}/${deviceId}?key=${encodeURIComponent(key)}`, expires };
  }

  /** The device's live state (gisstatus). */
  info(deviceId: number): LiveInfo {
    const entry = this.deps.gateway.streams.get(deviceId);
    if (entry)
      return {
        state: 'live',
        viewers: entry.stream.viewers.size,
        since: new Date(entry.stream.startedAt).toISOString(),
        bitrate: entry.stream.bitrate,
      };
    return { state: this.isStarting(deviceId) ? 'starting' : 'idle', viewers: 0, since: null, bitrate: 0 };
  }

  /**
   * live_del: `userId` closed its player of the device. Stopped at once when no viewer is left and
   * no other user asked for it; otherwise the idle time decides. Answers how many streams stopped.
   */
  async release(userId: number, deviceId: number): Promise<number> {
    this.claims.get(userId)?.delete(deviceId);
    const claimed = [...this.claims.values()].some((set) => set.has(deviceId));
    const active = this.deps.gateway.streams.has(deviceId) || this.starting.has(deviceId);
    if (!active || claimed || this.viewerCount(deviceId) > 0) return 0;
    await this.stop(deviceId, userId, 'released');
    return 1;
  }

  /** live_alldel: every device this user asked for. */
  async releaseAll(userId: number): Promise<number> {
    let stopped = 0;
    for (const deviceId of [...(this.claims.get(userId) ?? [])]) stopped += await this.release(userId, deviceId);
    this.claims.delete(userId);
    return stopped;
  }

  /** Stop a device's stream now (live_delimei, idle, offline, ops centre). */
  async stop(deviceId: number, userId: number | null, reason: string): Promise<boolean> {
    const { gateway } = this.deps;
    const active = gateway.streams.has(deviceId) || this.starting.has(deviceId);
    this.starting.delete(deviceId);
    this.clearIdle(deviceId);
    for (const set of this.claims.values()) set.delete(deviceId);
    if (!active) return false;
    this.deps.log.info({ device: deviceId, reason }, 'live: stopping');
    gateway.kick(deviceId);
    await this.deps.devices.commands.send(this.deps.db, deviceId, 'stoplive', userId).catch((err: unknown) => {
      this.deps.log.error({ err, device: deviceId }, 'live: stoplive not queued');
    });
    return true;
  }

  /** The device went offline: its stream and any start are over. */
  deviceOffline(deviceId: number): void {
    if (!this.deps.gateway.streams.has(deviceId) && !this.starting.has(deviceId)) return;
    this.starting.delete(deviceId);
    this.clearIdle(deviceId);
    this.deps.gateway.kick(deviceId, 'offline');
  }

  // ---- gateway events --------------------------------------------------------------------------

  published(deviceId: number): void {
    this.starting.delete(deviceId);
    this.viewersChanged(deviceId, this.viewerCount(deviceId));
  }

  unpublished(deviceId: number): void {
    this.clearIdle(deviceId);
  }

  viewersChanged(deviceId: number, viewers: number): void {
    if (viewers + this.deps.gateway.waitingViewers(deviceId) > 0) return this.clearIdle(deviceId);
    if (this.idle.has(deviceId)) return;
    const timer = setTimeout(() => {
      this.idle.delete(deviceId);
      if (this.viewerCount(deviceId) > 0) return;
      this.stop(deviceId, null, 'idle').catch((err: unknown) => this.deps.log.error({ err }, 'live: idle stop'));
    }, this.idleMs);
    timer.unref();
    this.idle.set(deviceId, timer);
  }

  private viewerCount(deviceId: number): number {
    const entry = this.deps.gateway.streams.get(deviceId);
    return (entry?.stream.viewers.size ?? 0) + this.deps.gateway.waitingViewers(deviceId);
  }

  private clearIdle(deviceId: number): void {
    const timer = this.idle.get(deviceId);
    if (timer) clearTimeout(timer);
    this.idle.delete(deviceId);
  }

  close(): void {
    for (const timer of this.idle.values()) clearTimeout(timer);
    this.idle.clear();
  }
}
