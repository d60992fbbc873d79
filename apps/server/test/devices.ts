import { imeiWithCheckDigit, type Envelope } from '@bwc/protocol';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../src/db/connection';
import { api } from './api';
import type { Session } from './helpers';

/** Devices for tests and benches: created through the console API, logged in through the device API. */

let serial = 0;

/** A valid, unique IMEI (Luhn check digit). */
export function testImei(): string {
  serial += 1;
  return imeiWithCheckDigit(`86${String(process.pid % 1000).padStart(3, '0')}${String(serial).padStart(9, '0')}`);
}

export async function unitIdOf(db: Db, bh: string): Promise<number> {
  return (await db.selectFrom('units').select('id').where('bh', '=', bh).executeTakeFirstOrThrow()).id;
}

export interface CreatedDevice {
  id: number;
  hostbody: string;
  imei: string;
  secret: string;
}

/** Create a device through rest/oam/recorder/add as `session`. */
export async function addDevice(
  app: FastifyInstance,
  session: Session,
  unitId: number,
  extra: Record<string, unknown> = {},
): Promise<CreatedDevice> {
  const imei = testImei();
  const hostbody = `T${imei.slice(-9)}`;
  const env = await api<{ device: { id: number }; secret: string }>(app, 'deviceAdd', session, {
    hostbody,
    imei,
    hostname: `officer ${hostbody}`,
    hostcode: `P${imei.slice(-5)}`,
    unit_id: unitId,
    ...extra,
  });
  if (env.code !== 200) throw new Error(`deviceAdd failed: ${env.code} ${env.msg}`);
  return { id: env.data.device.id, hostbody, imei, secret: env.data.secret };
}

/** Device login through the device API; answers the Authorization header. */
export async function deviceLogin(app: FastifyInstance, d: CreatedDevice): Promise<Record<string, string>> {
  const res = await app.inject({
    method: 'POST',
    url: '/rest/device/api/login',
    payload: { device: d.hostbody, secret: d.secret },
  });
  const env = res.json() as Envelope<{ token: string }>;
  if (env.code !== 200) throw new Error(`device login failed: ${env.code} ${env.msg}`);
  return { authorization: `Bearer ${env.data.token}` };
}

export async function deviceRow(db: Db, id: number) {
  return db.selectFrom('devices').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
