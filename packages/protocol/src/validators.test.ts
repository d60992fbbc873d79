import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { translate } from './i18n';
import { PasswordForm } from './schemas/auth';
import { SettingsSchemas } from './schemas/system';
import {
  ageFromIdCard,
  between,
  boundsOf,
  issueParams,
  LoginPassword,
  NewPassword,
  passwordClasses,
  SystemTitle,
} from './validators';

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe('NewPassword', () => {
  it.each(['Abcdef12', 'abc123!@', 'ABC123!@', 'Ab1!Ab1!Ab1!'])('accepts %s', (pw) => expect(NewPassword.safeParse(pw).success).toBe(true));
  it('rejects too short and too long with the length message', () => {
    expect(firstMessage(NewPassword.safeParse('Ab1!'))).toBe('validation.password.length');
    expect(firstMessage(NewPassword.safeParse('Ab1!Ab1!Ab1!A'))).toBe('validation.password.length');
  });
  it('rejects fewer than three classes', () => {
    expect(firstMessage(NewPassword.safeParse('abcdefgh1'))).toBe('validation.password.classes');
    expect(passwordClasses('abcdefgh1')).toBe(2);
  });
  it('rejects empty with the required message', () => expect(firstMessage(NewPassword.safeParse(''))).toBe('validation.password.required'));
});

describe('LoginPassword', () => {
  it('needs at least 6 characters', () => {
    expect(firstMessage(LoginPassword.safeParse('12345'))).toBe('validation.password.loginMin');
    expect(LoginPassword.safeParse('123456').success).toBe(true);
  });
});

describe('PasswordForm', () => {
  it('reports a mismatched confirmation on the confirmation field', () => {
    const r = PasswordForm.safeParse({ old_password: 'x', new_password: 'Abcdef12', confirm_password: 'Abcdef13' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({ message: 'validation.password.mismatch', path: ['confirm_password'] });
  });
  it('asks for the confirmation when it is empty', () => {
    const r = PasswordForm.safeParse({ old_password: 'x', new_password: 'Abcdef12', confirm_password: '' });
    expect(r.error?.issues[0]?.message).toBe('validation.password.confirmRequired');
  });
});

describe('SystemTitle', () => {
  it('accepts 1 to 17 characters', () => {
    expect(SystemTitle.safeParse('指挥中心').success).toBe(true);
    expect(SystemTitle.safeParse('一二三四五六七八九十一二三四五六七').success).toBe(true);
  });
  it('rejects empty and 18 characters', () => {
    expect(firstMessage(SystemTitle.safeParse(''))).toBe('validation.title.length');
    expect(firstMessage(SystemTitle.safeParse('一二三四五六七八九十一二三四五六七八'))).toBe('validation.title.length');
  });
  it.each(['a\\b', 'a/b', 'a:b', 'a*b', 'a?b', 'a<b', 'a|b', 'a’b', 'a%b', 'a>b'])('rejects %s', (t) =>
    expect(firstMessage(SystemTitle.safeParse(t))).toBe('validation.title.forbidden'),
  );
});

describe('ageFromIdCard', () => {
  const today = new Date(Date.UTC(2026, 10, 21));
  it('derives the age from characters 7 to 14', () => {
    expect(ageFromIdCard('110101199003071234', today)).toEqual({ ok: true, age: 36, birthDate: '1990-03-07' });
    expect(ageFromIdCard('11010119901231123X', today)).toMatchObject({ ok: true, age: 35 });
  });
  it.each(['', '11010119900307123', '1101011990030712345', '110101199013071234', '110101199002301234', 'abcdefghijklmnopqr'])(
    'asks for a correct 18-character ID for %j',
    (id) => expect(ageFromIdCard(id, today)).toEqual({ ok: false, message: 'validation.idCard.invalid' }),
  );
});

describe('between: a range refused with both bounds, never clamped', () => {
  const limit = between(z.coerce.number().int({ error: 'validation.integer' }), 1, 20);

  it('names both bounds on either side and passes values inside', () => {
    for (const value of [0, 21, 99999, -1]) {
      const issue = limit.safeParse(value).error?.issues[0];
      expect(issue?.message).toBe('validation.between');
      expect(issueParams(issue!)).toEqual({ min: 1, max: 20 });
      expect(translate('zh-CN', 'validation.between', issueParams(issue!))).toBe('取值范围为 1 到 20');
      expect(translate('en-US', 'validation.between', issueParams(issue!))).toBe('must be from 1 to 20');
    }
    expect(limit.parse('1')).toBe(1);
    expect(limit.parse(20)).toBe(20);
  });

  it('gives its bounds to help texts and the OpenAPI document', () => {
    expect(boundsOf(SettingsSchemas.normalset.shape.login_lock_minutes)).toEqual({ min: 1, max: 1440 });
    expect(z.toJSONSchema(limit, { io: 'input' })).toMatchObject({ minimum: 1, maximum: 20 });
  });

  it('has no params for an ordinary issue', () => {
    expect(issueParams(z.string().safeParse(1).error!.issues[0]!)).toEqual({});
  });
});
