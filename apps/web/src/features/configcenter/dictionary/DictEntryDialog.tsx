import { DictAddRequest, DictUpdateRequest, type DictEntry, type DictType } from '@bwc/protocol';
import { Form, Input, InputNumber, Modal, Switch } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { validateWith, zodRules } from '../../../app/forms/zodRules';

interface DictEntryDialogProps {
  type: DictType | null;
  /** 'new' to add, an entry to edit, null when closed */
  editing: DictEntry | 'new' | null;
  onClose: () => void;
  onSaved: () => void;
}

const AddForm = DictAddRequest.omit({ type: true });
const EditForm = DictUpdateRequest.omit({ id: true });
const addRules = zodRules(AddForm);
const editRules = zodRules(EditForm);

/** Add an entry to a dictionary type (key fixed once created) or edit its labels, order and state. */
export function DictEntryDialog({ type, editing, onClose, onSaved }: DictEntryDialogProps) {
  const { t } = useTranslation('configcenter');
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  // while the dialog closes it keeps showing what it showed
  const last = useRef(editing);
  if (editing !== null) last.current = editing;
  const shown = last.current;
  const adding = shown === 'new';
  const shownEntry = shown !== null && shown !== 'new' ? shown : null;
  const rules = adding ? addRules : editRules;

  useEffect(() => {
    if (!editing) return;
    form.resetFields();
    form.setFieldsValue(
      editing === 'new'
        ? { sort: 0, enabled: 1, label_en: '' }
        : { label: editing.label, label_en: editing.label_en, sort: editing.sort, enabled: editing.enabled },
    );
  }, [editing, form]);

  const submit = async () => {
    if (!type || !editing) return;
    // validate first: the dialog is busy only while the server works
    const request =
      editing === 'new'
        ? { api: 'dictAdd' as const, body: { type: type.code, ...(await validateWith(form, AddForm)) } }
        : { api: 'dictUpdate' as const, body: { id: editing.id, ...(await validateWith(form, EditForm)) } };
    setSaving(true);
    try {
      await call(request.api, request.body, { success: true });
      onSaved();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={editing !== null}
      title={t(adding ? 'dict.form.addTitle' : 'dict.form.editTitle')}
      onCancel={onClose}
      onOk={() => void submit().catch(() => undefined)}
      okText={t('action.save')}
      confirmLoading={saving}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" disabled={saving} name="dict-form">
        {adding ? (
          <Form.Item name="key" label={t('dict.form.key')} rules={rules('key')} required extra={t('dict.form.keyHelp')}>
            <Input maxLength={32} />
          </Form.Item>
        ) : (
          <Form.Item label={t('dict.form.key')}>
            <Input value={shownEntry?.key ?? ''} disabled />
          </Form.Item>
        )}
        <Form.Item name="label" label={t('dict.form.label')} rules={rules('label')} required>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item
          name="label_en"
          label={t('dict.form.labelEn')}
          rules={rules('label_en')}
          extra={t('dict.form.labelEnHelp')}
        >
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="sort" label={t('dict.form.sort')} rules={rules('sort')} extra={t('dict.form.sortHelp')}>
          <InputNumber min={0} max={99999} precision={0} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item
          name="enabled"
          label={t('dict.form.enabled')}
          extra={t('dict.form.enabledHelp')}
          getValueProps={(value) => ({ checked: value === 1 })}
          getValueFromEvent={(checked: boolean) => (checked ? 1 : 0)}
        >
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}
