import {
  MenuId,
  type Device,
  type DeviceImportResult,
  type Page,
  type RecorderModel,
  type VersionInfo,
} from '@bwc/protocol';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../test/api';
import { createRole, createTestApp, createUser, DEMO, login, type Session, type TestApp } from '../../../test/helpers';
import { now } from '../../db/connection';
import { addDevice, deviceRow, testImei, unitIdOf } from '../../../test/devices';

let t: TestApp;
let admin: Session;
let dispatcher: Session;
/** recorder admin + model admin of FUTIAN (unit scope) */
let futianAdmin: Session;
let root: number;
let futian: number;
let luohu: number;

const ROOT = '440300000000';
const LUOHU = '440303000000';
const FUTIAN = '440304000000';

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  dispatcher = await login(t.app, DEMO.dispatcher.username, DEMO.dispatcher.password);
  const role = await createRole(t.db, 'recorder admins', [
    { ids: [MenuId.RECORDERS, MenuId.RECORDER_MODELS], actions: ['view', 'edit', 'add'] },
  ]);
  const u = await createUser(t.db, { roleId: role, unitBh: FUTIAN });
  futianAdmin = await login(t.app, u.username, u.password);
  root = await unitIdOf(t.db, ROOT);
  futian = await unitIdOf(t.db, FUTIAN);
  luohu = await unitIdOf(t.db, LUOHU);
});
afterAll(async () => t.close());

const registry = [
  'deviceList',
  'deviceAdd',
  'deviceUpdate',
  'deviceDelete',
  'deviceResetSecret',
  'deviceSettingsGet',
  'deviceSettingsUpdate',
] as const;
const models = ['modelList', 'modelAdd', 'modelUpdate', 'modelDelete'] as const;

/** a valid input for every endpoint, so that only the caller is wrong */
const VALID = () => ({
  id: 1,
  hostbody: 'AUTH01',
  imei: '490154203237518',
  hostname: 'x',
  unit_id: 1,
  name: 'x',
  silence_timeout_s: 60,
});

describe('auth of every registry endpoint', () => {
  it.each([...registry, ...models, 'deviceImport'] as const)('%s: 401 without a session', async (name) => {
    expect(await api(t.app, name, null, VALID(), 'en-US')).toMatchObject({ code: 401, msg: 'Please log in first' });
  });
  it.each(registry)('%s: 403 without menu 10311 (the dispatcher)', async (name) => {
    const env = await api(t.app, name, dispatcher, VALID(), 'en-US');
    expect(env.code).toBe(403);
    expect(env.msg).toMatch(/on menu 10311$/);
  });
  it.each(models)('%s: 403 without menu 10314', async (name) => {
    const env = await api(t.app, name, dispatcher, VALID(), 'en-US');
    expect(env.code).toBe(403);
    expect(env.msg).toMatch(/on menu 10314$/);
  });
});

describe('device records', () => {
  it('adds a device with every field and shows the secret once (stored hashed)', async () => {
    const imei = testImei();
    const env = await api<{ device: Device; secret: string }>(t.app, 'deviceAdd', admin, {
      hostbody: 'BWC0001',
      imei,
      hostname: '王警官',
      hostcode: '012345',
      jq_hostcode: '9001',
      unit_id: futian,
      remark: 'first',
    });
    expect(env).toMatchObject({ code: 200, msg: '新增成功' });
    expect(env.data.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(env.data.device).toMatchObject({
      did: 'BWC0001',
      hostbody: 'BWC0001',
      imei,
      hostcode: '012345',
      hostid: env.data.device.id,
      hostname: '王警官',
      lineon: 0,
      remote_kill: 0,
      typecate: [1, 1, 1, 1],
      lat: null,
      lng: null,
      jq_hostcode: '9001',
      unit_id: futian,
      unitname: expect.any(String),
      dwbh: FUTIAN,
    });
    const row = await deviceRow(t.db, env.data.device.id);
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.secret_hash).not.toContain(env.data.secret);
    // the list never carries the secret
    const list = await api<Page<Device>>(t.app, 'deviceList', admin, { keyword: 'BWC0001' });
    expect(list.data.total).toBe(1);
    expect(JSON.stringify(list.data)).not.toContain(env.data.secret);
  });

  it('refuses a bad imei, a bad hostbody, a bad typecate, naming the field', async () => {
    const base = { hostbody: 'BWC0002', imei: testImei(), hostname: 'x', unit_id: futian };
    expect(await api(t.app, 'deviceAdd', admin, { ...base, imei: '123456789012345' }, 'en-US')).toMatchObject({
      code: 400,
      msg: 'Field imei: The IMEI must be 15 digits with a valid check digit.',
    });
    expect(await api(t.app, 'deviceAdd', admin, { ...base, imei: '12345' })).toMatchObject({
      code: 400,
      msg: '字段 imei：IMEI 须为 15 位数字且校验位正确',
    });
    expect(await api(t.app, 'deviceAdd', admin, { ...base, hostbody: 'a b' }, 'en-US')).toMatchObject({
      code: 400,
      msg: 'Field hostbody: The device number must consist of 1 to 32 letters, digits, underscores or hyphens.',
    });
    expect(await api(t.app, 'deviceAdd', admin, { ...base, typecate: [1, 2, 1, 1] }, 'en-US')).toMatchObject({
      code: 400,
      msg: 'Field typecate: The typecate must be 4 integers, positions 2 to 4 being 0 or 1.',
    });
    expect(await api(t.app, 'deviceAdd', admin, { ...base, hostname: '' }, 'en-US')).toMatchObject({
      code: 400,
      msg: 'Hostname is required.',
    });
    expect(await t.db.selectFrom('devices').select('id').where('hostbody', '=', 'BWC0002').execute()).toHaveLength(0);
  });

  it('refuses a taken hostbody or imei', async () => {
    const d = await addDevice(t.app, admin, futian);
    expect(
      await api(
        t.app,
        'deviceAdd',
        admin,
        { hostbody: d.hostbody, imei: testImei(), hostname: 'x', unit_id: futian },
        'en-US',
      ),
    ).toMatchObject({
      code: 409,
      msg: `The device number ${d.hostbody} already exists`,
    });
    expect(
      await api(
        t.app,
        'deviceAdd',
        admin,
        { hostbody: 'FRESH01', imei: d.imei, hostname: 'x', unit_id: futian },
        'en-US',
      ),
    ).toMatchObject({
      code: 409,
      msg: `The IMEI ${d.imei} is already used by another device`,
    });
  });

  it('keeps a unit administrator inside his subtree', async () => {
    const inLuohu = await addDevice(t.app, admin, luohu);
    const inFutian = await addDevice(t.app, futianAdmin, futian);
    const list = await api<Page<Device>>(t.app, 'deviceList', futianAdmin, { limit: 100 });
    expect(list.data.list.map((d) => d.id)).toContain(inFutian.id);
    expect(list.data.list.every((d) => d.unit_id !== luohu && d.unit_id !== root)).toBe(true);
    const outOfScope = { code: 403, msg: 'This data belongs to a unit outside your unit and its sub-units' };
    expect(await api(t.app, 'deviceList', futianAdmin, { unit_id: luohu }, 'en-US')).toMatchObject(outOfScope);
    expect(
      await api(
        t.app,
        'deviceAdd',
        futianAdmin,
        { hostbody: 'OUT01', imei: testImei(), hostname: 'x', unit_id: luohu },
        'en-US',
      ),
    ).toMatchObject(outOfScope);
    const row = await deviceRow(t.db, inLuohu.id);
    expect(
      await api(
        t.app,
        'deviceUpdate',
        futianAdmin,
        { id: inLuohu.id, hostbody: row.hostbody, imei: row.imei, hostname: 'mine', unit_id: futian },
        'en-US',
      ),
    ).toMatchObject(outOfScope);
    expect(await api(t.app, 'deviceDelete', futianAdmin, { id: inLuohu.id }, 'en-US')).toMatchObject(outOfScope);
    expect(await api(t.app, 'deviceResetSecret', futianAdmin, { id: inLuohu.id }, 'en-US')).toMatchObject(outOfScope);
    // an owner from another unit is refused too
    const luohuUser = await createUser(t.db, { unitBh: LUOHU });
    const own = await deviceRow(t.db, inFutian.id);
    expect(
      await api(
        t.app,
        'deviceUpdate',
        futianAdmin,
        { id: own.id, hostbody: own.hostbody, imei: own.imei, hostname: 'x', unit_id: futian, owner_id: luohuUser.id },
        'en-US',
      ),
    ).toMatchObject({ code: 400, msg: 'The device user is outside your unit and its sub-units' });
    expect((await deviceRow(t.db, inLuohu.id)).hostname).toBe(row.hostname);
  });

  it('edits, filters, resets the secret and deletes', async () => {
    const d = await addDevice(t.app, admin, futian);
    const modelId = (await api<{ id: number }>(t.app, 'modelAdd', admin, { name: 'DSJ-X1', vendor: 'ACME' })).data.id;
    const owner = await createUser(t.db, { unitBh: FUTIAN, hostname: '赵六' });
    const upd = await api<Device>(t.app, 'deviceUpdate', admin, {
      id: d.id,
      hostbody: d.hostbody,
      imei: d.imei,
      hostname: 'renamed',
      unit_id: futian,
      model_id: modelId,
      owner_id: owner.id,
      typecate: [2, 1, 0, 1],
    });
    expect(upd).toMatchObject({
      code: 200,
      data: { hostname: 'renamed', model_name: 'DSJ-X1', owner_name: '赵六', typecate: [2, 1, 0, 1] },
    });
    // an edit without owner_id (the console's form has no owner field) keeps the owner; null takes it away
    const edit = { id: d.id, hostbody: d.hostbody, imei: d.imei, unit_id: futian, model_id: modelId };
    expect(
      await api<Device>(t.app, 'deviceUpdate', admin, { ...edit, hostname: 'remark only', remark: 'x' }),
    ).toMatchObject({
      code: 200,
      data: { hostname: 'remark only', owner_id: owner.id, owner_name: '赵六' },
    });
    expect(
      await api<Device>(t.app, 'deviceUpdate', admin, { ...edit, hostname: 'renamed', owner_id: null }),
    ).toMatchObject({
      code: 200,
      data: { owner_id: null },
    });
    expect(await api(t.app, 'deviceUpdate', admin, { ...edit, hostname: 'renamed', owner_id: 'x' })).toMatchObject({
      code: 400,
    });
    const filtered = await api<Page<Device>>(t.app, 'deviceList', admin, { model_id: modelId });
    expect(filtered.data.list.map((x) => x.id)).toEqual([d.id]);
    const reset = await api<{ secret: string }>(t.app, 'deviceResetSecret', admin, { id: d.id });
    expect(reset.code).toBe(200);
    expect(reset.data.secret).not.toBe(d.secret);
    const oldLogin = await t.app.inject({
      method: 'POST',
      url: '/rest/device/api/login',
      payload: { device: d.hostbody, secret: d.secret },
    });
    expect(oldLogin.json()).toMatchObject({ code: 401 });
    expect(await api(t.app, 'deviceDelete', admin, { id: d.id })).toMatchObject({ code: 200, msg: '删除成功' });
    expect(await t.db.selectFrom('devices').select('id').where('id', '=', d.id).execute()).toHaveLength(0);
    expect(await api(t.app, 'deviceDelete', admin, { id: d.id }, 'en-US')).toMatchObject({
      code: 404,
      msg: 'No such device',
    });
  });

  it('counts devices in the licence info and refuses one beyond the licence', async () => {
    const used = Number(
      (
        await t.db
          .selectFrom('devices')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const info = await api<VersionInfo>(t.app, 'versionInfo', admin);
    expect(info.data).toMatchObject({ device_nums: 500, use_device_nums: used });
    // fill up to the demo licence's 500 devices
    const ts = now();
    const fill = Array.from({ length: 500 - used }, (_, i) => ({
      hostbody: `FILL${i}`,
      imei: testImei(),
      hostname: 'fill',
      hostcode: '',
      jq_hostcode: '',
      remark: '',
      lineon: 0,
      remote_kill: 0,
      unit_id: root,
      typecate: '[1,1,1,1]',
      secret_hash: '0'.repeat(64),
      created: ts,
      updated: ts,
    }));
    for (let i = 0; i < fill.length; i += 100)
      await t.db
        .insertInto('devices')
        .values(fill.slice(i, i + 100))
        .execute();
    expect(
      await api(
        t.app,
        'deviceAdd',
        admin,
        { hostbody: 'OVER1', imei: testImei(), hostname: 'x', unit_id: root },
        'en-US',
      ),
    ).toMatchObject({
      code: 409,
      msg: 'The number of devices has reached the licensed limit (500)',
    });
    expect((await api<VersionInfo>(t.app, 'versionInfo', admin)).data.use_device_nums).toBe(500);
    await t.db.deleteFrom('devices').where('hostbody', 'like', 'FILL%').execute();
  });
});

describe('device settings', () => {
  it('reads the default silence timeout and saves a new one within 10..3600 s', async () => {
    expect(await api(t.app, 'deviceSettingsGet', admin)).toMatchObject({ code: 200, data: { silence_timeout_s: 60 } });
    expect(await api(t.app, 'deviceSettingsUpdate', admin, { silence_timeout_s: 5 }, 'en-US')).toMatchObject({
      code: 400,
      msg: 'Silence timeout s must be from 10 to 3600.',
    });
    expect(await api(t.app, 'deviceSettingsUpdate', admin, { silence_timeout_s: 90 })).toMatchObject({ code: 200 });
    expect(await api(t.app, 'deviceSettingsGet', admin)).toMatchObject({ data: { silence_timeout_s: 90 } });
    await api(t.app, 'deviceSettingsUpdate', admin, { silence_timeout_s: 60 });
  });
});

describe('recorder models', () => {
  it('adds, lists with device counts, edits, refuses duplicates and deleting one in use', async () => {
    const add = await api<{ id: number }>(t.app, 'modelAdd', admin, { name: 'M-100', vendor: 'V', remark: 'r' });
    expect(add).toMatchObject({ code: 200 });
    expect(await api(t.app, 'modelAdd', admin, { name: 'M-100' }, 'en-US')).toMatchObject({
      code: 409,
      msg: 'The model name M-100 already exists',
    });
    expect(await api(t.app, 'modelAdd', admin, { name: '' }, 'en-US')).toMatchObject({
      code: 400,
      msg: 'Name is required.',
    });
    const d = await addDevice(t.app, admin, futian, { model_id: add.data.id });
    const list = await api<RecorderModel[]>(t.app, 'modelList', futianAdmin, { keyword: 'm-1' });
    expect(list.data.find((m) => m.id === add.data.id)).toMatchObject({ name: 'M-100', vendor: 'V', devices: 1 });
    expect(await api(t.app, 'modelUpdate', admin, { id: add.data.id, name: 'M-101', vendor: 'V2' })).toMatchObject({
      code: 200,
    });
    expect(await api(t.app, 'modelDelete', admin, { id: add.data.id }, 'en-US')).toMatchObject({
      code: 409,
      msg: '1 devices still use this model, it cannot be deleted',
    });
    await api(t.app, 'deviceDelete', admin, { id: d.id });
    expect(await api(t.app, 'modelDelete', admin, { id: add.data.id })).toMatchObject({ code: 200 });
    expect(await api(t.app, 'modelUpdate', admin, { id: add.data.id, name: 'gone' }, 'en-US')).toMatchObject({
      code: 404,
      msg: 'No such device model',
    });
  });
});

async function workbook(rows: (string | number)[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('devices');
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

function multipart(file: Buffer, fileName: string, fields: Record<string, string> = {}) {
  const boundary = '----bwc' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
  );
  parts.push(file, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function importFile(
  session: Session | null,
  file: Buffer,
  fileName: string,
  fields: Record<string, string> = {},
) {
  const body = multipart(file, fileName, fields);
  const res = await t.app.inject({
    method: 'POST',
    url: '/rest/oam/recorder/import',
    payload: body.payload,
    headers: { ...body.headers, ...(session?.headers ?? {}), 'x-lang': 'en-US' },
  });
  return res.json() as { code: number; msg: string; data: DeviceImportResult };
}

describe('import from .xlsx', () => {
  it('creates the good rows and reports each bad row; nothing of a bad row is written', async () => {
    const good1 = testImei();
    const good2 = testImei();
    const file = await workbook([
      ['设备编号', 'IMEI', '使用人', '警号', '单位编号', '型号'],
      ['IMP001', good1, '甲', '1001', FUTIAN, ''],
      ['IMP002', '123', '乙', '1002', FUTIAN, ''],
      ['IMP001', good2, '丙', '1003', FUTIAN, ''],
      ['IMP003', good2, '丁', '1004', '999999999999', ''],
      ['IMP004', good2, '戊', '1005', '', 'NO-SUCH-MODEL'],
      ['IMP005', good2, '己', '1006', LUOHU, ''],
    ]);
    const env = await importFile(futianAdmin, file, 'devices.xlsx', { unit_id: String(futian) });
    expect(env).toMatchObject({ code: 200, msg: 'Import finished, see the per-row report' });
    expect(env.data).toMatchObject({ total: 6, created: 1, failed: 5 });
    expect(env.data.errors).toEqual([
      { row: 3, field: 'imei', msg: 'Field imei: The IMEI must be 15 digits with a valid check digit.' },
      { row: 4, field: 'hostbody', msg: 'The device number is repeated in the sheet (row 2)' },
      { row: 5, field: 'dwbh', msg: 'The unit code 999999999999 does not exist or is outside your scope' },
      { row: 6, field: 'model', msg: 'The model NO-SUCH-MODEL does not exist' },
      { row: 7, field: 'dwbh', msg: `The unit code ${LUOHU} does not exist or is outside your scope` },
    ]);
    expect(env.data.secrets).toHaveLength(1);
    const rows = await t.db
      .selectFrom('devices')
      .select(['hostbody', 'unit_id'])
      .where('hostbody', 'like', 'IMP%')
      .execute();
    expect(rows).toEqual([{ hostbody: 'IMP001', unit_id: futian }]);
  });

  it('offers a template whose headers the import reads back', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/rest/oam/recorder/import_template',
      headers: { ...futianAdmin.headers, 'x-lang': 'zh-CN' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="device-import-template.xlsx"');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      '设备编号',
      'IMEI',
      '使用人',
      '警号',
      '集群号',
      '单位编号',
      '型号',
      '备注',
    ]);
    sheet.addRow(['TPL001', testImei(), '模板', '', '', FUTIAN]);
    const env = await importFile(futianAdmin, Buffer.from(await wb.xlsx.writeBuffer()), 'filled.xlsx');
    expect(env.data).toMatchObject({ total: 1, created: 1, failed: 0 });
    const denied = await t.app.inject({
      method: 'GET',
      url: '/rest/oam/recorder/import_template',
      headers: dispatcher.headers,
    });
    expect(denied.json()).toMatchObject({ code: 403 });
  });

  it('refuses legacy .xls with a clear message, other files, a missing column and files over 5 MB', async () => {
    const ole = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)]);
    expect(await importFile(admin, ole, 'old.xls')).toMatchObject({
      code: 400,
      msg: 'Field file: Legacy .xls files (Excel 97-2003) are not supported: save the sheet as .xlsx in Excel and import that.',
    });
    expect(await importFile(admin, Buffer.from('a,b\n1,2\n'), 'devices.csv')).toMatchObject({
      code: 400,
      msg: 'Field file: Only .xlsx files can be imported.',
    });
    const noImei = await workbook([
      ['设备编号', '使用人'],
      ['X1', 'a'],
    ]);
    expect(await importFile(admin, noImei, 'x.xlsx')).toMatchObject({
      code: 400,
      msg: 'Field file: A required column is missing: IMEI (imei).',
    });
    const big = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(5 * 1024 * 1024 + 10)]);
    expect(await importFile(admin, big, 'big.xlsx')).toMatchObject({
      code: 400,
      msg: 'Field file: The file must not be larger than 5 MB.',
    });
    expect(await importFile(dispatcher, noImei, 'x.xlsx')).toMatchObject({ code: 403 });
  });
});
