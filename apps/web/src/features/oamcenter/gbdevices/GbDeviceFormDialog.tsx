import { GbDeviceUpdateRequest, type GbDevice } from '@bwc/protocol';
import { Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { FormDialog, useFormDialog, type FormDialogTargetProps } from '../../../components/form-dialog';
import { isUnitNode, loadUnitLevel, UnitTreeSelect } from '../../../components/unit-tree';

/** Rename a GB device and move it to its unit (gbdevice/update); the server's refusals show in the form. */
export function GbDeviceFormDialog(props: FormDialogTargetProps<GbDevice>) {
  const { t } = useTranslation('oamcenter');
  const dialog = useFormDialog({
    ...props,
    schema: GbDeviceUpdateRequest.omit({ id: true }),
    initial: (device) => (device ? { name: device.name, unit_id: String(device.unit_id) } : {}),
    update: (values, device) => call('gbDeviceUpdate', { id: device.id, ...values }, { success: true }),
  });

  return (
    <FormDialog
      dialog={dialog}
      name="gb-device-form"
      title={t('gbDevice.form.editTitle')}
      okText={t('action.save')}
      width={560}
    >
      <Form.Item label={t('gbDevice.field.gbid')}>
        <Typography.Text code data-testid="gb-device-form-gbid">
          {dialog.row?.devgbid}
        </Typography.Text>
      </Form.Item>
      <Form.Item
        name="name"
        label={t('gbDevice.field.name')}
        rules={dialog.rules('name')}
        extra={t('gbDevice.form.nameHelp')}
      >
        <Input maxLength={64} />
      </Form.Item>
      <Form.Item
        name="unit_id"
        label={t('gbDevice.field.unit')}
        rules={dialog.rules('unit_id')}
        required
        extra={t('gbDevice.form.unitHelp')}
      >
        <UnitTreeSelect loader={loadUnitLevel} selectableNode={isUnitNode} width={500} />
      </Form.Item>
    </FormDialog>
  );
}
