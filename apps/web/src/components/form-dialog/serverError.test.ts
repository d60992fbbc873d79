import { describe, expect, it } from 'vitest';
import { namedFieldError } from './serverError';

describe('namedFieldError', () => {
  it('reads the field and the message of the shared validation.field text, in either language', () => {
    expect(namedFieldError('字段 title：标题长度为 1 到 17 个字符')).toEqual({
      field: 'title',
      message: '标题长度为 1 到 17 个字符',
    });
    expect(namedFieldError('Field shape.radius: Out of range.')).toEqual({
      field: 'shape.radius',
      message: 'Out of range.',
    });
  });

  it('reads the field of an English sentence about it (validation.fieldIs) and keeps the whole sentence', () => {
    expect(namedFieldError('Username is required.')).toEqual({ field: 'username', message: 'Username is required.' });
    expect(namedFieldError('Login fail limit must be from 1 to 20.')).toEqual({
      field: 'login_fail_limit',
      message: 'Login fail limit must be from 1 to 20.',
    });
    expect(namedFieldError('字段 name：不能为空')).toEqual({ field: 'name', message: '不能为空' });
  });

  it('is null for an error that names no field', () => {
    expect(namedFieldError('单位编码已存在')).toBeNull();
    expect(namedFieldError('')).toBeNull();
    expect(namedFieldError('字段 ：空')).toBeNull();
    expect(namedFieldError('Alarm acknowledged.')).toBeNull();
    expect(namedFieldError('The username dispatcher already exists.')).toBeNull();
  });
});
