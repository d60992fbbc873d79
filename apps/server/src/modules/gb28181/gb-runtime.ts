import { EventEmitter } from 'node:events';
import type { GbSettings } from '@bwc/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connection';
import {
  applyGbCatalogChange,
  channelOf,
  findGbDevice,
  replaceGbChannels,
  rootUnitId,
  setAllGbOffline,
  setGbInfo,
  setGbOnline,
  setGbPosition,
  touchGbKeepalive,
  upsertRegistered,
} from './gb-devices.repository';
import { readGbSettings } from './gb28181.repository';
import { GbSipPlatform, type GbSipEvents, type GbSipPlatformOptions, type GbSubscription } from './sip';

export type GbAlarm = GbSipEvents['alarm'][0];

export interface GbRuntimeEvents {
  /** the platform started (its instance) or stopped (null) */
  platform: [GbSipPlatform | null];
  /** a registered device's DeviceInfo, Catalog and subscriptions are done (`error` when one failed) */
  synced: [{ deviceId: string; error?: string }];
  /** stored: a device went online / offline, a position, a catalog change */
  stored: [{ deviceId: string; what: 'registered' | 'offline' | 'position' | 'catalog' }];
  /** an Alarm NOTIFY or MESSAGE (not stored: see README) */
  alarm: [GbAlarm];
}

/** Platform options the settings do not give (tests shorten timers); the settings win for the rest. */
export type GbTuning = Partial<Omit<GbSipPlatformOptions, 'platformId' | 'domain' | 'passwordFor'>> & {
  /** MobilePosition Interval asked of devices, s (default 5) */
  positionIntervalSec?: number;
  /** SUBSCRIBE Expires, s (default 3600) */
  subscribeExpiresSec?: number;
};

const settingsKey = (s: GbSettings) =>
  JSON.stringify([s.SipId, s.SipDomain, s.LocalIp, s.LocalPort, s.RegExpires, s.AliveInterval, s.AliveTimeoutCnt]);

/**
 * The GB/T 28181 platform of the server (`app.gb`): runs a GbSipPlatform from the gbconfig settings
 * while gb_mode is on and keeps gb_devices / gb_channels in step with what devices say.
 * `reload()` follows the saved settings (start, restart on a change, stop); calls are serialised.
 */
export class GbRuntime extends EventEmitter<GbRuntimeEvents> {
  platform: GbSipPlatform | null = null;
  /** why the last start failed ('' none) */
  lastError = '';
  tuning: GbTuning = {};
  /** awaited on each start (the platform and the settings it runs from) and stop (null) */
  private readonly changeHooks: ((platform: GbSipPlatform | null, settings: GbSettings) => Promise<void>)[] = [];
  private key = '';
  private settings: GbSettings | null = null;
  private password = '';
  private chain: Promise<void> = Promise.resolve();
  /** per-device queue: the rows change in the order the events came */
  private readonly queues = new Map<string, Promise<void>>();
  private readonly subscriptions = new Map<string, GbSubscription[]>();

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {
    super();
  }

  /** Run `hook` when the platform starts (after it listens) and when it stops (before it closes). */
  onPlatformChange(hook: (platform: GbSipPlatform | null, settings: GbSettings) => Promise<void>): void {
    this.changeHooks.push(hook);
  }

  private async runHooks(platform: GbSipPlatform | null, settings: GbSettings): Promise<void> {
    for (const hook of this.changeHooks)
      await hook(platform, settings).catch((err: unknown) => this.log.error({ err }, 'gb28181: platform hook failed'));
  }

  get running(): boolean {
    return this.platform !== null;
  }

  /**
   * A channel (or a device addressed as its own channel): its device's GB id and unit; null unknown.
   * GB ids are unique by the standard, but devices configured alike may repeat a channel id: with
   * `deviceId` the channel of that device, else the online device's (the newest of several).
   */
  async channelRef(channelId: string, deviceId?: string): Promise<{ deviceId: string; unitId: number } | null> {
    let channels = this.db
      .selectFrom('gb_channels as c')
      .innerJoin('gb_devices as d', 'd.id', 'c.device_id')
      .select(['d.gbid', 'd.unit_id'])
      .where('c.gbid', '=', channelId);
    if (deviceId !== undefined) channels = channels.where('d.gbid', '=', deviceId);
    const row =
      (await channels.orderBy('d.online', 'desc').orderBy('d.id', 'desc').executeTakeFirst()) ??
      (deviceId === undefined || deviceId === channelId
        ? await this.db
            .selectFrom('gb_devices')
            .select(['gbid', 'unit_id'])
            .where('gbid', '=', channelId)
            .executeTakeFirst()
        : undefined);
    return row ? { deviceId: row.gbid, unitId: row.unit_id } : null;
  }

  /** Re-read the settings: start, restart (something the platform uses changed) or stop. */
  reload(): Promise<void> {
    const next = this.chain.then(() => this.apply());
    this.chain = next.catch(() => {});
    return next;
  }

  stop(): Promise<void> {
    const next = this.chain.then(() => this.halt());
    this.chain = next.catch(() => {});
    return next;
  }

  private async apply(): Promise<void> {
    const s = await readGbSettings(this.db);
    this.password = s.DevicePassword;
    if (s.gb_mode !== 1) return this.halt();
    if (this.platform && this.key === settingsKey(s)) return;
    await this.halt();
    const { positionIntervalSec: _p, subscribeExpiresSec: _e, ...options } = this.tuning;
    const platform = new GbSipPlatform({
      host: s.LocalIp || '0.0.0.0',
      port: s.LocalPort,
      maxExpiresSec: s.RegExpires,
      keepaliveIntervalSec: s.AliveInterval,
      keepaliveTimeoutCount: s.AliveTimeoutCnt,
      log: { warn: (o, m) => this.log.warn(o, m) },
      ...options,
      platformId: s.SipId,
      domain: s.SipDomain,
      // one password for every device (settings DevicePassword): any 20-digit id that knows it is
      // accepted and created in the root unit on its first registration
      passwordFor: async () => this.password,
    });
    this.wire(platform);
    // before the port opens: a device registering at once must not be set offline after it
    await setAllGbOffline(this.db);
    try {
      await platform.start();
    } catch (err) {
      this.lastError = err instanceof Error ? err.message : String(err);
      this.log.error({ err, port: s.LocalPort }, 'gb28181: the SIP platform could not start');
      platform.removeAllListeners();
      await platform.stop().catch(() => {});
      return;
    }
    this.lastError = '';
    this.platform = platform;
    this.key = settingsKey(s);
    this.log.info({ port: platform.port, id: s.SipId }, 'gb28181: SIP platform started');
    this.settings = s;
    await this.runHooks(platform, s);
    this.emit('platform', platform);
  }

  private async halt(): Promise<void> {
    const platform = this.platform;
    if (!platform) return;
    this.platform = null;
    this.key = '';
    if (this.settings) await this.runHooks(null, this.settings);
    this.subscriptions.clear();
    platform.removeAllListeners();
    await platform.stop();
    await Promise.allSettled([...this.queues.values()]);
    await setAllGbOffline(this.db);
    this.emit('platform', null);
  }

  /**
   * Run `fn` after the device's earlier events; errors are logged (the answer rejects with them for
   * a caller that waits, e.g. refresh; the others may ignore it).
   */
  private queue(deviceId: string, fn: () => Promise<void>): Promise<void> {
    const prev = this.queues.get(deviceId) ?? Promise.resolve();
    const run = prev.then(fn);
    const next = run.catch((err: unknown) => this.log.warn({ err, deviceId }, 'gb28181: device update failed'));
    this.queues.set(deviceId, next);
    void next.then(() => {
      if (this.queues.get(deviceId) === next) this.queues.delete(deviceId);
    });
    return run;
  }

  private wire(p: GbSipPlatform): void {
    const current = () => this.platform === p;
    p.on('registered', (e) => {
      this.queue(e.deviceId, async () => {
        await upsertRegistered(this.db, {
          gbid: e.deviceId,
          transport: e.transport,
          address: `${e.remote.address}:${e.remote.port}`,
          unitId: await rootUnitId(this.db),
        });
        this.emit('stored', { deviceId: e.deviceId, what: 'registered' });
        if (!e.refresh && current()) await this.sync(p, e.deviceId);
      });
    });
    const offline = ({ deviceId }: { deviceId: string }) => {
      this.dropSubscriptions(p, deviceId);
      this.queue(deviceId, async () => {
        await setGbOnline(this.db, deviceId, 0);
        this.emit('stored', { deviceId, what: 'offline' });
      });
    };
    p.on('unregistered', offline);
    p.on('offline', offline);
    p.on('keepalive', ({ deviceId }) => this.queue(deviceId, () => touchGbKeepalive(this.db, deviceId)));
    p.on('position', (e) =>
      this.queue(e.deviceId, async () => {
        // 0/0 is what a device without a fix sends: the last good position stays
        if (e.longitude === 0 && e.latitude === 0) return;
        await setGbPosition(this.db, e.deviceId, { lng: e.longitude, lat: e.latitude, time: e.time.replace('T', ' ') });
        this.emit('stored', { deviceId: e.deviceId, what: 'position' });
      }),
    );
    p.on('catalogChange', (e) =>
      this.queue(e.deviceId, async () => {
        const device = await findGbDevice(this.db, e.deviceId);
        if (!device) return;
        await applyGbCatalogChange(
          this.db,
          device.id,
          e.items.filter((i) => i.DeviceID !== e.deviceId),
        );
        this.emit('stored', { deviceId: e.deviceId, what: 'catalog' });
      }),
    );
    p.on('alarm', (e) => {
      this.log.info({ alarm: e }, 'gb28181: device alarm');
      this.emit('alarm', e);
    });
    p.on('message', ({ deviceId, message }) => {
      // a device may also send its alarms as MESSAGE Notify/Alarm (9.4)
      const m = message as { CmdType?: string; AlarmPriority?: number; AlarmMethod?: number; AlarmTime?: string };
      if (m.CmdType === 'Alarm' && m.AlarmTime)
        this.emit('alarm', {
          deviceId,
          sourceId: (message as { DeviceID?: string }).DeviceID ?? deviceId,
          priority: m.AlarmPriority ?? 4,
          method: m.AlarmMethod ?? 7,
          time: m.AlarmTime,
        });
    });
  }

  /** 'registered' (not a refresh): DeviceInfo, the Catalog as the channel set, SUBSCRIBE MobilePosition and Alarm. */
  private async sync(p: GbSipPlatform, deviceId: string): Promise<void> {
    const errors: string[] = [];
    const step = async (what: string, fn: () => Promise<void>) => {
      try {
        await fn();
      } catch (err) {
        errors.push(`${what}: ${err instanceof Error ? err.message : String(err)}`);
      }
    };
    await step('DeviceInfo', () => this.storeDeviceInfo(p, deviceId));
    await step('Catalog', () => this.storeCatalog(p, deviceId));
    this.dropSubscriptions(p, deviceId);
    const expires = this.tuning.subscribeExpiresSec ?? 3600;
    for (const kind of ['MobilePosition', 'Alarm'] as const)
      await step(`SUBSCRIBE ${kind}`, async () => {
        const sub = await p.subscribe(deviceId, kind, {
          expires,
          ...(kind === 'MobilePosition' ? { interval: this.tuning.positionIntervalSec ?? 5 } : {}),
        });
        this.subscriptions.set(deviceId, [...(this.subscriptions.get(deviceId) ?? []), sub]);
      });
    if (errors.length) this.log.warn({ deviceId, errors }, 'gb28181: device sync incomplete');
    this.emit('synced', errors.length ? { deviceId, error: errors.join('; ') } : { deviceId });
  }

  /** DeviceInfo asked of the device and stored (an admin's name kept: setGbInfo). */
  private async storeDeviceInfo(p: GbSipPlatform, deviceId: string): Promise<void> {
    const info = await p.queryDeviceInfo(deviceId);
    await setGbInfo(this.db, deviceId, {
      name: info.DeviceName,
      manufacturer: info.Manufacturer,
      model: info.Model,
      firmware: info.Firmware,
    });
  }

  /** The Catalog asked of the device becomes its channel set. */
  private async storeCatalog(p: GbSipPlatform, deviceId: string): Promise<void> {
    const catalog = await p.queryCatalog(deviceId);
    const device = await findGbDevice(this.db, deviceId);
    if (!device) return;
    const items = catalog.items.filter((i) => i.DeviceID !== deviceId);
    await replaceGbChannels(this.db, device.id, items.map(channelOf));
  }

  /**
   * Ask a registered device again for its DeviceInfo and Catalog (as on registration), after its
   * earlier events; rejects with the first failure (GbRequestError), or 'not_running' without a platform.
   */
  refresh(deviceId: string): Promise<void> {
    const p = this.platform;
    if (!p) return Promise.reject(new Error('not_running'));
    return this.queue(deviceId, async () => {
      await this.storeDeviceInfo(p, deviceId);
      await this.storeCatalog(p, deviceId);
      this.emit('stored', { deviceId, what: 'catalog' });
    });
  }

  private dropSubscriptions(p: GbSipPlatform, deviceId: string): void {
    for (const sub of this.subscriptions.get(deviceId) ?? []) p.unsubscribe(sub).catch(() => {});
    this.subscriptions.delete(deviceId);
  }
}
