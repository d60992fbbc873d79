import { Api, MenuId, OPLOG_EXPORT_MAX, type OperationLogEntry, type Page } from '@bwc/protocol';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, callApi } from '../../../test/api';
import { auditRows, createTestApp, DEMO, login, type Session, type TestApp } from '../../../test/helpers';

let t: TestApp;
let admin: Session;
let unitadmin: Session;
let dispatcher: Session;

beforeAll(async () => {
  t = await createTestApp();
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  unitadmin = await login(t.app, DEMO.unitadmin.username, DEMO.unitadmin.password);
  dispatcher = await login(t.app, DEMO.dispatcher.username, DEMO.dispatcher.password);
  const futian = (
    await t.db.selectFrom('units').select('id').where('bh', '=', '440304000000').executeTakeFirstOrThrow()
  ).id;
  // a success by each administrator and a failure by the unit administrator
  await api(t.app, 'unitAdd', admin, { pid: futian, bh: '440304070000', name: '景田派出所' });
  await api(t.app, 'unitAdd', unitadmin, { pid: futian, bh: '440304080000', name: '沙头派出所' });
  const luohu = (await t.db.selectFrom('units').select('id').where('bh', '=', '440303000000').executeTakeFirstOrThrow())
    .id;
  await api(t.app, 'unitAdd', unitadmin, { pid: luohu, bh: '440303070000', name: '越权' });
});
afterAll(async () => t.close());

async function readWorkbook(body: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  return wb.worksheets[0]!;
}

describe('every log endpoint', () => {
  it.each(['logList', 'logExport'] as const)('%s refuses a caller without a session', async (name) => {
    expect(await api(t.app, name, null)).toMatchObject({ code: 401, msg: '请先登录' });
  });
  it.each(['logList', 'logExport'] as const)('%s needs menu 10431 (the dispatcher has none)', async (name) => {
    const env = await api(t.app, name, dispatcher);
    expect(env.code).toBe(403);
    expect(env.msg).toContain(String(MenuId.OPERATION_LOG));
  });
});

describe('GET rest/system/log/get', () => {
  it('lists newest first with the result', async () => {
    const env = await api<Page<OperationLogEntry>>(t.app, 'logList', admin, { action: '/rest/user/unit/add' });
    expect(env.code).toBe(200);
    expect(env.data.total).toBe(3);
    expect(env.data.list.map((e) => [e.username, e.result])).toEqual([
      ['unitadmin', 'failure'],
      ['unitadmin', 'success'],
      ['admin', 'success'],
    ]);
    expect(env.data.list[0]).toMatchObject({
      unit_name: '福田分局',
      result_code: 403,
      msg: '无权访问本单位及下级单位以外的数据',
    });
  });

  it("shows each result in the viewer's language, whatever the actor's was", async () => {
    const env = await api<Page<OperationLogEntry>>(t.app, 'logList', admin, { action: '/rest/user/unit/add' }, 'en-US');
    expect(env.data.list.map((e) => e.msg)).toEqual([
      'This data belongs to a unit outside your unit and its sub-units',
      'Added successfully',
      'Added successfully',
    ]);
  });

  it('records operations, not reads: searches, trees and lists sent as POST write nothing', async () => {
    const count = async () =>
      Number(
        (
          await t.db
            .selectFrom('operation_log')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    expect(await api(t.app, 'announceList', admin, { page: 1, limit: 10 })).toMatchObject({ code: 200 });
    expect(await api(t.app, 'unitTree', admin, {})).toMatchObject({ code: 200 });
    expect(await api(t.app, 'alarmSearch', admin, { page: 1, limit: 10 })).toMatchObject({ code: 200 });
    expect(await api(t.app, 'logList', admin)).toMatchObject({ code: 200 });
    expect(await count()).toBe(before);
    expect(await api(t.app, 'dictTypes', admin)).toMatchObject({ code: 200 });
    const added = await api<{ id: number }>(t.app, 'announceAdd', admin, { title: 'drill', content: 'at noon' });
    expect(added).toMatchObject({ code: 200 });
    expect(await count()).toBe(before + 1);
  });

  it('keeps a unit administrator to his unit scope', async () => {
    const env = await api<Page<OperationLogEntry>>(t.app, 'logList', unitadmin, { limit: 100 });
    expect(env.data.total).toBeGreaterThan(0);
    expect(env.data.list.every((e) => e.unit_name === '福田分局')).toBe(true);
    const root = (await t.db.selectFrom('units').select('id').where('pid', '=', 0).executeTakeFirstOrThrow()).id;
    expect(await api(t.app, 'logList', unitadmin, { unit_id: root })).toMatchObject({
      code: 403,
      msg: '无权访问本单位及下级单位以外的数据',
    });
  });

  it('filters by user, unit, action, result and time range', async () => {
    const byUser = await api<Page<OperationLogEntry>>(t.app, 'logList', admin, {
      username: 'UNITADM',
      action: 'unit/add',
    });
    expect(byUser.data.total).toBe(2);
    const failures = await api<Page<OperationLogEntry>>(t.app, 'logList', admin, {
      result: 'failure',
      action: 'unit/add',
    });
    expect(failures.data.list.map((e) => e.result_code)).toEqual([403]);
    const futian = (
      await t.db.selectFrom('units').select('id').where('bh', '=', '440304000000').executeTakeFirstOrThrow()
    ).id;
    const byUnit = await api<Page<OperationLogEntry>>(t.app, 'logList', admin, { unit_id: futian, action: 'unit/add' });
    expect(byUnit.data.total).toBe(2);
    const future = await api<Page<OperationLogEntry>>(t.app, 'logList', admin, { start: '2999-01-01 00:00:00' });
    expect(future.data.total).toBe(0);
    const past = new Date(Date.now() - 3_600_000).toISOString();
    const recent = await api<Page<OperationLogEntry>>(t.app, 'logList', admin, {
      start: past,
      end: new Date(Date.now() + 60_000).toISOString(),
      action: 'unit/add',
      result: '',
    });
    expect(recent.data.total).toBe(3);
  });

  it('names bad filters', async () => {
    expect(await api(t.app, 'logList', admin, { start: 'yesterday' })).toMatchObject({
      code: 400,
      msg: '字段 start：时间格式不正确',
    });
    expect(await api(t.app, 'logList', admin, { start: '2026-02-01', end: '2026-01-01' })).toMatchObject({
      code: 400,
      msg: '字段 end：结束时间不能早于开始时间',
    });
    expect(await api(t.app, 'logList', admin, { result: 'maybe' }, 'en-US')).toMatchObject({
      code: 400,
      msg: 'Result is not one of the allowed choices.',
    });
  });
});

describe('GET rest/system/log/export', () => {
  it('answers an .xlsx with translated headers and the file name in content-disposition', async () => {
    const res = await callApi(t.app, 'logExport', admin, { action: 'unit/add' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const disposition = String(res.headers['content-disposition']);
    expect(disposition).toMatch(/^attachment; filename="[^"]+\.xlsx"; filename\*=UTF-8''/);
    expect(decodeURIComponent(disposition.split("UTF-8''")[1]!)).toMatch(/^操作日志_\d{8}-\d{6}\.xlsx$/);
    const sheet = await readWorkbook(res.rawPayload);
    expect(sheet.name).toBe('操作日志');
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      '序号',
      '时间',
      '用户',
      '单位',
      '操作',
      '对象',
      '来源地址',
      '结果',
      '结果码',
      '信息',
    ]);
    expect(sheet.rowCount).toBe(4);
    expect(sheet.getRow(2).getCell(3).value).toBe('unitadmin');
    expect(sheet.getRow(2).getCell(8).value).toBe('失败');

    const en = await callApi(t.app, 'logExport', admin, { action: 'unit/add' }, 'en-US');
    expect(decodeURIComponent(String(en.headers['content-disposition']).split("UTF-8''")[1]!)).toMatch(
      /^operation-log_\d{8}-\d{6}\.xlsx$/,
    );
    const enSheet = await readWorkbook(en.rawPayload);
    expect(enSheet.getRow(1).getCell(2).value).toBe('Time');
    expect(enSheet.getRow(3).getCell(8).value).toBe('success');
  });

  it('is itself written to the log', async () => {
    const rows = await auditRows(t.db, Api.logExport.path);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows[0]).toMatchObject({ username: 'admin', result_code: 200 });
  });

  it('stays within scope and answers bad filters with an envelope', async () => {
    const res = await callApi(t.app, 'logExport', unitadmin, {});
    const sheet = await readWorkbook(res.rawPayload);
    const units = new Set<unknown>();
    sheet.eachRow((row, n) => n > 1 && units.add(row.getCell(4).value));
    expect([...units]).toEqual(['福田分局']);
    expect(await api(t.app, 'logExport', admin, { end: 'soon' })).toMatchObject({
      code: 400,
      msg: '字段 end：时间格式不正确',
    });
  });

  it('refuses a selection larger than the export limit', async () => {
    const ts = new Date(Date.UTC(2020, 0, 1)).toISOString();
    const rows = Array.from({ length: OPLOG_EXPORT_MAX + 1 }, () => ({
      user_id: null,
      username: 'bulk',
      unit_id: null,
      unit_name: '',
      action: '/bulk',
      target: '',
      ip: '',
      result_code: 200,
      msg: '',
      created: ts,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await t.db
        .insertInto('operation_log')
        .values(rows.slice(i, i + 500))
        .execute();
    expect(await api(t.app, 'logExport', admin, { action: '/bulk' })).toMatchObject({
      code: 400,
      msg: `符合条件的日志有 ${OPLOG_EXPORT_MAX + 1} 条，超过导出上限 ${OPLOG_EXPORT_MAX} 条，请缩小查询范围`,
    });
    const page = await api<Page<OperationLogEntry>>(t.app, 'logList', admin, { action: '/bulk', limit: 100, page: 3 });
    expect(page.data).toMatchObject({ total: OPLOG_EXPORT_MAX + 1, page: 3 });
    expect(page.data.list).toHaveLength(100);
  });
});
