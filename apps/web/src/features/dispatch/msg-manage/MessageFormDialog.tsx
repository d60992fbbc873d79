import { MESSAGE_CONTENT_MAX, MESSAGE_TITLE_MAX, MessageAddRequest, type PushMessage } from '@bwc/protocol';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { FormDialog, useFormDialog, type FormDialogTargetProps } from '../../../components/form-dialog';

/** Add or edit one message; editing loads the stored text first (gismessage/edit). */
export function MessageFormDialog(props: FormDialogTargetProps<PushMessage>) {
  const { t } = useTranslation('msgpush');
  const dialog = useFormDialog({
    ...props,
    schema: MessageAddRequest,
    initial: async (row, signal) => {
      if (!row) return {};
      const stored = await call('messEdit', { id: row.id }, { signal });
      return { title: stored.title, content: stored.content };
    },
    create: (values) => call('messAdd', values, { success: true }),
    update: (values, row) => call('messSaveEdit', { id: row.id, ...values }, { success: true }),
  });
  return (
    <FormDialog
      dialog={dialog}
      name="message"
      title={t(dialog.creating ? 'form.addTitle' : 'form.editTitle')}
      okText={t('form.save')}
      width={640}
    >
      <Form.Item name="title" label={t('form.title')} rules={dialog.rules('title')} required>
        <Input count={{ show: true, max: MESSAGE_TITLE_MAX }} />
      </Form.Item>
      <Form.Item name="content" label={t('form.content')} rules={dialog.rules('content')} required>
        <Input.TextArea rows={6} count={{ show: true, max: MESSAGE_CONTENT_MAX }} />
      </Form.Item>
    </FormDialog>
  );
}
