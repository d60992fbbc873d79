import { DownloadAddFields, type DownloadEntry } from '@bwc/protocol';
import { Form, Input, Modal, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { upload } from '../../../api/http';
import { validateWith, zodRules } from '../../../app/forms/zodRules';
import { FilePicker, fileRules } from '../upload/FilePicker';
import { DOWNLOAD_UPLOAD } from '../upload/uploadCheck';
import { flagSwitchProps } from '../settings/SettingsCard';

interface DownloadFormDialogProps {
  /** 'new' to add, a row to edit, null when closed */
  editing: DownloadEntry | 'new' | null;
  onClose: () => void;
  onSaved: () => void;
}

type FormValues = DownloadAddFields & { file?: File | null };

const rules = zodRules(DownloadAddFields);

/**
 * Add (file required) or edit (new file optional) one download entry. The file is checked for
 * type and size before it is sent, then uploaded with progress.
 */
export function DownloadFormDialog({ editing, onClose, onSaved }: DownloadFormDialogProps) {
  const { t } = useTranslation('system');
  const [form] = Form.useForm<FormValues>();
  const [progress, setProgress] = useState<number | undefined>();
  const row = editing && editing !== 'new' ? editing : null;

  useEffect(() => {
    if (!editing) return;
    form.resetFields();
    form.setFieldsValue(
      row
        ? { name: row.name, version: row.version, description: row.description, is_index: row.is_index, file: null }
        : { name: '', version: '', description: '', is_index: 0, file: null },
    );
  }, [editing, row, form]);

  const submit = async () => {
    const values = await validateWith(form, DownloadAddFields);
    const file = form.getFieldValue('file') as File | null | undefined;
    setProgress(0);
    try {
      const payload = { ...values, ...(file ? { file } : {}) };
      if (row) await upload('downloadUpdate', { id: row.id, ...payload }, { onProgress: setProgress, success: true });
      else await upload('downloadAdd', payload, { onProgress: setProgress, success: true });
      onSaved();
    } finally {
      setProgress(undefined);
    }
  };

  const busy = progress !== undefined;
  return (
    <Modal
      open={editing !== null}
      title={t(row ? 'download.form.editTitle' : 'download.form.addTitle')}
      onCancel={busy ? undefined : onClose}
      onOk={() => void submit().catch(() => undefined)}
      okText={t('download.form.save')}
      confirmLoading={busy}
      cancelButtonProps={{ disabled: busy }}
      closable={!busy}
      maskClosable={!busy}
      width={640}
      // the form stays mounted so that it can be filled before the dialog shows
      forceRender
    >
      <Form form={form} layout="vertical" disabled={busy}>
        <Form.Item name="name" label={t('download.form.name')} rules={rules('name')} required>
          <Input count={{ show: true, max: 100 }} />
        </Form.Item>
        <Form.Item name="version" label={t('download.form.version')} rules={rules('version')}>
          <Input style={{ maxWidth: 240 }} />
        </Form.Item>
        <Form.Item name="description" label={t('download.form.description')} rules={rules('description')}>
          <Input.TextArea rows={3} count={{ show: true, max: 500 }} />
        </Form.Item>
        <Form.Item name="is_index" label={t('download.form.is_index')} {...flagSwitchProps}>
          <Switch />
        </Form.Item>
        <Form.Item
          name="file"
          label={t('download.form.file')}
          rules={fileRules(DOWNLOAD_UPLOAD, !row)}
          required={!row}
          extra={row ? t('download.form.keepFile') : undefined}
        >
          <FilePicker rule={DOWNLOAD_UPLOAD} progress={progress} currentName={row?.file_name} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
