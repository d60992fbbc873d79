import { SensitiveWordAddRequest, type SensitiveWord } from '@bwc/protocol';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { FormDialog, useFormDialog, type FormDialogTargetProps } from '../../../components/form-dialog';

/** Add a sensitive word or change one. */
export function SensitiveWordDialog(props: FormDialogTargetProps<SensitiveWord>) {
  const { t } = useTranslation('retention');
  const dialog = useFormDialog({
    ...props,
    schema: SensitiveWordAddRequest,
    defaults: { word: '' },
    create: (values) => call('sensitiveWordAdd', values, { success: true }),
    update: (values, row) => call('sensitiveWordEdit', { id: row.id, ...values }, { success: true }),
  });
  return (
    <FormDialog
      dialog={dialog}
      name="sensitive-word-form"
      title={t(dialog.creating ? 'words.addTitle' : 'words.editTitle')}
      okText={t('action.save')}
    >
      <Form.Item name="word" label={t('words.word')} rules={dialog.rules('word')} required extra={t('words.wordHelp')}>
        <Input maxLength={64} />
      </Form.Item>
    </FormDialog>
  );
}
