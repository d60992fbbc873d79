import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Device, Envelope, ProvisionAnswer } from '@bwc/protocol';
import { simulatedIdentity } from '@bwc/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test/api';
import { createTestApp, DEMO, login, type Session, type TestApp } from '../../../test/helpers';
import { addDevice, unitIdOf } from '../../../test/devices';
import { PROVISION_KEY_FILE } from '../../modules/devices/device-api.routes';
import { DEMO_OFFICER, seedDemo } from './demo';

/**
 * The demo's officers: each simulated camera provisioned in demo mode belongs to an account of
 * the 民警 role named after the camera's user, in its unit, who logs in with the demo password.
 */

/** A demo server with its administrator's session and the fleet's provisioning key. */
interface Demo extends TestApp {
  admin: Session;
  key: string;
}

async function startDemo(): Promise<Demo> {
  const app = await createTestApp();
  const admin = await login(app.app, DEMO.admin.username, DEMO.admin.password);
  return { ...app, admin, key: readFileSync(join(app.config.dataDir, PROVISION_KEY_FILE), 'utf8').trim() };
}

let t: Demo;
let admin: Session;

beforeAll(async () => {
  t = await startDemo();
  admin = t.admin;
});
afterAll(async () => t.close());

type Identity = ReturnType<typeof simulatedIdentity> & { unit_bh?: string };

/** As the simulated fleet does at every start. */
async function provision(devices: Identity[], on: Demo = t): Promise<ProvisionAnswer['devices']> {
  const res = await on.app.inject({
    method: 'POST',
    url: '/rest/device/api/provision',
    payload: { devices },
    headers: { authorization: `Bearer ${on.key}` },
  });
  const env = res.json() as Envelope<ProvisionAnswer>;
  expect(env.code).toBe(200);
  return env.data.devices;
}

/** The device as the console's device list shows it. */
async function device(hostbody: string, on: Demo = t): Promise<Device> {
  const env = await api<{ list: Device[] }>(on.app, 'deviceList', on.admin, { keyword: hostbody });
  expect(env.code).toBe(200);
  const found = env.data.list.find((d) => d.hostbody === hostbody);
  if (!found) throw new Error(`no device ${hostbody}`);
  return found;
}

/** Everything seeding could change, to compare before and after. */
async function snapshot(on: Demo = t) {
  const db = on.db;
  const users = await db.selectFrom('users').select(['id', 'username', 'unit_id', 'role_id']).orderBy('id').execute();
  const roles = await db.selectFrom('roles').select(['id', 'name']).orderBy('id').execute();
  const grants = await db.selectFrom('role_permissions').selectAll().orderBy('role_id').orderBy('module_id').execute();
  const owners = await db.selectFrom('devices').select(['id', 'owner_id']).orderBy('id').execute();
  return { users, roles, grants, owners };
}

describe('demo officers', () => {
  it('gives each simulated camera an officer of its unit, named as its user, who logs in', async () => {
    const fleet = [1, 2, 3].map((i) => simulatedIdentity('OFC', i));
    const station = { ...simulatedIdentity('OFC', 4), unit_bh: '440305010000' };
    const provisioned = await provision([...fleet, station]);
    expect(provisioned).toHaveLength(4);

    for (const identity of [...fleet, station]) {
      const cam = await device(identity.hostbody);
      const officer = await t.db
        .selectFrom('users as u')
        .innerJoin('roles as r', 'r.id', 'u.role_id')
        .select(['u.id', 'u.hostname', 'u.unit_id', 'u.ifadmin', 'u.status', 'r.name as role'])
        .where('u.username', '=', identity.hostcode)
        .executeTakeFirstOrThrow();
      expect(officer).toMatchObject({
        hostname: identity.hostname,
        unit_id: cam.unit_id,
        ifadmin: 0,
        status: 'enabled',
        role: DEMO_OFFICER.role,
      });
      expect(cam).toMatchObject({ owner_id: officer.id, owner_name: identity.hostname });
    }
    expect((await device(station.hostbody)).unit_id).toBe(await unitIdOf(t.db, '440305010000'));

    // an officer logs in with the demo password and sees his unit's recordings, not the devices
    const officer = await login(t.app, fleet[0]!.hostcode, DEMO_OFFICER.password);
    expect(await api(t.app, 'mediaList', officer, { page: 1, limit: 10 })).toMatchObject({ code: 200 });
    expect(await api(t.app, 'deviceList', officer)).toMatchObject({ code: 403 });
  });

  it('gives none to a device without a police number usable as a username', async () => {
    const [bare] = await provision([{ ...simulatedIdentity('OFC', 5), hostcode: '' }]);
    const [odd] = await provision([{ ...simulatedIdentity('OFC', 7), hostcode: '警号 7' }]);
    for (const d of [bare!, odd!]) expect((await device(d.hostbody)).owner_id).toBeNull();
    const made = await t.db
      .selectFrom('users')
      .select('username')
      .where('username', 'in', [simulatedIdentity('OFC', 5).hostcode, '警号 7'])
      .execute();
    expect(made).toEqual([]);
  });

  it('changes nothing when seeded and provisioned again', async () => {
    const before = await snapshot();
    await seedDemo(t.db);
    await seedDemo(t.db);
    await provision([1, 2, 3, 4].map((i) => simulatedIdentity('OFC', i)));
    expect(await snapshot()).toEqual(before);
  });

  it('keeps an owner an administrator changed or cleared', async () => {
    const [changed, cleared] = [simulatedIdentity('OFC', 1), simulatedIdentity('OFC', 2)];
    const dispatcherId = (
      await t.db
        .selectFrom('users')
        .select('id')
        .where('username', '=', DEMO.dispatcher.username)
        .executeTakeFirstOrThrow()
    ).id;
    for (const [hostbody, owner] of [
      [changed.hostbody, dispatcherId],
      [cleared.hostbody, null],
    ] as const) {
      const { id, imei, hostname, hostcode, jq_hostcode, unit_id, model_id, remark } = await device(hostbody);
      const update = {
        id,
        hostbody,
        imei,
        hostname,
        hostcode,
        jq_hostcode,
        unit_id,
        model_id,
        remark,
        owner_id: owner,
      };
      expect(await api(t.app, 'deviceUpdate', admin, update)).toMatchObject({ code: 200 });
    }
    const before = await snapshot();
    await seedDemo(t.db);
    await provision([changed, cleared]);
    expect(await snapshot()).toEqual(before);
    expect(await device(changed.hostbody)).toMatchObject({ owner_id: dispatcherId, owner_name: '张调度' });
    expect((await device(cleared.hostbody)).owner_id).toBeNull();
  });

  it('gives a database seeded before the officers their cameras, once', async () => {
    const before = await startDemo();
    try {
      // as it was before demo officers: no such role, cameras without owners or officers
      await before.db.deleteFrom('roles').where('name', '=', DEMO_OFFICER.role).execute();
      const unitId = await unitIdOf(before.db, '440307010000');
      const old = [8, 9].map((i) => simulatedIdentity('OFC', i));
      for (const { hostbody, imei, hostname, hostcode } of old) {
        const res = await api(before.app, 'deviceAdd', before.admin, {
          hostbody,
          imei,
          hostname,
          hostcode,
          unit_id: unitId,
        });
        expect(res.code).toBe(200);
      }
      await provision(old, before);
      expect((await device(old[0]!.hostbody, before)).owner_id).toBeNull();

      // the next start: the seed adds the role, the fleet provisions its cameras again
      await seedDemo(before.db);
      await provision(old, before);
      for (const identity of old)
        expect(await device(identity.hostbody, before)).toMatchObject({
          unit_id: unitId,
          owner_name: identity.hostname,
        });
      const after = await snapshot(before);
      await seedDemo(before.db);
      await provision(old, before);
      expect(await snapshot(before)).toEqual(after);
      const officers = await before.db
        .selectFrom('users')
        .select('username')
        .where(
          'username',
          'in',
          old.map((i) => i.hostcode),
        )
        .execute();
      expect(officers).toHaveLength(2);
    } finally {
      await before.close();
    }
  });

  it('leaves devices an administrator adds alone', async () => {
    const cam = await addDevice(t.app, admin, await unitIdOf(t.db, '440303010000'));
    expect((await device(cam.hostbody)).owner_id).toBeNull();
  });
});
