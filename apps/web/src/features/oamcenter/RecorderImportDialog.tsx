import { DEVICE_IMPORT_COLUMNS, MB, UPLOAD_LIMIT_MB, type DeviceImportResult } from '@bwc/protocol';
import { InboxOutlined } from '@ant-design/icons';
import { Alert, App, Button, Modal, Progress, Table, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { download, upload } from '../../api/http';
import { UnitTreeSelect } from '../../components/unit-tree';
import { keysOf } from '../../i18n/keys';
import { isUnitNode, loadUnitLevel } from '../../components/unit-tree';

interface Props {
  open: boolean;
  onClose: () => void;
  onImported: () => void;
}

const PROBLEM_LABELS = keysOf('oamcenter', { type: 'recorder.import.type', size: 'recorder.import.size' });

/** Whether a file may be sent: .xlsx (or .xls, which the server asks to save as .xlsx) within the size limit. */
export function importFileProblem(file: { name: string; size: number }): 'type' | 'size' | null {
  if (!/\.xlsx?$/i.test(file.name)) return 'type';
  if (file.size > UPLOAD_LIMIT_MB.excelImport * MB) return 'size';
  return null;
}

/** Import devices from a workbook: per-row error report, secrets of the created devices. */
export function RecorderImportDialog({ open, onClose, onImported }: Props) {
  const { t, i18n } = useTranslation('oamcenter');
  const { message } = App.useApp();
  const [unit, setUnit] = useState<string | undefined>();
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<DeviceImportResult | null>(null);
  const zh = i18n.language.startsWith('zh');

  const send = async (file: File) => {
    const problem = importFileProblem(file);
    if (problem) {
      message.error(t(PROBLEM_LABELS[problem], { mb: UPLOAD_LIMIT_MB.excelImport }));
      return;
    }
    setResult(null);
    setProgress(0);
    try {
      const answer = await upload(
        'deviceImport',
        { file, ...(unit ? { unit_id: unit } : {}) },
        { onProgress: setProgress },
      );
      setResult(answer);
      if (answer.created > 0) onImported();
    } finally {
      setProgress(null);
    }
  };

  return (
    <Modal
      open={open}
      title={t('recorder.import.title')}
      onCancel={() => {
        setResult(null);
        onClose();
      }}
      footer={null}
      width={720}
      destroyOnHidden
    >
      <p>
        {t('recorder.import.columns', {
          columns: DEVICE_IMPORT_COLUMNS.map((c) => (zh ? c.zh : c.key)).join(zh ? '、' : ', '),
        })}
      </p>
      <Button
        type="link"
        style={{ paddingInline: 0 }}
        onClick={() => void download('deviceImportTemplate').catch(() => undefined)}
      >
        {t('recorder.import.template')}
      </Button>
      <div style={{ marginBottom: 12 }}>
        <span style={{ marginInlineEnd: 8 }}>{t('recorder.import.defaultUnit')}</span>
        <UnitTreeSelect
          loader={loadUnitLevel}
          selectableNode={isUnitNode}
          value={unit}
          onChange={(v) => setUnit(typeof v === 'string' ? v : undefined)}
          width={300}
        />
      </div>
      <Upload.Dragger
        accept=".xlsx,.xls"
        showUploadList={false}
        disabled={progress !== null}
        beforeUpload={(file) => {
          void send(file).catch(() => undefined);
          return false;
        }}
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p>{t('recorder.import.drop', { mb: UPLOAD_LIMIT_MB.excelImport })}</p>
      </Upload.Dragger>
      {progress !== null && <Progress percent={progress} />}
      {result && (
        <div data-testid="import-result" style={{ marginTop: 12 }}>
          <Alert
            type={result.failed > 0 ? 'warning' : 'success'}
            showIcon
            message={t('recorder.import.summary', {
              total: result.total,
              created: result.created,
              failed: result.failed,
            })}
          />
          {result.errors.length > 0 && (
            <Table
              style={{ marginTop: 8 }}
              size="small"
              bordered
              rowKey={(row) => `${row.row}-${row.field}`}
              dataSource={result.errors}
              pagination={result.errors.length > 10 ? { pageSize: 10 } : false}
              columns={[
                { title: t('recorder.import.row'), dataIndex: 'row', key: 'row', width: 80 },
                { title: t('recorder.import.field'), dataIndex: 'field', key: 'field', width: 140 },
                { title: t('recorder.import.msg'), dataIndex: 'msg', key: 'msg' },
              ]}
            />
          )}
          {result.secrets.length > 0 && (
            <>
              <p style={{ marginTop: 8 }}>{t('recorder.import.secrets')}</p>
              <Table
                size="small"
                bordered
                rowKey="id"
                dataSource={result.secrets}
                pagination={result.secrets.length > 10 ? { pageSize: 10 } : false}
                columns={[
                  { title: t('recorder.field.hostbody'), dataIndex: 'hostbody', key: 'hostbody' },
                  { title: t('recorder.secret.column'), dataIndex: 'secret', key: 'secret' },
                ]}
              />
            </>
          )}
        </div>
      )}
    </Modal>
  );
}
