import {
  DEVICE_CATEGORY,
  DeviceAddRequest,
  TYPECATE_DEFAULT,
  type Device,
  type DeviceWithSecret,
  type RecorderModel,
} from '@bwc/protocol';
import { App, Form, Input, Modal, Select, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { validateWith, zodRules } from '../../app/forms/zodRules';
import { UnitTreeSelect } from '../../components/unit-tree';
import { callAs, isUnit, loadUnits } from './oamcenter.api';

interface Props {
  editing: Device | 'new' | null;
  models: RecorderModel[];
  onClose: () => void;
  onSaved: () => void;
}

const rules = zodRules(DeviceAddRequest);

/** Add or edit a device (recorder); an added device's API secret is shown once. */
export function RecorderFormDialog({ editing, models, onClose, onSaved }: Props) {
  const { t } = useTranslation('oamcenter');
  const { modal } = App.useApp();
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const last = useRef(editing);
  if (editing !== null) last.current = editing;
  const adding = last.current === 'new';

  useEffect(() => {
    if (!editing) return;
    form.resetFields();
    if (editing === 'new')
      form.setFieldsValue({ category: TYPECATE_DEFAULT[0], hostcode: '', jq_hostcode: '', remark: '' });
    else
      form.setFieldsValue({
        hostbody: editing.hostbody,
        imei: editing.imei,
        hostname: editing.hostname,
        hostcode: editing.hostcode,
        jq_hostcode: editing.jq_hostcode,
        unit_id: String(editing.unit_id),
        model_id: editing.model_id ?? undefined,
        category: editing.typecate[0] ?? TYPECATE_DEFAULT[0],
        remark: editing.remark,
      });
  }, [editing, form]);

  const submit = async () => {
    if (!editing) return;
    const category = Number(form.getFieldValue('category'));
    const values = await validateWith(form, DeviceAddRequest);
    // the category is position 0 of typecate; the capability flags follow the device's state
    const flags = editing === 'new' ? TYPECATE_DEFAULT.slice(1) : editing.typecate.slice(1);
    const body = { ...values, model_id: values.model_id ?? null, typecate: [category, ...flags] };
    setSaving(true);
    try {
      if (editing === 'new') {
        const answer = await callAs<DeviceWithSecret>('deviceAdd', body, { success: true });
        modal.info({
          title: t('recorder.secret.title'),
          content: (
            <>
              <p>{t('recorder.secret.once', { hostbody: answer.device.hostbody })}</p>
              <Typography.Paragraph copyable code data-testid="device-secret">
                {answer.secret}
              </Typography.Paragraph>
            </>
          ),
        });
      } else await callAs('deviceUpdate', { id: editing.id, ...body }, { success: true });
      onSaved();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={editing !== null}
      title={t(adding ? 'recorder.form.addTitle' : 'recorder.form.editTitle')}
      onCancel={onClose}
      onOk={() => void submit().catch(() => undefined)}
      okText={t('action.save')}
      confirmLoading={saving}
      destroyOnHidden
      forceRender
      width={640}
    >
      <Form form={form} layout="vertical" disabled={saving} name="recorder-form" className="bwc-oam-form">
        <Form.Item name="hostbody" label={t('recorder.field.hostbody')} rules={rules('hostbody')} required>
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item name="imei" label="IMEI" rules={rules('imei')} required extra={t('recorder.form.imeiHelp')}>
          <Input maxLength={15} />
        </Form.Item>
        <Form.Item name="hostname" label={t('recorder.field.hostname')} rules={rules('hostname')} required>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="hostcode" label={t('recorder.field.hostcode')} rules={rules('hostcode')}>
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item name="jq_hostcode" label={t('recorder.field.jqHostcode')} rules={rules('jq_hostcode')}>
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item name="unit_id" label={t('recorder.field.unit')} rules={rules('unit_id')} required>
          <UnitTreeSelect loader={loadUnits} selectableNode={isUnit} width={560} />
        </Form.Item>
        <Form.Item name="model_id" label={t('recorder.field.model')} rules={rules('model_id')}>
          <Select allowClear options={models.map((m) => ({ value: m.id, label: m.name }))} />
        </Form.Item>
        <Form.Item name="category" label={t('recorder.field.category')}>
          <Select
            options={Object.entries(DEVICE_CATEGORY).map(([key, value]) => ({
              value,
              label: t(`recorder.category.${key}`),
            }))}
          />
        </Form.Item>
        <Form.Item name="remark" label={t('recorder.field.remark')} rules={rules('remark')}>
          <Input.TextArea maxLength={255} rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
