import { PasswordForm } from '@bwc/protocol';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { FormDialog, useFormDialog } from '../../../components/form-dialog';
import { zodRules } from '../../forms/zodRules';

const rules = zodRules(PasswordForm);

/** The change-password form alone (tested on its own): every rule of spec part 1 section 5. */
export function ChangePasswordFields() {
  const { t } = useTranslation('shell');
  return (
    <>
      <Form.Item
        name="old_password"
        label={t('password.old')}
        rules={rules('old_password')}
        validateTrigger="onBlur"
        required
      >
        <Input.Password autoComplete="current-password" maxLength={64} />
      </Form.Item>
      <Form.Item
        name="new_password"
        label={t('password.new')}
        rules={rules('new_password')}
        extra={t('password.rule')}
        required
      >
        <Input.Password autoComplete="new-password" maxLength={64} />
      </Form.Item>
      <Form.Item
        name="confirm_password"
        label={t('password.confirm')}
        rules={rules('confirm_password')}
        dependencies={['new_password']}
        required
      >
        <Input.Password autoComplete="new-password" maxLength={64} />
      </Form.Item>
    </>
  );
}

export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('shell');
  const { t: tc } = useTranslation();
  const dialog = useFormDialog<never, typeof PasswordForm>({
    target: open ? 'new' : null,
    onClose,
    onSaved: onClose,
    schema: PasswordForm,
    create: ({ old_password, new_password }) =>
      call('changePassword', { old_password, new_password }, { success: true }),
  });
  return (
    <FormDialog
      dialog={dialog}
      title={t('password.title')}
      okText={tc('action.submit')}
      cancelText={tc('action.cancel')}
    >
      <ChangePasswordFields />
    </FormDialog>
  );
}
