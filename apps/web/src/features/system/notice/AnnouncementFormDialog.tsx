import { ANNOUNCE_CONTENT_MAX, ANNOUNCE_TITLE_MAX, AnnounceAddRequest, type Announcement } from '@bwc/protocol';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { FormDialog, useFormDialog, type FormDialogTargetProps } from '../../../components/form-dialog';

/** Add or edit one announcement; editing loads the stored text first (update_get). */
export function AnnouncementFormDialog(props: FormDialogTargetProps<Announcement>) {
  const { t } = useTranslation('system');
  const dialog = useFormDialog({
    ...props,
    schema: AnnounceAddRequest,
    initial: async (row, signal) => {
      if (!row) return {};
      const stored = await call('announceUpdateGet', { id: row.id }, { signal });
      return { title: stored.title, content: stored.content };
    },
    create: (values) => call('announceAdd', values, { success: true }),
    update: (values, row) => call('announceUpdatePost', { id: row.id, ...values }, { success: true }),
  });
  return (
    <FormDialog
      dialog={dialog}
      title={t(dialog.creating ? 'notice.form.addTitle' : 'notice.form.editTitle')}
      okText={t('notice.form.save')}
      width={720}
    >
      <Form.Item name="title" label={t('notice.form.title')} rules={dialog.rules('title')} required>
        <Input count={{ show: true, max: ANNOUNCE_TITLE_MAX }} />
      </Form.Item>
      <Form.Item name="content" label={t('notice.form.content')} rules={dialog.rules('content')} required>
        <Input.TextArea rows={10} count={{ show: true, max: ANNOUNCE_CONTENT_MAX }} />
      </Form.Item>
    </FormDialog>
  );
}
