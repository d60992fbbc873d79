import { PaperClipOutlined, UploadOutlined } from '@ant-design/icons';
import type { FormRule } from 'antd';
import { Button, Progress, Space, Typography, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { translateKey } from '../../../i18n';
import { acceptOf, checkUpload, formatFileSize, type UploadRule } from './uploadCheck';

interface FilePickerProps {
  rule: UploadRule;
  value?: File | null;
  onChange?: (file: File | null) => void;
  disabled?: boolean;
  /** upload progress 0..100 while sending, undefined otherwise */
  progress?: number;
  /** what is stored now (edit forms): shown until another file is chosen */
  currentName?: string;
}

/**
 * Chooses one file without sending it: the form validates it with `fileRules` (type and size,
 * before any byte leaves the browser) and the page uploads it with progress.
 */
export function FilePicker({ rule, value, onChange, disabled, progress, currentName }: FilePickerProps) {
  const { t } = useTranslation('system');
  const shown = value ? `${value.name} (${formatFileSize(value.size)})` : currentName;
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <Upload
          accept={acceptOf(rule)}
          showUploadList={false}
          maxCount={1}
          disabled={disabled}
          beforeUpload={(file) => {
            onChange?.(file);
            return Upload.LIST_IGNORE;
          }}
        >
          <Button icon={<UploadOutlined />} disabled={disabled}>
            {t(value || currentName ? 'upload.change' : 'upload.choose')}
          </Button>
        </Upload>
        {shown && (
          <Typography.Text data-testid="chosen-file">
            <PaperClipOutlined /> {shown}
          </Typography.Text>
        )}
      </Space>
      <Typography.Text type="secondary">
        {t('upload.hint', { types: rule.extensions.join(', '), mb: rule.maxMb })}
      </Typography.Text>
      {progress !== undefined && <Progress percent={progress} size="small" status="active" />}
    </Space>
  );
}

/** Form rules of a file field: required (unless a file is already stored), type and size. */
export function fileRules(rule: UploadRule, required: boolean): FormRule[] {
  return [
    {
      validator: async (_rule, value: File | null | undefined) => {
        if (!value && !required) return;
        const problem = checkUpload(value, rule);
        if (problem) throw new Error(translateKey(problem.key, problem.params));
      },
    },
  ];
}
