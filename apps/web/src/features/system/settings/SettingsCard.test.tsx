import { MenuId, SettingsSchemas, type Settings } from '@bwc/protocol';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { renderWidget } from '../../../components/test-utils';
import { NormalSetFields } from './NormalSetPage';
import { SettingsCard } from './SettingsCard';
import { TitleSetFields } from './TitleSetPage';

const EDIT = { view: 1, edit: 1 } as const;
const VIEW = { view: 1 } as const;

function loaded<V>(data: V) {
  return { data, isPending: false, isError: false, refetch: vi.fn(), dataUpdatedAt: 1 };
}

async function renderTitleSet(permission: typeof EDIT | typeof VIEW, language: 'zh-CN' | 'en-US' = 'zh-CN') {
  const save = { mutateAsync: vi.fn(async (v: Settings<'titleset'>) => v), isPending: false };
  const view = await renderWidget(
    <SettingsCard<Settings<'titleset'>>
      title="titleset"
      schema={SettingsSchemas.titleset}
      menuId={MenuId.SYSTEM_SETTINGS}
      query={loaded({ title: '移动执法电子证据管理', support_text: '' })}
      save={save}
    >
      {(rules) => <TitleSetFields rules={rules} />}
    </SettingsCard>,
    { permissions: { [MenuId.SYSTEM_SETTINGS]: permission }, language },
  );
  return { ...view, save };
}

/** antd validates asynchronously; the machine running CI may be slow */
const WAIT = { timeout: 15_000 };
const find = (text: string) => screen.findByText(text, undefined, WAIT);

function submitTitle(value: string, language: 'zh-CN' | 'en-US' = 'zh-CN') {
  fireEvent.change(screen.getByLabelText(language === 'zh-CN' ? '系统标题' : 'System title'), { target: { value } });
  fireEvent.click(screen.getByRole('button', { name: language === 'zh-CN' ? '保 存' : 'Save' }));
}

// antd forms in jsdom are slow on a loaded CI machine
const SLOW = { timeout: 60_000 };

describe('titleset form', SLOW, () => {
  it('refuses 18 characters with the length message and does not save', async () => {
    const { save } = await renderTitleSet(EDIT);
    submitTitle('一二三四五六七八九十一二三四五六七八');
    expect(await find('标题长度为 1 到 17 个字符')).toBeTruthy();
    expect(save.mutateAsync).not.toHaveBeenCalled();
  });

  it('refuses an empty title', async () => {
    const { save } = await renderTitleSet(EDIT);
    submitTitle('');
    expect(await find('标题长度为 1 到 17 个字符')).toBeTruthy();
    expect(save.mutateAsync).not.toHaveBeenCalled();
  });

  // every character is covered by the protocol's validator tests; here the form shows the message
  it('refuses forbidden characters', { timeout: 120_000 }, async () => {
    const { save } = await renderTitleSet(EDIT);
    for (const title of ['a\\b', 'a’b', 'a>b']) {
      submitTitle('ok');
      await waitFor(() => expect(screen.queryByText('标题不能包含以下字符：\\ / : * ? < | ’ % >')).toBeNull(), WAIT);
      submitTitle(title);
      expect(await find('标题不能包含以下字符：\\ / : * ? < | ’ % >')).toBeTruthy();
    }
    await waitFor(() => expect(save.mutateAsync).toHaveBeenCalledTimes(3), WAIT);
    expect(save.mutateAsync.mock.calls.every(([values]) => values.title === 'ok')).toBe(true);
  });

  it('shows the message in English', async () => {
    await renderTitleSet(EDIT, 'en-US');
    submitTitle('a%b', 'en-US');
    expect(await find('None of the characters \\ / : * ? < | ’ % > may appear in the title.')).toBeTruthy();
  });

  it('saves 17 characters, trimmed by the schema', async () => {
    const { save } = await renderTitleSet(EDIT);
    submitTitle('  一二三四五六七八九十一二三四五六七  ');
    await waitFor(
      () =>
        expect(save.mutateAsync).toHaveBeenCalledWith({
          title: '一二三四五六七八九十一二三四五六七',
          support_text: '',
        }),
      WAIT,
    );
  });

  it('is read-only without the edit action', async () => {
    const { save } = await renderTitleSet(VIEW);
    expect(screen.getByText('您的角色没有此设置的修改权限，只能查看。')).toBeTruthy();
    const button = screen.getByRole('button', { name: '保 存' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByLabelText('系统标题') as HTMLInputElement).disabled).toBe(true);
    expect(save.mutateAsync).not.toHaveBeenCalled();
  });
});

describe('normalset form', SLOW, () => {
  const stored: Settings<'normalset'> = {
    login_fail_limit: 5,
    login_lock_minutes: 10,
    default_password: 'Bwc@2024',
    session_timeout_minutes: 120,
  };

  async function renderNormalSet(language: 'zh-CN' | 'en-US' = 'zh-CN') {
    const save = { mutateAsync: vi.fn(async (v: Settings<'normalset'>) => v), isPending: false };
    await renderWidget(
      <SettingsCard<Settings<'normalset'>>
        title="normalset"
        schema={SettingsSchemas.normalset}
        menuId={MenuId.SYSTEM_SETTINGS}
        query={loaded(stored)}
        save={save}
      >
        {(rules) => <NormalSetFields rules={rules} />}
      </SettingsCard>,
      { permissions: { [MenuId.SYSTEM_SETTINGS]: EDIT }, language },
    );
    return save;
  }

  async function submitPassword(password: string) {
    const save = await renderNormalSet();
    fireEvent.change(screen.getByLabelText('默认重置密码'), { target: { value: password } });
    fireEvent.click(screen.getByRole('button', { name: '保 存' }));
    return save;
  }

  // 0 attempts and 99999 minutes were once clamped to 1 and 1440 by the inputs and saved
  it.each([
    ['连续登录失败次数', '0', '取值范围为 1 到 20'],
    ['锁定时长', '99999', '取值范围为 1 到 1440'],
  ])('refuses %s %s naming the bounds, keeps the value as typed and saves nothing', async (label, value, message) => {
    const save = await renderNormalSet();
    const input = screen.getByLabelText(label) as HTMLInputElement;
    fireEvent.change(input, { target: { value } });
    fireEvent.blur(input);
    fireEvent.click(screen.getByRole('button', { name: '保 存' }));
    expect(await find(message)).toBeTruthy();
    expect(input.value).toBe(value);
    expect(save.mutateAsync).not.toHaveBeenCalled();
  });

  it('names the bounds in English too', async () => {
    const save = await renderNormalSet('en-US');
    const input = screen.getByLabelText('Session timeout') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await find('This field must be from 5 to 1440.')).toBeTruthy();
    expect(save.mutateAsync).not.toHaveBeenCalled();
  });

  it('asks for a password when emptied', async () => {
    const save = await submitPassword('');
    expect(await find('请输入密码')).toBeTruthy();
    expect(save.mutateAsync).not.toHaveBeenCalled();
  });

  it.each(['Ab@1234', 'Abcdef@123456'])('refuses %s (length 8 to 12)', async (password) => {
    const save = await submitPassword(password);
    expect(await find('密码长度为 8 到 12 位')).toBeTruthy();
    expect(save.mutateAsync).not.toHaveBeenCalled();
  });

  it('refuses a password with only two character classes', async () => {
    const save = await submitPassword('abcdefg1');
    expect(await find('密码须包含大写字母、小写字母、数字、特殊字符中的至少三种')).toBeTruthy();
    expect(save.mutateAsync).not.toHaveBeenCalled();
  });

  it('saves a password with three classes together with the numbers', async () => {
    const save = await submitPassword('abcdefg1X');
    await waitFor(
      () => expect(save.mutateAsync).toHaveBeenCalledWith({ ...stored, default_password: 'abcdefg1X' }),
      WAIT,
    );
  });
});

describe('a schema key without a field', SLOW, () => {
  it('is said above the form and nothing is saved (it was swallowed: Save did nothing)', async () => {
    const save = { mutateAsync: vi.fn(async (v: Settings<'titleset'>) => v), isPending: false };
    // a key the form has no field for, which '' (an absent field) does not satisfy
    const schema = SettingsSchemas.titleset.extend({ hidden_key: z.string().min(1) });
    await renderWidget(
      <SettingsCard<Settings<'titleset'>>
        title="titleset"
        schema={schema as unknown as typeof SettingsSchemas.titleset}
        menuId={MenuId.SYSTEM_SETTINGS}
        query={loaded({ title: '移动执法电子证据管理', support_text: '' })}
        save={save}
      >
        {(rules) => <TitleSetFields rules={rules} />}
      </SettingsCard>,
      { permissions: { [MenuId.SYSTEM_SETTINGS]: EDIT } },
    );
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    submitTitle('ok');
    const alert = await screen.findByTestId('settings-unshown', undefined, WAIT);
    expect(alert.textContent).toContain('hidden_key');
    expect(alert.textContent).toContain('无法保存');
    expect(save.mutateAsync).not.toHaveBeenCalled();
    error.mockRestore();
  });
});
