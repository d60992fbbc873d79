import {
  DEVICE_CATEGORY,
  DeviceAddRequest,
  MenuId,
  TYPECATE_DEFAULT,
  type Device,
  type RecorderModel,
} from '@bwc/protocol';
import { call } from '../../api/http';
import type { z } from 'zod';
import { App, Form, Input, Select, Typography, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDialog, useFormDialog, type FormDialogTargetProps } from '../../components/form-dialog';
import { UnitTreeSelect } from '../../components/unit-tree';
import { keysOf } from '../../i18n/keys';
import { isUnitNode, loadUnitLevel } from '../../components/unit-tree';
import { usePermission } from '../../app/session/Permission';
import { OwnerSelect } from './OwnerSelect';

const CATEGORY_LABELS = keysOf('oamcenter', {
  bodyCamera: 'recorder.category.bodyCamera',
  vehicle: 'recorder.category.vehicle',
  handheld: 'recorder.category.handheld',
} satisfies Record<keyof typeof DEVICE_CATEGORY, string>);

/**
 * What the form checks: the request without typecate, which bodyOf builds from the category
 * field and the device's flags (checked with it, the absent typecate failed every save silently).
 */
const DeviceForm = DeviceAddRequest.omit({ typecate: true });
type DeviceForm = z.infer<typeof DeviceForm>;

interface Props extends FormDialogTargetProps<Device> {
  models: RecorderModel[];
}

/** The request body: the category is position 0 of typecate, the capability flags follow the device's state. */
function bodyOf(values: DeviceForm, form: FormInstance, flags: number[]) {
  const category = Number(form.getFieldValue('category'));
  return {
    ...values,
    model_id: values.model_id ?? null,
    owner_id: values.owner_id ?? null,
    typecate: [category, ...flags],
  };
}

/** Add or edit a device (recorder); an added device's API secret is shown once. */
export function RecorderFormDialog({ models, ...props }: Props) {
  const { t } = useTranslation('oamcenter');
  const { modal } = App.useApp();
  const canPickOwner = usePermission(MenuId.ACCOUNTS, 'view');
  const dialog = useFormDialog({
    ...props,
    schema: DeviceForm,
    initial: (device) =>
      device
        ? {
            hostbody: device.hostbody,
            imei: device.imei,
            hostname: device.hostname,
            hostcode: device.hostcode,
            jq_hostcode: device.jq_hostcode,
            unit_id: String(device.unit_id),
            model_id: device.model_id ?? undefined,
            owner_id: device.owner_id ?? undefined,
            category: device.typecate[0] ?? TYPECATE_DEFAULT[0],
            remark: device.remark,
          }
        : { category: TYPECATE_DEFAULT[0], hostcode: '', jq_hostcode: '', remark: '' },
    create: async (values, form) => {
      const body = bodyOf(values, form, TYPECATE_DEFAULT.slice(1));
      const answer = await call('deviceAdd', body, { success: true });
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
    },
    update: (values, device, form) =>
      call('deviceUpdate', { id: device.id, ...bodyOf(values, form, device.typecate.slice(1)) }, { success: true }),
  });

  return (
    <FormDialog
      dialog={dialog}
      name="recorder-form"
      title={t(dialog.creating ? 'recorder.form.addTitle' : 'recorder.form.editTitle')}
      okText={t('action.save')}
      width={640}
    >
      <Form.Item name="hostbody" label={t('recorder.field.hostbody')} rules={dialog.rules('hostbody')} required>
        <Input maxLength={32} />
      </Form.Item>
      <Form.Item name="imei" label="IMEI" rules={dialog.rules('imei')} required extra={t('recorder.form.imeiHelp')}>
        <Input maxLength={15} />
      </Form.Item>
      <Form.Item name="hostname" label={t('recorder.field.hostname')} rules={dialog.rules('hostname')} required>
        <Input maxLength={50} />
      </Form.Item>
      <Form.Item name="hostcode" label={t('recorder.field.hostcode')} rules={dialog.rules('hostcode')}>
        <Input maxLength={32} />
      </Form.Item>
      <Form.Item name="jq_hostcode" label={t('recorder.field.jqHostcode')} rules={dialog.rules('jq_hostcode')}>
        <Input maxLength={32} />
      </Form.Item>
      <Form.Item name="unit_id" label={t('recorder.field.unit')} rules={dialog.rules('unit_id')} required>
        <UnitTreeSelect loader={loadUnitLevel} selectableNode={isUnitNode} width={560} />
      </Form.Item>
      <Form.Item name="model_id" label={t('recorder.field.model')} rules={dialog.rules('model_id')}>
        <Select allowClear options={models.map((m) => ({ value: m.id, label: m.name }))} />
      </Form.Item>
      <Form.Item
        name="owner_id"
        label={t('recorder.field.owner')}
        rules={dialog.rules('owner_id')}
        extra={t(canPickOwner ? 'recorder.owner.help' : 'recorder.owner.noPermission')}
      >
        <OwnerSelect current={dialog.row?.owner_id ? { id: dialog.row.owner_id, name: dialog.row.owner_name } : null} />
      </Form.Item>
      <Form.Item name="category" label={t('recorder.field.category')}>
        <Select
          options={Object.entries(DEVICE_CATEGORY).map(([key, value]) => ({
            value,
            label: t(CATEGORY_LABELS[key as keyof typeof DEVICE_CATEGORY]),
          }))}
        />
      </Form.Item>
      <Form.Item name="remark" label={t('recorder.field.remark')} rules={dialog.rules('remark')}>
        <Input.TextArea maxLength={255} rows={2} />
      </Form.Item>
    </FormDialog>
  );
}
