import { PasswordForm } from '@bwc/protocol';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Form } from 'antd';
import { beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../i18n';
import { validateWith } from '../../forms/zodRules';
import { ChangePasswordFields } from './ChangePasswordDialog';

let formRef: ReturnType<typeof Form.useForm<PasswordForm>>[0] | undefined;

function Harness() {
  const [form] = Form.useForm<PasswordForm>();
  formRef = form;
  return (
    <Form form={form}>
      <ChangePasswordFields />
    </Form>
  );
}

function input(label: string): HTMLInputElement {
  return screen.getByLabelText(label) as HTMLInputElement;
}

async function type(label: string, value: string) {
  await act(async () => {
    fireEvent.change(input(label), { target: { value } });
  });
}

describe('change password form (spec part 1 section 5)', () => {
  beforeEach(async () => {
    await setLanguage('en-US');
  });

  it('reports every required message on submit', async () => {
    render(<Harness />);
    await act(async () => {
      await validateWith(formRef!, PasswordForm).catch(() => undefined);
    });
    expect(await screen.findByText('Please enter the old password.')).toBeTruthy();
    expect(screen.getByText('Please enter password.')).toBeTruthy();
    expect(screen.getByText('Please enter password again.')).toBeTruthy();
  });

  it('validates the old password on blur, not while typing', async () => {
    render(<Harness />);
    await type('Old password', 'x');
    await type('Old password', '');
    expect(screen.queryByText('Please enter the old password.')).toBeNull();
    await act(async () => {
      fireEvent.blur(input('Old password'));
    });
    expect(await screen.findByText('Please enter the old password.')).toBeTruthy();
  });

  it('checks length and character classes of the new password', async () => {
    render(<Harness />);
    await type('New password', 'Ab1!');
    expect(await screen.findByText('The password must be 8 to 12 characters.')).toBeTruthy();
    await type('New password', 'abcdefgh');
    expect(
      await screen.findByText(
        'The password must contain at least three of: upper-case letter, lower-case letter, digit, special character.',
      ),
    ).toBeTruthy();
  });

  it('re-validates the confirmation when the new password changes', async () => {
    render(<Harness />);
    await type('New password', 'Abcdef1!');
    await type('Confirm password', 'Abcdef1!');
    await waitFor(() => expect(screen.queryByText('The two passwords do not match.')).toBeNull());
    await type('New password', 'Abcdef1!x');
    expect(await screen.findByText('The two passwords do not match.')).toBeTruthy();
    await type('Confirm password', 'Abcdef1!x');
    await waitFor(() => expect(screen.queryByText('The two passwords do not match.')).toBeNull());
  });

  it('passes a valid form and shows messages in Chinese', async () => {
    render(<Harness />);
    await type('Old password', 'Admin@123');
    await type('New password', 'Newpass@1');
    await type('Confirm password', 'Newpass@1');
    let values: PasswordForm | undefined;
    await act(async () => {
      values = await validateWith(formRef!, PasswordForm);
    });
    expect(values).toEqual({ old_password: 'Admin@123', new_password: 'Newpass@1', confirm_password: 'Newpass@1' });
    await act(async () => {
      await setLanguage('zh-CN');
    });
    await type('确认密码', 'other');
    expect(await screen.findByText('两次输入密码不一致')).toBeTruthy();
  });
});
