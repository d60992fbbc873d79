import { describe, expect, it } from 'vitest';
import { sharedCatalogs } from '../i18n';
import { AccountAddRequest, UnitAddRequest, rebaseUnitCode, unitCodeFitsParent, unitCodePrefix } from './org';
import { OperationLogQuery } from './oplog';
import { DictAddRequest } from './dictionary';

describe('unit codes', () => {
  it('strips trailing 00 levels for the prefix', () => {
    expect(unitCodePrefix('440300000000')).toBe('4403');
    expect(unitCodePrefix('440303010000')).toBe('44030301');
    expect(unitCodePrefix('440310000000')).toBe('440310');
  });
  it('a child extends its parent by at least one level', () => {
    expect(unitCodeFitsParent('440300000000', '440303000000')).toBe(true);
    expect(unitCodeFitsParent('440303000000', '440303010000')).toBe(true);
    expect(unitCodeFitsParent('440303000000', '440304010000')).toBe(false);
    expect(unitCodeFitsParent('440303000000', '440303000000')).toBe(false);
    expect(unitCodeFitsParent(null, '123456789012')).toBe(true);
    expect(unitCodeFitsParent(null, '12345678901')).toBe(false);
    expect(unitCodeFitsParent(null, '12345678901a')).toBe(false);
  });
  it('rebases a descendant onto a new ancestor code', () => {
    expect(rebaseUnitCode('440303010000', '440303000000', '440305000000')).toBe('440305010000');
    expect(rebaseUnitCode('440303010203', '440303000000', '440305070000')).toBeNull();
    expect(rebaseUnitCode('440303010000', '440303000000', '440305070000')).toBe('440305070100');
    expect(rebaseUnitCode('440304010000', '440303000000', '440305000000')).toBeNull();
  });
});

describe('org schemas', () => {
  it('checks unit code and name', () => {
    expect(UnitAddRequest.safeParse({ pid: 1, bh: '4403', name: 'x' }).error?.issues[0]?.message).toBe(
      'validation.unit.code',
    );
    expect(UnitAddRequest.parse({ pid: '1', bh: '440303010000', name: ' 东门 ' })).toEqual({
      pid: 1,
      bh: '440303010000',
      name: '东门',
      sort: 0,
    });
  });
  it('applies the password rules to a new account', () => {
    const base = { username: 'zhang.san', hostname: '张三', unit_id: 1, role_id: 2 };
    expect(AccountAddRequest.safeParse({ ...base, password: 'abc' }).error?.issues[0]?.message).toBe(
      'validation.password.length',
    );
    expect(AccountAddRequest.safeParse({ ...base, password: 'abcdefgh1' }).error?.issues[0]?.message).toBe(
      'validation.password.classes',
    );
    expect(
      AccountAddRequest.safeParse({ ...base, username: 'a b', password: 'Abc@1234' }).error?.issues[0]?.message,
    ).toBe('validation.username.format');
    expect(AccountAddRequest.parse({ ...base, password: 'Abc@1234' }).ifadmin).toBe(0);
  });
  it('normalises log times and refuses a reversed range', () => {
    expect(OperationLogQuery.parse({ start: '2026-01-02 03:04:05' }).start).toBe('2026-01-02T03:04:05.000Z');
    expect(OperationLogQuery.parse({ start: '2026-01-02T03:04:05+08:00' }).start).toBe('2026-01-01T19:04:05.000Z');
    expect(OperationLogQuery.safeParse({ start: 'yesterday' }).error?.issues[0]?.message).toBe('validation.datetime');
    const reversed = OperationLogQuery.safeParse({ start: '2026-02-01', end: '2026-01-01' });
    expect(reversed.error?.issues[0]).toMatchObject({ message: 'validation.timeRange', path: ['end'] });
  });
  it('checks dictionary keys', () => {
    expect(DictAddRequest.safeParse({ type: 'alarm_type', key: 'a b', label: 'x' }).error?.issues[0]?.message).toBe(
      'validation.dict.key',
    );
    expect(DictAddRequest.parse({ type: 'alarm_type', key: '9', label: '其他' })).toMatchObject({
      enabled: 1,
      sort: 0,
      label_en: '',
    });
  });
});

/** Every key of one language exists in the other. */
function keys(node: unknown, prefix = ''): string[] {
  if (typeof node !== 'object' || node === null) return [prefix];
  return Object.entries(node).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}
describe('catalogues', () => {
  it('zh-CN and en-US have the same keys', () => {
    expect(keys(sharedCatalogs['en-US']).sort()).toEqual(keys(sharedCatalogs['zh-CN']).sort());
  });
});

describe('number inputs', () => {
  it('reports a missing id as required and a non-number as a number error', async () => {
    const { AccountIdRequest, AccountListQuery } = await import('./org');
    expect(AccountIdRequest.safeParse({}, { reportInput: true }).error?.issues[0]).toMatchObject({
      code: 'invalid_type',
      input: undefined,
      message: 'validation.required',
    });
    expect(AccountIdRequest.parse({ id: '7' })).toEqual({ id: 7 });
    expect(AccountIdRequest.safeParse({ id: 'x' }).success).toBe(false);
    expect(AccountListQuery.parse({ unit_id: '', status: '', role_id: '3' })).toMatchObject({
      role_id: 3,
      page: 1,
      limit: 20,
      include_sub: 1,
    });
    expect(AccountListQuery.parse({ unit_id: '', status: '' }).unit_id).toBeUndefined();
    expect(AccountListQuery.parse({ include_sub: '' }).include_sub).toBe(1);
    expect(AccountListQuery.parse({ include_sub: '0' }).include_sub).toBe(0);
    expect(AccountListQuery.safeParse({ include_sub: '2' }).success).toBe(false);
  });
});
