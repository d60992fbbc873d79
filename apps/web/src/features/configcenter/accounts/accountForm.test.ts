import { translate } from '@bwc/protocol';
import { describe, expect, it } from 'vitest';
import { AccountAddForm, AccountEditForm, addRequestOf } from './accountForm';

const valid = {
  username: 'zhang.san',
  password: 'Abc@1234',
  confirm_password: 'Abc@1234',
  hostname: '张三',
  phone: '',
  unit_id: '3',
  role_id: 2,
  ifadmin: 0,
};

function messagesOf(values: Record<string, unknown>, schema = AccountAddForm): Record<string, string> {
  const result = schema.safeParse(values);
  if (result.success) return {};
  const out: Record<string, string> = {};
  for (const issue of result.error.issues) out[String(issue.path[0])] ??= translate('zh-CN', issue.message);
  return out;
}

describe('account form', () => {
  it('accepts a complete form and sends the request without the confirmation', () => {
    const parsed = AccountAddForm.parse(valid);
    expect(addRequestOf(parsed)).toEqual({
      username: 'zhang.san',
      password: 'Abc@1234',
      hostname: '张三',
      phone: '',
      unit_id: 3,
      role_id: 2,
      ifadmin: 0,
    });
  });

  it('applies the password rules with their exact messages', () => {
    expect(messagesOf({ ...valid, password: '', confirm_password: '' }).password).toBe('请输入密码');
    expect(messagesOf({ ...valid, password: 'Ab@1', confirm_password: 'Ab@1' }).password).toBe('密码长度为 8 到 12 位');
    expect(messagesOf({ ...valid, password: 'Abc@12345678x', confirm_password: 'Abc@12345678x' }).password).toBe(
      '密码长度为 8 到 12 位',
    );
    expect(messagesOf({ ...valid, password: 'abcdefgh1', confirm_password: 'abcdefgh1' }).password).toBe(
      '密码须包含大写字母、小写字母、数字、特殊字符中的至少三种',
    );
    expect(messagesOf({ ...valid, confirm_password: '' }).confirm_password).toBe('请再次输入密码');
    expect(messagesOf({ ...valid, confirm_password: 'Abc@1235' }).confirm_password).toBe('两次输入密码不一致');
  });

  it('names the other fields that are wrong', () => {
    const messages = messagesOf({ ...valid, username: 'x', hostname: ' ', unit_id: '', role_id: '', phone: 'abc' });
    expect(messages).toEqual({
      username: '用户名为 2 到 32 位字母、数字或 _ . @ -',
      hostname: '不能为空',
      unit_id: '不能为空',
      role_id: '不能为空',
      phone: '请输入正确的电话号码',
    });
  });

  it('edits without username and password', () => {
    const { username: _u, password: _p, confirm_password: _c, ...rest } = valid;
    expect(AccountEditForm.safeParse(rest).success).toBe(true);
    expect(messagesOf({ ...rest, role_id: '' }, AccountEditForm as never)).toEqual({ role_id: '不能为空' });
  });
});
