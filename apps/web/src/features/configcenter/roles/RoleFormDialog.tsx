import { ROLE_NAME_MAX, RoleAddRequest, type Role } from '@bwc/protocol';
import { Form, Input, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { FormDialog, useFormDialog, type FormDialogTargetProps } from '../../../components/form-dialog';

/** Add or edit a role: name (free text), weight (higher ranks first), remark. */
export function RoleFormDialog(props: FormDialogTargetProps<Role>) {
  const { t } = useTranslation('configcenter');
  const dialog = useFormDialog({
    ...props,
    schema: RoleAddRequest,
    defaults: { weight: 0, remark: '' },
    create: (values) => call('roleAdd', values, { success: true }),
    update: (values, role) => call('roleUpdate', { id: role.id, ...values }, { success: true }),
  });
  return (
    <FormDialog
      dialog={dialog}
      name="role-form"
      title={t(dialog.creating ? 'roles.form.addTitle' : 'roles.form.editTitle')}
      okText={t('action.save')}
    >
      <Form.Item name="name" label={t('roles.form.name')} rules={dialog.rules('name')} required>
        <Input count={{ show: true, max: ROLE_NAME_MAX }} />
      </Form.Item>
      <Form.Item
        name="weight"
        label={t('roles.form.weight')}
        rules={dialog.rules('weight')}
        extra={t('roles.form.weightHelp')}
      >
        <InputNumber style={{ width: 160 }} />
      </Form.Item>
      <Form.Item name="remark" label={t('roles.form.remark')} rules={dialog.rules('remark')}>
        <Input.TextArea rows={3} maxLength={255} showCount />
      </Form.Item>
    </FormDialog>
  );
}
