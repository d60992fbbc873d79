import { DownloadAddFields, type DownloadEntry } from '@bwc/protocol';
import { Form, Input, Switch, type FormInstance } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { upload } from '../../../api/http';
import { flagSwitchProps } from '../../../app/forms/flagSwitch';
import { FormDialog, useFormDialog, type FormDialogTargetProps } from '../../../components/form-dialog';
import { FilePicker, fileRules } from '../upload/FilePicker';
import { DOWNLOAD_UPLOAD } from '../upload/uploadCheck';

/**
 * Add (file required) or edit (new file optional) one download entry. The file is checked for
 * type and size before it is sent, then uploaded with progress; the upload cannot be cancelled.
 */
export function DownloadFormDialog(props: FormDialogTargetProps<DownloadEntry>) {
  const { t } = useTranslation('system');
  const [progress, setProgress] = useState<number | undefined>();
  /** multipart with the chosen file, if any (editing keeps the stored file otherwise), with progress */
  const send = (endpoint: 'downloadAdd' | 'downloadUpdate', fields: Record<string, unknown>, form: FormInstance) => {
    const file = form.getFieldValue('file') as File | null | undefined;
    setProgress(0);
    return upload(
      endpoint,
      { ...fields, ...(file ? { file } : {}) },
      { onProgress: setProgress, success: true },
    ).finally(() => setProgress(undefined));
  };
  const dialog = useFormDialog({
    ...props,
    schema: DownloadAddFields,
    defaults: { name: '', version: '', description: '', is_index: 0 },
    create: (values, form) => send('downloadAdd', values, form),
    update: (values, row, form) => send('downloadUpdate', { id: row.id, ...values }, form),
  });
  const row = dialog.row;

  return (
    <FormDialog
      dialog={dialog}
      title={t(dialog.creating ? 'download.form.addTitle' : 'download.form.editTitle')}
      okText={t('download.form.save')}
      width={640}
      lockWhileBusy
    >
      <Form.Item name="name" label={t('download.form.name')} rules={dialog.rules('name')} required>
        <Input count={{ show: true, max: 100 }} />
      </Form.Item>
      <Form.Item name="version" label={t('download.form.version')} rules={dialog.rules('version')}>
        <Input style={{ maxWidth: 240 }} />
      </Form.Item>
      <Form.Item name="description" label={t('download.form.description')} rules={dialog.rules('description')}>
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
    </FormDialog>
  );
}
