import { WorkstationAddRequest, type Workstation } from '@bwc/protocol';
import { call } from '../../../api/http';
import { App, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormDialog, useFormDialog, type FormDialogTargetProps } from '../../../components/form-dialog';
import { isUnitNode, loadUnitLevel, UnitTreeSelect } from '../../../components/unit-tree';

/** Add or edit a docking workstation; an added station's secret is shown once. */
export function WorkstationFormDialog(props: FormDialogTargetProps<Workstation>) {
  const { t } = useTranslation('oamcenter');
  const { modal } = App.useApp();
  const dialog = useFormDialog({
    ...props,
    schema: WorkstationAddRequest,
    initial: (ws) =>
      ws
        ? { name: ws.name, code: ws.code, unit_id: String(ws.unit_id), ip: ws.ip, remark: ws.remark }
        : { ip: '', remark: '' },
    create: async (values) => {
      const answer = await call('workstationAdd', values, { success: true });
      modal.info({
        title: t('workstation.secret.title'),
        content: (
          <>
            <p>{t('workstation.secret.once', { code: answer.workstation.code })}</p>
            <Typography.Paragraph copyable code data-testid="workstation-secret">
              {answer.secret}
            </Typography.Paragraph>
          </>
        ),
      });
    },
    update: (values, ws) => call('workstationUpdate', { id: ws.id, ...values }, { success: true }),
  });

  return (
    <FormDialog
      dialog={dialog}
      name="workstation-form"
      title={t(dialog.creating ? 'workstation.form.addTitle' : 'workstation.form.editTitle')}
      okText={t('action.save')}
      width={600}
    >
      <Form.Item name="name" label={t('workstation.field.name')} rules={dialog.rules('name')} required>
        <Input maxLength={50} />
      </Form.Item>
      <Form.Item
        name="code"
        label={t('workstation.field.code')}
        rules={dialog.rules('code')}
        required
        extra={t('workstation.form.codeHelp')}
      >
        <Input maxLength={32} />
      </Form.Item>
      <Form.Item name="unit_id" label={t('workstation.field.unit')} rules={dialog.rules('unit_id')} required>
        <UnitTreeSelect loader={loadUnitLevel} selectableNode={isUnitNode} width={520} />
      </Form.Item>
      <Form.Item name="ip" label={t('workstation.field.ip')} rules={dialog.rules('ip')}>
        <Input maxLength={64} />
      </Form.Item>
      <Form.Item name="remark" label={t('workstation.field.remark')} rules={dialog.rules('remark')}>
        <Input.TextArea maxLength={255} rows={2} />
      </Form.Item>
    </FormDialog>
  );
}
