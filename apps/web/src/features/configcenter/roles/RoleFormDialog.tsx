import { ROLE_NAME_MAX, RoleAddRequest, type Role } from '@bwc/protocol';
import { Form, Input, InputNumber, Modal } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { validateWith, zodRules } from '../../../app/forms/zodRules';

interface RoleFormDialogProps {
  editing: Role | 'new' | null;
  onClose: () => void;
  onSaved: () => void;
}

const rules = zodRules(RoleAddRequest);

/** Add or edit a role: name (free text), weight (higher ranks first), remark. */
export function RoleFormDialog({ editing, onClose, onSaved }: RoleFormDialogProps) {
  const { t } = useTranslation('configcenter');
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  // while the dialog closes it keeps showing what it showed
  const last = useRef(editing);
  if (editing !== null) last.current = editing;

  useEffect(() => {
    if (!editing) return;
    form.resetFields();
    form.setFieldsValue(
      editing === 'new'
        ? { weight: 0, remark: '' }
        : { name: editing.name, weight: editing.weight, remark: editing.remark },
    );
  }, [editing, form]);

  const submit = async () => {
    const values = await validateWith(form, RoleAddRequest);
    setSaving(true);
    try {
      if (editing === 'new') await call('roleAdd', values, { success: true });
      else if (editing) await call('roleUpdate', { id: editing.id, ...values }, { success: true });
      onSaved();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={editing !== null}
      title={t(last.current === 'new' ? 'roles.form.addTitle' : 'roles.form.editTitle')}
      onCancel={onClose}
      onOk={() => void submit().catch(() => undefined)}
      okText={t('action.save')}
      confirmLoading={saving}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" disabled={saving} name="role-form">
        <Form.Item name="name" label={t('roles.form.name')} rules={rules('name')} required>
          <Input count={{ show: true, max: ROLE_NAME_MAX }} />
        </Form.Item>
        <Form.Item
          name="weight"
          label={t('roles.form.weight')}
          rules={rules('weight')}
          extra={t('roles.form.weightHelp')}
        >
          <InputNumber min={0} max={9999} precision={0} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="remark" label={t('roles.form.remark')} rules={rules('remark')}>
          <Input.TextArea rows={3} maxLength={255} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
