import { PasswordForm, type ChangePasswordRequest } from '@bwc/protocol';
import { useMutation } from '@tanstack/react-query';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { validateWith, zodRules } from '../../forms/zodRules';

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
  const [form] = Form.useForm<PasswordForm>();
  const change = useMutation({
    mutationFn: (body: ChangePasswordRequest) => call('changePassword', body, { success: true }),
    onSuccess: onClose,
  });
  const submit = async () => {
    const values = await validateWith(form, PasswordForm);
    change.mutate({ old_password: values.old_password, new_password: values.new_password });
  };
  return (
    <Modal
      open={open}
      title={t('password.title')}
      okText={tc('action.submit')}
      cancelText={tc('action.cancel')}
      confirmLoading={change.isPending}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<PasswordForm> form={form} layout="vertical" preserve={false} data-testid="change-password-form">
        <ChangePasswordFields />
      </Form>
    </Modal>
  );
}
