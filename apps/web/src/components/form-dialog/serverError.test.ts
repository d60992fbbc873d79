import { describe, expect, it } from 'vitest';
import { namedFieldError } from './serverError';

describe('namedFieldError', () => {
  it('reads the field and the message of the shared validation.field text, in either language', () => {
    expect(namedFieldError('字段 title：标题长度为 1 到 17 个字符')).toEqual({
      field: 'title',
      message: '标题长度为 1 到 17 个字符',
    });
    expect(namedFieldError('Field shape.radius: out of range')).toEqual({
      field: 'shape.radius',
      message: 'out of range',
    });
  });

  it('is null for an error that names no field', () => {
    expect(namedFieldError('单位编码已存在')).toBeNull();
    expect(namedFieldError('')).toBeNull();
    expect(namedFieldError('字段 ：空')).toBeNull();
  });
});
