import { MenuId, Routes } from '@bwc/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Popconfirm, Skeleton, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { upload } from '../../../api/http';
import { usePermission } from '../../../app/session/Permission';
import { sessionKeys } from '../../../app/session/queries';
import { translateKey } from '../../../i18n';
import { FilePicker } from '../upload/FilePicker';
import { BACKGROUND_UPLOAD, checkUpload } from '../upload/uploadCheck';
import { settingsKeys, useSaveSettings, useSettings } from './useSettings';
import './settings.css';

/**
 * /system/systemset/backset: the login background. The image is checked (type, size) before it
 * is sent, uploaded with progress, and previewed from the public background address.
 */
export function BackSetPage() {
  const { t } = useTranslation('system');
  const client = useQueryClient();
  const query = useSettings('backset');
  const save = useSaveSettings('backset');
  const canEdit = usePermission(MenuId.SYSTEM_SETTINGS, 'edit');
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | undefined>();
  const [previewFailed, setPreviewFailed] = useState(false);
  const problem = file ? checkUpload(file, BACKGROUND_UPLOAD) : null;
  const path = query.data?.background_path ?? '';

  const send = async () => {
    if (!file || problem) return;
    setProgress(0);
    try {
      await upload('uploadBackground', { file }, { onProgress: setProgress, success: true });
      setFile(null);
      setPreviewFailed(false);
      await Promise.all([
        client.invalidateQueries({ queryKey: settingsKeys.type('backset') }),
        client.invalidateQueries({ queryKey: sessionKeys.pageInfo }),
      ]);
    } catch {
      // the http layer has shown the server's message
    } finally {
      setProgress(undefined);
    }
  };

  const restoreDefault = async () => {
    await save.mutateAsync({ background_path: '' }).catch(() => undefined);
  };

  return (
    <Card title={t('backset.title')} className="settings-card">
      <p className="settings-description">{t('backset.description')}</p>
      {!canEdit && <Alert type="info" showIcon message={t('settings.readOnly')} style={{ marginBottom: 16 }} />}
      <Typography.Title level={5}>{t('backset.current')}</Typography.Title>
      {query.isPending ? (
        <Skeleton.Image active style={{ width: 320, height: 180 }} />
      ) : path && !previewFailed ? (
        <img
          key={query.dataUpdatedAt}
          className="settings-preview"
          src={`${Routes.background.path}?v=${encodeURIComponent(path)}`}
          alt={t('backset.previewAlt')}
          onError={() => setPreviewFailed(true)}
          data-testid="background-preview"
        />
      ) : (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t(previewFailed ? 'backset.previewFailed' : 'backset.usingDefault')}
        />
      )}
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('backset.upload')}
      </Typography.Title>
      <Space direction="vertical" style={{ width: '100%' }}>
        <FilePicker
          rule={BACKGROUND_UPLOAD}
          value={file}
          onChange={setFile}
          disabled={!canEdit || progress !== undefined}
          progress={progress}
        />
        {problem && (
          <Alert
            type="error"
            showIcon
            message={translateKey(problem.key, problem.params)}
            data-testid="upload-problem"
          />
        )}
        <Space>
          <Button
            type="primary"
            disabled={!canEdit || !file || !!problem}
            loading={progress !== undefined}
            onClick={() => void send()}
          >
            {t('backset.send')}
          </Button>
          <Popconfirm
            title={t('backset.restoreConfirm')}
            onConfirm={() => void restoreDefault()}
            disabled={!canEdit || !path}
          >
            <Button disabled={!canEdit || !path} loading={save.isPending}>
              {t('backset.restore')}
            </Button>
          </Popconfirm>
        </Space>
      </Space>
    </Card>
  );
}
