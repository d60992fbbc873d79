import { DictAddRequest, DictUpdateRequest, type DictEntry, type DictType } from '@bwc/protocol';
import { Form, Input, InputNumber, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { flagSwitchProps } from '../../../app/forms/flagSwitch';
import { FormDialog, useFormDialog, type FormDialogTargetProps } from '../../../components/form-dialog';

interface DictEntryDialogProps extends FormDialogTargetProps<DictEntry> {
  type: DictType | null;
}

const AddForm = DictAddRequest.omit({ type: true });
const EditForm = DictUpdateRequest.omit({ id: true });

/** Add an entry to a dictionary type (key fixed once created) or edit its labels, order and state. */
export function DictEntryDialog({ type, ...props }: DictEntryDialogProps) {
  const { t } = useTranslation('configcenter');
  const dialog = useFormDialog({
    ...props,
    schema: AddForm,
    updateSchema: EditForm,
    defaults: { sort: 0, enabled: 1, label_en: '' },
    create: async (values) => {
      if (type) await call('dictAdd', { type: type.code, ...values }, { success: true });
    },
    update: (values, entry) => call('dictUpdate', { id: entry.id, ...values }, { success: true }),
  });
  return (
    <FormDialog
      dialog={dialog}
      name="dict-form"
      title={t(dialog.creating ? 'dict.form.addTitle' : 'dict.form.editTitle')}
      okText={t('action.save')}
    >
      {dialog.creating ? (
        <Form.Item
          name="key"
          label={t('dict.form.key')}
          rules={dialog.rules('key')}
          required
          extra={t('dict.form.keyHelp')}
        >
          <Input maxLength={32} />
        </Form.Item>
      ) : (
        <Form.Item label={t('dict.form.key')}>
          <Input value={dialog.row?.key ?? ''} disabled />
        </Form.Item>
      )}
      <Form.Item name="label" label={t('dict.form.label')} rules={dialog.rules('label')} required>
        <Input maxLength={64} />
      </Form.Item>
      <Form.Item
        name="label_en"
        label={t('dict.form.labelEn')}
        rules={dialog.rules('label_en')}
        extra={t('dict.form.labelEnHelp')}
      >
        <Input maxLength={64} />
      </Form.Item>
      <Form.Item name="sort" label={t('dict.form.sort')} rules={dialog.rules('sort')} extra={t('dict.form.sortHelp')}>
        <InputNumber style={{ width: 160 }} />
      </Form.Item>
      <Form.Item name="enabled" label={t('dict.form.enabled')} extra={t('dict.form.enabledHelp')} {...flagSwitchProps}>
        <Switch />
      </Form.Item>
    </FormDialog>
  );
}
