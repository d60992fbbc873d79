import {
  ArchiveMenu,
  descendantIds,
  FenceShape,
  MODULES,
  MODULE_BY_ID,
  MenuId,
  Username,
  type Action,
} from '@bwc/protocol';
import { hashPlainPassword } from '../../modules/auth/password';
import { now, type Db } from '../connection';
import type { UserTable } from '../types';
import { readSettings } from '../settings';

/** Unit tree: city bureau -> district branches -> police stations (21 units). */
const UNIT_TREE = {
  bh: '440300000000',
  name: '深圳市公安局',
  children: [
    { bh: '440303000000', name: '罗湖分局', stations: ['东门派出所', '桂园派出所', '黄贝派出所'] },
    { bh: '440304000000', name: '福田分局', stations: ['华富派出所', '莲花派出所', '香蜜湖派出所'] },
    { bh: '440305000000', name: '南山分局', stations: ['蛇口派出所', '粤海派出所', '西丽派出所'] },
    { bh: '440306000000', name: '宝安分局', stations: ['新安派出所', '西乡派出所', '福永派出所'] },
    { bh: '440307000000', name: '龙岗分局', stations: ['布吉派出所', '横岗派出所', '龙城派出所'] },
  ],
};

/** Unit of the demo unit administrator (his subtree is his scope). */
export const DEMO_UNITADMIN_UNIT_BH = '440304000000';

type Grant = { ids: number[]; actions: Action[] };
const ALL: Action[] = ['view', 'edit', 'add'];
const tree = (id: number) => descendantIds(id);

export const DEMO_ROLES: { name: string; weight: number; remark: string; grants: Grant[] }[] = [
  {
    name: '管理员',
    weight: 100,
    remark: '全部模块全部权限',
    grants: [{ ids: MODULES.map((m) => m.id), actions: ALL }],
  },
  {
    name: '调度员',
    weight: 50,
    remark: '指挥调度与视频监控',
    grants: [
      { ids: [...tree(10100), ...tree(10150)], actions: ALL },
      { ids: [MenuId.ANNOUNCEMENTS, MenuId.DOWNLOADS], actions: ['view'] },
    ],
  },
  {
    name: '单位管理员',
    weight: 40,
    remark: '本单位及下级单位的用户与单位管理',
    grants: [{ ids: [...tree(10410), ...tree(MenuId.UNITS), ...tree(10430)], actions: ALL }],
  },
  {
    // an officer carrying a camera: the recordings of his unit (he uploads, never deletes: no edit),
    // its incidents and cases to read, and the notices every account sees
    name: '民警',
    weight: 20,
    remark: '本单位执法数据查看与上传',
    grants: [
      { ids: [MenuId.LAW_MEDIA], actions: ['view', 'add'] },
      { ids: [ArchiveMenu.LAW_DOC, ArchiveMenu.CASE, MenuId.ANNOUNCEMENTS, MenuId.DOWNLOADS], actions: ['view'] },
    ],
  },
  { name: '审计员', weight: 10, remark: '日志审计（只读）', grants: [{ ids: tree(10430), actions: ['view'] }] },
];

export const DEMO_ACCOUNTS = [
  {
    username: 'admin',
    password: 'Admin@123',
    hostname: '系统管理员',
    role: '管理员',
    unitBh: UNIT_TREE.bh,
    ifadmin: 1,
    phone: '13800000001',
  },
  {
    username: 'dispatcher',
    password: 'Dispatch@1',
    hostname: '张调度',
    role: '调度员',
    unitBh: UNIT_TREE.bh,
    ifadmin: 0,
    phone: '13800000002',
  },
  {
    username: 'unitadmin',
    password: 'Unit@1234',
    hostname: '李管理',
    role: '单位管理员',
    unitBh: DEMO_UNITADMIN_UNIT_BH,
    ifadmin: 0,
    phone: '13800000003',
  },
] as const;

/**
 * The demo's officers: the person each simulated camera names (its 使用人 `hostname` and 警号
 * `hostcode`) gets an account of this role in the camera's unit, its police number as username,
 * and becomes the camera's owner, so that its recordings name him (an item takes its device's owner).
 */
export const DEMO_OFFICER = { role: '民警', password: 'Police@123' } as const;

/** A demo account's row (its password hashed before, outside any transaction: argon2 takes a while). */
type DemoAccountRow = Pick<
  UserTable,
  'username' | 'password_hash' | 'hostname' | 'unit_id' | 'role_id' | 'ifadmin' | 'phone'
>;

/** Insert a demo account unless its username is taken: its id, or undefined when it existed. */
async function insertDemoAccount(db: Db, account: DemoAccountRow, ts: string): Promise<number | undefined> {
  const row = await db
    .insertInto('users')
    .values({ ...account, status: 'enabled', created: ts, updated: ts })
    .onConflict((oc) => oc.column('username').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

/** Grants plus view on every ancestor, so that a granted page's menu parents show. */
export function expandGrants(grants: Grant[]): Map<number, Set<Action>> {
  const out = new Map<number, Set<Action>>();
  const give = (id: number, action: Action) => {
    const set = out.get(id) ?? new Set<Action>();
    set.add(action);
    out.set(id, set);
  };
  for (const g of grants) {
    for (const id of g.ids) {
      for (const a of g.actions) give(id, a);
      for (let p = MODULE_BY_ID.get(id)?.pid ?? 0; p; p = MODULE_BY_ID.get(p)?.pid ?? 0) give(p, 'view');
    }
  }
  return out;
}

/** Idempotent demo data: inserts what is missing, never overwrites what exists. */
export async function seedDemo(db: Db): Promise<void> {
  const ts = now();
  await db.transaction().execute(async (trx) => {
    const unitId = async (bh: string, name: string, pid: number, sort: number): Promise<number> => {
      const found = await trx.selectFrom('units').select('id').where('bh', '=', bh).executeTakeFirst();
      if (found) return found.id;
      const row = await trx
        .insertInto('units')
        .values({ bh, name, pid, sort, created: ts })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    };
    const rootId = await unitId(UNIT_TREE.bh, UNIT_TREE.name, 0, 0);
    for (const [i, district] of UNIT_TREE.children.entries()) {
      const districtId = await unitId(district.bh, district.name, rootId, i);
      for (const [j, station] of district.stations.entries()) {
        await unitId(`${district.bh.slice(0, 6)}${String(j + 1).padStart(2, '0')}0000`, station, districtId, j);
      }
    }

    for (const role of DEMO_ROLES) {
      let found = await trx.selectFrom('roles').select('id').where('name', '=', role.name).executeTakeFirst();
      if (!found) {
        found = await trx
          .insertInto('roles')
          .values({ name: role.name, weight: role.weight, remark: role.remark, created: ts })
          .returning('id')
          .executeTakeFirstOrThrow();
        for (const [moduleId, actions] of expandGrants(role.grants)) {
          await trx
            .insertInto('role_permissions')
            .values({
              role_id: found.id,
              module_id: moduleId,
              view: +actions.has('view'),
              edit: +actions.has('edit'),
              add: +actions.has('add'),
            })
            .execute();
        }
      }
    }
  });

  for (const account of DEMO_ACCOUNTS) {
    const exists = await db
      .selectFrom('users')
      .select('id')
      .where('username', '=', account.username)
      .executeTakeFirst();
    if (exists) continue;
    const unit = await db.selectFrom('units').select('id').where('bh', '=', account.unitBh).executeTakeFirstOrThrow();
    const role = await db.selectFrom('roles').select('id').where('name', '=', account.role).executeTakeFirstOrThrow();
    await insertDemoAccount(
      db,
      {
        username: account.username,
        password_hash: await hashPlainPassword(account.password),
        hostname: account.hostname,
        unit_id: unit.id,
        role_id: role.id,
        ifadmin: account.ifadmin,
        phone: account.phone,
      },
      ts,
    );
  }
}

/**
 * Demo mode, at provisioning: each of these devices that has no owner and names an officer whose
 * account does not exist yet gets him (DEMO_OFFICER) and becomes his. Once the account exists the
 * device is never touched again, so an owner an administrator changed or cleared stays, and a
 * database seeded before gets its officers at the fleet's next start. A device without a police
 * number usable as a username gets none. Answers the devices given an owner.
 */
export async function seedDemoOfficers(db: Db, deviceIds: readonly number[]): Promise<number[]> {
  if (!deviceIds.length) return [];
  const role = await db.selectFrom('roles').select('id').where('name', '=', DEMO_OFFICER.role).executeTakeFirst();
  if (!role) return [];
  const devices = await db
    .selectFrom('devices')
    .select(['id', 'hostname', 'hostcode', 'unit_id'])
    .where('id', 'in', [...deviceIds])
    .where('owner_id', 'is', null)
    .orderBy('id')
    .execute();
  const candidates = devices.flatMap((d) => {
    const policeNumber = Username.safeParse(d.hostcode);
    return policeNumber.success ? [{ ...d, username: policeNumber.data }] : [];
  });
  if (!candidates.length) return [];
  const usernames = candidates.map((d) => d.username);
  const taken = new Set(
    (await db.selectFrom('users').select('username').where('username', 'in', usernames).execute()).map(
      (u) => u.username,
    ),
  );
  const ts = now();
  const owned: number[] = [];
  // one hash for the batch: every officer has the same published demo password, and argon2 per
  // officer cost the fleet's first provisioning a hundred hashes at start-up
  let passwordHash: string | undefined;
  for (const device of candidates) {
    if (taken.has(device.username)) continue;
    taken.add(device.username);
    const hash = (passwordHash ??= await hashPlainPassword(DEMO_OFFICER.password));
    // the account and the ownership together: an officer left without his camera would never get it
    const assigned = await db.transaction().execute(async (trx) => {
      const officerId = await insertDemoAccount(
        trx,
        {
          username: device.username,
          password_hash: hash,
          hostname: device.hostname,
          unit_id: device.unit_id,
          role_id: role.id,
          ifadmin: 0,
          phone: '',
        },
        ts,
      );
      if (officerId === undefined) return false;
      const updated = await trx
        .updateTable('devices')
        .set({ owner_id: officerId, updated: ts })
        .where('id', '=', device.id)
        .where('owner_id', 'is', null)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) > 0;
    });
    if (assigned) owned.push(device.id);
  }
  return owned;
}

/**
 * The demo's electronic fences, placed around the configured map centre where the simulated fleet
 * moves (streets within 3 km), so that its devices cross them and raise fence alarms (type 0) a few
 * times a minute with 100 devices. Owned by the root unit with no device or unit list: they apply
 * to every device. Added when missing (by name), never changed afterwards.
 */
export async function seedDemoFences(db: Db): Promise<void> {
  const map = await readSettings(db, 'digitailmap');
  const centre = { lat: map.gpscenter_lat, lng: map.gpscenter_lon };
  const perLat = (Math.PI / 180) * 6_371_000;
  const perLng = perLat * Math.cos((centre.lat * Math.PI) / 180);
  // a point `north` / `east` metres from the centre, rounded to about a decimetre
  const at = (north: number, east: number) => ({
    lat: Math.round((centre.lat + north / perLat) * 1e6) / 1e6,
    lng: Math.round((centre.lng + east / perLng) * 1e6) / 1e6,
  });
  const fences: { name: string; rule: string; shape: FenceShape; remark: string }[] = [
    {
      name: '市民中心警戒区',
      rule: 'both',
      shape: FenceShape.parse({ type: 'circle', center: at(600, 500), radius: 300 }),
      remark: '演示围栏：进出均报警',
    },
    {
      name: '口岸管控区',
      rule: 'enter',
      shape: FenceShape.parse({ type: 'rectangle', sw: at(-900, -1300), ne: at(-500, -600) }),
      remark: '演示围栏：进入报警',
    },
  ];
  const root = await db.selectFrom('units').select('id').where('bh', '=', UNIT_TREE.bh).executeTakeFirst();
  if (!root) return;
  const ts = now();
  for (const f of fences) {
    const exists = await db
      .selectFrom('geo_fences')
      .select('id')
      .where('kind', '=', 'fence')
      .where('name', '=', f.name)
      .executeTakeFirst();
    if (exists) continue;
    await db
      .insertInto('geo_fences')
      .values({
        kind: 'fence',
        name: f.name,
        unit_id: root.id,
        shape: JSON.stringify(f.shape),
        rule: f.rule,
        time_start: '',
        time_end: '',
        device_ids: '[]',
        unit_ids: '[]',
        enabled: 1,
        remark: f.remark,
        created: ts,
        updated: ts,
      })
      .execute();
  }
}
