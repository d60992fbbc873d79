import { ResultCode } from '@bwc/protocol';
import type { FastifyRequest } from 'fastify';
import type { DeviceRef } from '../../bus';
import type { Db } from '../../db/connection';
import type { DeviceRow } from '../../db/types';
import { AppError } from '../../http/errors';
import { newToken, sameHash, sha256Hex } from './credentials';
import * as repo from './devices.repository';

/** What the ingest path keeps of a device between requests (one process owns the state). */
export interface CachedDevice {
  id: number;
  unit_id: number;
  hostbody: string;
  imei: string;
  hostname: string;
  secret_hash: string;
  token_hash: string | null;
  lineon: number;
  remote_kill: number;
  gps_time: string | null;
  /** ms of the last last_seen write */
  lastTouch: number;
}

export function cachedDevice(row: DeviceRow): CachedDevice {
  return {
    id: row.id,
    unit_id: row.unit_id,
    hostbody: row.hostbody,
    imei: row.imei,
    hostname: row.hostname,
    secret_hash: row.secret_hash,
    token_hash: row.token_hash,
    lineon: row.lineon,
    remote_kill: row.remote_kill,
    gps_time: row.gps_time,
    lastTouch: 0,
  };
}

export function refOf(d: Pick<CachedDevice, 'id' | 'unit_id' | 'hostbody' | 'imei' | 'hostname'>): DeviceRef {
  return { device_id: d.id, unit_id: d.unit_id, hostbody: d.hostbody, imei: d.imei, hostname: d.hostname };
}

/**
 * The devices the live side has met, by id, by hostbody or imei and by token hash, with their
 * credentials checked against the cached hashes. A device whose record changes is forgotten
 * (`invalidate`) and reloaded on its next call.
 */
export class DeviceCache {
  private readonly byId = new Map<number, CachedDevice>();
  private readonly byToken = new Map<string, number>();
  private readonly byIdent = new Map<string, number>();

  constructor(private readonly db: Db) {}

  private remember(row: DeviceRow): CachedDevice {
    const entry = cachedDevice(row);
    this.byId.set(entry.id, entry);
    this.byIdent.set(entry.hostbody, entry.id);
    this.byIdent.set(entry.imei, entry.id);
    if (entry.token_hash) this.byToken.set(entry.token_hash, entry.id);
    return entry;
  }

  /** Forget a device (its record changed or was deleted); the next call reloads it. */
  invalidate(id: number): void {
    this.byId.delete(id);
  }

  /** The cached state of a device if it is loaded (kill/wake keep it in step). */
  peek(id: number): CachedDevice | undefined {
    return this.byId.get(id);
  }

  private async loadById(id: number): Promise<CachedDevice | undefined> {
    const hit = this.byId.get(id);
    if (hit) return hit;
    const row = await repo.findDeviceRow(this.db, id);
    return row ? this.remember(row) : undefined;
  }

  /** The device whose hostbody or imei is `ident`. */
  async findByIdent(ident: string): Promise<CachedDevice | undefined> {
    const id = this.byIdent.get(ident);
    if (id !== undefined) {
      const entry = await this.loadById(id);
      if (entry && (entry.hostbody === ident || entry.imei === ident)) return entry;
    }
    const row = await repo.findDeviceByIdent(this.db, ident);
    return row ? this.remember(row) : undefined;
  }

  private async findByTokenHash(hash: string): Promise<CachedDevice | undefined> {
    const id = this.byToken.get(hash);
    if (id !== undefined) {
      const entry = await this.loadById(id);
      if (entry?.token_hash === hash) return entry;
    }
    const row = await repo.findDeviceByTokenHash(this.db, hash);
    return row ? this.remember(row) : undefined;
  }

  /** Check a device secret; answers the device or null. */
  async verifySecret(ident: string, secret: string): Promise<CachedDevice | null> {
    const device = await this.findByIdent(ident);
    return device && sameHash(device.secret_hash, sha256Hex(secret)) ? device : null;
  }

  /** A new bearer token for the device, replacing the previous one. */
  async issueToken(device: CachedDevice): Promise<string> {
    const token = newToken();
    const hash = sha256Hex(token);
    await repo.setTokenHash(this.db, device.id, hash);
    if (device.token_hash) this.byToken.delete(device.token_hash);
    device.token_hash = hash;
    this.byToken.set(hash, device.id);
    return token;
  }

  /** The calling device: `Authorization: Bearer <device token>` or `Basic base64(hostbody:secret)`. */
  async authenticate(req: FastifyRequest): Promise<CachedDevice> {
    const header = req.headers.authorization ?? '';
    let device: CachedDevice | null | undefined = null;
    if (header.startsWith('Bearer ')) {
      const token = header.slice(7).trim();
      if (token) device = await this.findByTokenHash(sha256Hex(token));
    } else if (header.startsWith('Basic ')) {
      const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon > 0) device = await this.verifySecret(decoded.slice(0, colon), decoded.slice(colon + 1));
    }
    if (!device) throw new AppError(ResultCode.UNAUTHENTICATED, 'errors.device.credentials');
    return device;
  }
}
