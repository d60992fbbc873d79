import { CloseOutlined, PauseOutlined, PlayCircleOutlined, UploadOutlined } from '@ant-design/icons';
import { LANGUAGE_HEADER, UPLOAD_CHUNK_BYTES, UPLOAD_PATH } from '@bwc/protocol';
import { Alert, Button, Checkbox, Form, Input, List, Modal, Progress, Space, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as tus from 'tus-js-client';
import { currentLanguage } from '../../../i18n';
import { formatSize } from '../mediaQuery';
import { EVIDENCE_ACCEPT, checkEvidenceFile, serverMessage, uploadMetadata, type FileProblem } from './tusFile';

type EntryState = 'waiting' | 'uploading' | 'paused' | 'done' | 'failed' | 'refused';

interface Entry {
  key: string;
  file: File;
  state: EntryState;
  sent: number;
  /** refusal before sending, or the server's message */
  problem: FileProblem | null;
  message: string;
  /** continued from an earlier, interrupted upload of the same file */
  resumed: boolean;
}

export interface UploadDialogProps {
  open: boolean;
  /** files land in the outside view (/data/manage/outside) */
  outside: boolean;
  onClose: () => void;
  /** a file was stored: reload the list */
  onUploaded: () => void;
}

/** Retries of a broken connection before the file shows as failed (then "resume" tries again). */
const RETRY_DELAYS = [0, 1000, 3000, 5000];

/**
 * Upload evidence from the console: tus (resumable) to UPLOAD_PATH in UPLOAD_CHUNK_BYTES pieces,
 * one progress bar per file, pause and resume, the server's refusal in words. An upload broken
 * off (closed tab, reload) continues where it stopped when the same file is picked again:
 * tus-js-client keeps the upload address per file fingerprint in localStorage.
 */
export function UploadDialog({ open, outside, onClose, onUploaded }: UploadDialogProps) {
  const { t } = useTranslation('data');
  const [form] = Form.useForm<{ title?: string; description?: string; category?: string; outside: boolean }>();
  const [entries, setEntries] = useState<Entry[]>([]);
  const [unfinished, setUnfinished] = useState<string[]>([]);
  const uploads = useRef(new Map<string, tus.Upload>());
  const input = useRef<HTMLInputElement>(null);
  const latest = useRef({ onUploaded });
  latest.current = { onUploaded };

  const patch = (key: string, change: Partial<Entry>) =>
    setEntries((current) => current.map((e) => (e.key === key ? { ...e, ...change } : e)));

  useEffect(() => {
    if (!open) return;
    form.setFieldsValue({ outside });
    // earlier uploads that did not finish: picking the same file again continues them
    let live = true;
    const storage = tus.defaultOptions.urlStorage as Partial<tus.UrlStorage>;
    if (tus.canStoreURLs && typeof storage.findAllUploads === 'function')
      void storage
        .findAllUploads()
        .then((found) => {
          if (live) setUnfinished(found.map((u) => u.metadata.filename ?? '').filter(Boolean));
        })
        .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [open, outside, form]);

  // leaving the dialog stops the transfers; they can be resumed later
  useEffect(
    () => () => {
      for (const upload of uploads.current.values()) void upload.abort();
    },
    [],
  );

  const addFiles = (files: FileList | null) => {
    if (!files) return;
    const added: Entry[] = [...files].map((file) => {
      const problem = checkEvidenceFile(file);
      return {
        key: `${file.name}-${file.size}-${file.lastModified}-${Math.random().toString(36).slice(2)}`,
        file,
        state: problem ? 'refused' : 'waiting',
        sent: 0,
        problem,
        message: '',
        resumed: false,
      };
    });
    setEntries((current) => [...current, ...added]);
  };

  const start = async (entry: Entry) => {
    const values = form.getFieldsValue();
    const existing = uploads.current.get(entry.key);
    if (existing) {
      patch(entry.key, { state: 'uploading', message: '' });
      existing.start();
      return;
    }
    const upload = new tus.Upload(entry.file, {
      endpoint: new URL(UPLOAD_PATH, window.location.origin).href,
      chunkSize: UPLOAD_CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      metadata: uploadMetadata(entry.file, { ...values, outside: values.outside ?? outside }),
      headers: { [LANGUAGE_HEADER]: currentLanguage() },
      removeFingerprintOnSuccess: true,
      // a refusal (4xx but a lost lock or timeout) is final: retrying cannot change it
      onShouldRetry: (error) => {
        const status = error.originalResponse?.getStatus() ?? 0;
        return status === 0 || status === 409 || status === 423 || status >= 500;
      },
      onProgress: (sent) => patch(entry.key, { sent }),
      onSuccess: () => {
        patch(entry.key, { state: 'done', sent: entry.file.size });
        latest.current.onUploaded();
      },
      onError: (error) => {
        const said = serverMessage(error);
        patch(entry.key, {
          state: 'failed',
          message: said?.message || (said ? t('upload.status', { status: said.status }) : t('upload.network')),
        });
      },
    });
    uploads.current.set(entry.key, upload);
    patch(entry.key, { state: 'uploading', message: '' });
    try {
      const previous = await upload.findPreviousUploads();
      if (previous.length > 0) {
        upload.resumeFromPreviousUpload(previous[0]!);
        patch(entry.key, { resumed: true });
      }
    } catch {
      // no stored address: a new upload
    }
    upload.start();
  };

  const pause = (entry: Entry) => {
    void uploads.current.get(entry.key)?.abort();
    patch(entry.key, { state: 'paused' });
  };

  const remove = (entry: Entry) => {
    const upload = uploads.current.get(entry.key);
    // a started upload is dropped on the server too (tus termination)
    if (upload && entry.state !== 'done') void upload.abort(true).catch(() => undefined);
    uploads.current.delete(entry.key);
    setEntries((current) => current.filter((e) => e.key !== entry.key));
  };

  const startAll = () => {
    for (const entry of entries) if (entry.state === 'waiting') void start(entry);
  };

  const problemText = (problem: FileProblem) =>
    problem.kind === 'type'
      ? t('upload.badType', { ext: problem.ext || '-' })
      : problem.kind === 'size'
        ? t('upload.tooLarge', { max: problem.maxMb })
        : t('upload.empty');

  const waiting = entries.some((e) => e.state === 'waiting');
  const busy = entries.some((e) => e.state === 'uploading');

  return (
    <Modal
      open={open}
      title={t('upload.title')}
      onCancel={onClose}
      width={720}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose}>{t('upload.close')}</Button>
          <Button type="primary" disabled={!waiting} onClick={startAll} data-testid="upload-start">
            {t('upload.start')}
          </Button>
        </Space>
      }
    >
      <div data-testid="upload-dialog">
        <Form form={form} layout="vertical" disabled={busy} initialValues={{ outside }}>
          <Form.Item name="title" label={t('upload.fieldTitle')} extra={t('upload.titleHint')}>
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item name="category" label={t('field.category')}>
            <Input maxLength={40} />
          </Form.Item>
          <Form.Item name="description" label={t('field.description')}>
            <Input.TextArea maxLength={2000} autoSize={{ minRows: 2, maxRows: 4 }} />
          </Form.Item>
          <Form.Item name="outside" valuePropName="checked">
            <Checkbox>{t('upload.outside')}</Checkbox>
          </Form.Item>
        </Form>
        <input
          ref={input}
          type="file"
          multiple
          accept={EVIDENCE_ACCEPT}
          hidden
          data-testid="upload-input"
          onChange={(event) => {
            addFiles(event.target.files);
            event.target.value = '';
          }}
        />
        <Space direction="vertical" style={{ width: '100%' }}>
          <Button icon={<UploadOutlined />} onClick={() => input.current?.click()} data-testid="upload-pick">
            {t('upload.pick')}
          </Button>
          <Typography.Text type="secondary">{t('upload.accepted', { exts: EVIDENCE_ACCEPT })}</Typography.Text>
          {unfinished.length > 0 && (
            <Alert
              type="info"
              showIcon
              data-testid="upload-unfinished"
              message={t('upload.unfinished', { names: unfinished.join(', ') })}
            />
          )}
          <List
            dataSource={entries}
            locale={{ emptyText: t('upload.noFiles') }}
            renderItem={(entry) => {
              const percent = entry.file.size > 0 ? Math.floor((entry.sent / entry.file.size) * 100) : 0;
              return (
                <List.Item
                  data-testid="upload-entry"
                  actions={[
                    entry.state === 'uploading' && (
                      <Button key="pause" size="small" icon={<PauseOutlined />} onClick={() => pause(entry)}>
                        {t('upload.pause')}
                      </Button>
                    ),
                    (entry.state === 'paused' || entry.state === 'failed') && (
                      <Button key="resume" size="small" icon={<PlayCircleOutlined />} onClick={() => void start(entry)}>
                        {t('upload.resume')}
                      </Button>
                    ),
                    entry.state !== 'uploading' && (
                      <Button
                        key="remove"
                        size="small"
                        type="text"
                        aria-label={t('upload.remove')}
                        icon={<CloseOutlined />}
                        onClick={() => remove(entry)}
                      />
                    ),
                  ].filter(Boolean)}
                >
                  <div className="bwc-data-upload-entry">
                    <Typography.Text ellipsis title={entry.file.name}>
                      {entry.file.name}
                    </Typography.Text>
                    <Typography.Text type="secondary"> {formatSize(entry.file.size)}</Typography.Text>
                    {entry.state !== 'refused' && (
                      <Progress
                        percent={percent}
                        size="small"
                        status={
                          entry.state === 'failed'
                            ? 'exception'
                            : entry.state === 'done'
                              ? 'success'
                              : entry.state === 'uploading'
                                ? 'active'
                                : 'normal'
                        }
                      />
                    )}
                    {entry.resumed && entry.state !== 'done' && (
                      <Typography.Text type="secondary">{t('upload.resumed')}</Typography.Text>
                    )}
                    {entry.state === 'paused' && <Typography.Text type="secondary">{t('upload.paused')}</Typography.Text>}
                    {entry.state === 'done' && <Typography.Text type="success">{t('upload.done')}</Typography.Text>}
                    {entry.problem && (
                      <Typography.Text type="danger" data-testid="upload-problem">
                        {problemText(entry.problem)}
                      </Typography.Text>
                    )}
                    {entry.state === 'failed' && (
                      <Typography.Text type="danger" data-testid="upload-error">
                        {entry.message}
                      </Typography.Text>
                    )}
                  </div>
                </List.Item>
              );
            }}
          />
        </Space>
      </div>
    </Modal>
  );
}
