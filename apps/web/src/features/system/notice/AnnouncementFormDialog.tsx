import { ANNOUNCE_CONTENT_MAX, ANNOUNCE_TITLE_MAX, AnnounceAddRequest, type Announcement } from '@bwc/protocol';
import { Form, Input, Modal, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { validateWith, zodRules } from '../../../app/forms/zodRules';

interface AnnouncementFormDialogProps {
  /** 'new' to add, a row to edit, null when closed */
  editing: Announcement | 'new' | null;
  onClose: () => void;
  onSaved: () => void;
}

const rules = zodRules(AnnounceAddRequest);

/** Add or edit one announcement; editing loads the stored text first (update_get). */
export function AnnouncementFormDialog({ editing, onClose, onSaved }: AnnouncementFormDialogProps) {
  const { t } = useTranslation('system');
  const [form] = Form.useForm<AnnounceAddRequest>();
  const [loading, setLoading] = useState(false);
  const [saving, setSaving] = useState(false);
  const id = editing && editing !== 'new' ? editing.id : null;
  // the parent's callback may change on every render; loading must not restart because of it
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    if (!editing) return;
    form.resetFields();
    if (id === null) return;
    const controller = new AbortController();
    setLoading(true);
    call('announceUpdateGet', { id }, { signal: controller.signal })
      .then((row) => form.setFieldsValue({ title: row.title, content: row.content }))
      .catch(() => (controller.signal.aborted ? undefined : closeRef.current()))
      .finally(() => setLoading(false));
    return () => controller.abort();
  }, [editing, id, form]);

  const submit = async () => {
    const values = await validateWith(form, AnnounceAddRequest);
    setSaving(true);
    try {
      if (id === null) await call('announceAdd', values, { success: true });
      else await call('announceUpdatePost', { id, ...values }, { success: true });
      onSaved();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={editing !== null}
      title={t(id === null ? 'notice.form.addTitle' : 'notice.form.editTitle')}
      onCancel={onClose}
      onOk={() => void submit().catch(() => undefined)}
      okText={t('notice.form.save')}
      confirmLoading={saving}
      okButtonProps={{ disabled: loading }}
      width={720}
      // the form stays mounted so that it can be filled before the dialog shows
      forceRender
    >
      <Spin spinning={loading}>
        <Form form={form} layout="vertical" disabled={saving || loading}>
          <Form.Item name="title" label={t('notice.form.title')} rules={rules('title')} required>
            <Input count={{ show: true, max: ANNOUNCE_TITLE_MAX }} />
          </Form.Item>
          <Form.Item name="content" label={t('notice.form.content')} rules={rules('content')} required>
            <Input.TextArea rows={10} count={{ show: true, max: ANNOUNCE_CONTENT_MAX }} />
          </Form.Item>
        </Form>
      </Spin>
    </Modal>
  );
}
