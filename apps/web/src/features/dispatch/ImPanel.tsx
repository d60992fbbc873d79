import {
  AudioOutlined,
  CloseOutlined,
  DownloadOutlined,
  LeftOutlined,
  PaperClipOutlined,
  SendOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { ImTargetType, ImType, type ImMessage } from '@bwc/protocol';
import { App, Badge, Button, Empty, Input, List, Progress, Typography } from 'antd';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { ImFileError, type Conversation, type ImStore } from '../../realtime/im/ImStore';
import { type RecorderError, useVoiceRecorder, VOICE_NOTE_MAX_S, type VoiceNote } from './useVoiceRecorder';

interface Props {
  store: ImStore;
  /** the dispatcher's uid on the console service (its messages are shown as its own) */
  me: number;
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function useName() {
  const { t } = useTranslation('dispatch');
  return (c: Conversation) =>
    c.target_type === ImTargetType.GROUP
      ? t('im.group', { name: c.name || String(c.target) })
      : c.name || t('im.unnamed', { id: c.target });
}

/** One line of a message for the conversation list. */
function usePreview() {
  const { t } = useTranslation('dispatch');
  return (m: ImMessage | undefined) => {
    if (!m) return '';
    if (m.im_type === ImType.IMAGE) return t('im.image');
    if (m.im_type === ImType.VOICE) return t('im.voice');
    if (m.im_type === ImType.FILE) return t('im.file', { name: m.filename });
    return m.content;
  };
}

const recorderSeconds = (state: { kind: string; seconds?: number }) => state.seconds ?? 0;

function MessageBody({ m, store }: { m: ImMessage; store: ImStore }) {
  const { t } = useTranslation('dispatch');
  const ourl = store.fileUrl(m.ourl);
  if (m.im_type === ImType.IMAGE)
    return (
      <a href={ourl} target="_blank" rel="noreferrer">
        <img
          className="bwc-im-image"
          src={m.surl ? store.fileUrl(m.surl) : ourl}
          alt={m.filename}
          data-testid="im-image"
        />
      </a>
    );
  if (m.im_type === ImType.VOICE) return <audio controls src={ourl} data-testid="im-voice" />;
  if (m.im_type === ImType.FILE)
    return (
      <a href={ourl} download={m.filename} data-testid="im-file">
        <DownloadOutlined /> {t('im.download', { name: m.filename, size: sizeText(m.size) })}
      </a>
    );
  return <span className="bwc-im-text">{m.content}</span>;
}

/**
 * Messages tab of the emergency screen: the conversations with terminals and
 * groups, their unread counts, and the open one's messages with a text box. Messages come live
 * from the console service (notice_im); opening a conversation lists and marks it read.
 */
export function ImPanel({ store, me }: Props) {
  const { t } = useTranslation('dispatch');
  const { message } = App.useApp();
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const name = useName();
  const preview = usePreview();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [loading, setLoading] = useState(false);
  const [upload, setUpload] = useState<{ name: string; done: number } | null>(null);
  const picker = useRef<HTMLInputElement | null>(null);
  const bottom = useRef<HTMLDivElement | null>(null);
  const open = snapshot.open;
  const newest = open?.messages.at(-1)?.msg_id;

  useEffect(() => {
    bottom.current?.scrollIntoView?.({ block: 'end' });
  }, [newest, open?.key]);

  const run = async (work: () => Promise<void>, failed: string) => {
    try {
      await work();
    } catch (error) {
      if (error instanceof ImFileError) void message.error(t(error.key, error.values));
      else void message.error(t(failed, { reason: reasonOf(error) }));
    }
  };

  const sendFile = (file: Blob & { name: string }, voice = false) => {
    setUpload({ name: file.name, done: 0 });
    void run(
      () => store.sendFile(file, (done) => setUpload({ name: file.name, done }), voice ? ImType.VOICE : undefined),
      'im.sendFailed',
    ).finally(() => setUpload(null));
  };
  const recorder = useVoiceRecorder(
    (note: VoiceNote) => sendFile(Object.assign(note.blob, { name: note.name }), true),
    (error: RecorderError) => void message.error(t(error.key, error.values)),
  );
  const recording = recorder.state.kind !== 'idle';
  // another conversation (or the list): a recording under way is dropped
  const { cancel: cancelRecording } = recorder;
  useEffect(() => cancelRecording, [open?.key, cancelRecording]);

  if (!open) {
    if (snapshot.conversations.length === 0)
      return <Empty className="bwc-im-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('im.empty')} />;
    return (
      <List
        className="bwc-im-list"
        data-testid="im-conversations"
        size="small"
        dataSource={snapshot.conversations}
        renderItem={(c) => (
          <List.Item
            key={c.key}
            className="bwc-im-conversation"
            data-testid="im-conversation"
            data-key={c.key}
            onClick={() => void run(() => store.open(c.target, c.target_type), 'im.loadFailed')}
          >
            <List.Item.Meta
              avatar={c.target_type === ImTargetType.GROUP ? <TeamOutlined /> : <UserOutlined />}
              title={name(c)}
              description={<span className="bwc-im-preview">{preview(c.messages.at(-1))}</span>}
            />
            <span data-testid="im-unread" data-count={c.unread}>
              <Badge count={c.unread} title={t('im.unread', { count: c.unread })} />
            </span>
          </List.Item>
        )}
      />
    );
  }

  const send = () => {
    const content = text.trim();
    if (!content || sending) return;
    setSending(true);
    void run(async () => {
      await store.sendText(content);
      setText('');
    }, 'im.sendFailed').finally(() => setSending(false));
  };

  return (
    <div className="bwc-im-open" data-testid="im-open" data-key={open.key}>
      <div className="bwc-im-header">
        <Button
          size="small"
          type="text"
          icon={<LeftOutlined />}
          aria-label={t('im.back')}
          onClick={() => store.close()}
        />
        <Typography.Text strong ellipsis>
          {name(open)}
        </Typography.Text>
      </div>
      <div className="bwc-im-messages" data-testid="im-messages">
        {open.total !== null && open.total > open.messages.length && (
          <Button
            size="small"
            type="link"
            loading={loading}
            onClick={() => {
              setLoading(true);
              void run(() => store.loadOlder(), 'im.loadFailed').finally(() => setLoading(false));
            }}
          >
            {t('im.loadOlder')}
          </Button>
        )}
        {open.messages.length === 0 && open.total !== null && (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('im.noMessages')} />
        )}
        {open.messages.map((m) => {
          const mine = m.from === me;
          return (
            <div
              key={m.msg_id}
              className={`bwc-im-message${mine ? ' bwc-im-mine' : ''}`}
              data-testid="im-message"
              data-mine={mine ? 1 : 0}
            >
              <div className="bwc-im-meta">
                {mine ? t('im.me') : m.from_name} · {new Date(m.time).toLocaleString()}
              </div>
              <div className="bwc-im-bubble">
                <MessageBody m={m} store={store} />
              </div>
            </div>
          );
        })}
        <div ref={bottom} />
      </div>
      {upload && (
        <div className="bwc-im-upload" data-testid="im-upload">
          <Typography.Text ellipsis>{t('im.uploading', { name: upload.name })}</Typography.Text>
          <Progress percent={Math.round(upload.done * 100)} size="small" />
        </div>
      )}
      <div className="bwc-im-compose">
        <input
          ref={picker}
          type="file"
          hidden
          data-testid="im-file-input"
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) sendFile(file);
          }}
        />
        <Button
          icon={<PaperClipOutlined />}
          aria-label={t('im.attach')}
          title={t('im.attach')}
          disabled={upload !== null || recording}
          onClick={() => picker.current?.click()}
        />
        {recording ? (
          <>
            <div className="bwc-im-recording" data-testid="im-recording" data-seconds={recorderSeconds(recorder.state)}>
              <span className="bwc-im-recording-dot" />
              {t('im.recording', { seconds: recorderSeconds(recorder.state), max: VOICE_NOTE_MAX_S })}
            </div>
            <Button
              icon={<CloseOutlined />}
              aria-label={t('im.recordCancel')}
              title={t('im.recordCancel')}
              data-testid="im-record-cancel"
              onClick={recorder.cancel}
            />
            <Button
              type="primary"
              icon={<SendOutlined />}
              disabled={recorder.state.kind !== 'recording'}
              data-testid="im-record-send"
              onClick={recorder.finish}
            >
              {t('im.recordSend')}
            </Button>
          </>
        ) : (
          <>
            <Button
              icon={<AudioOutlined />}
              aria-label={t('im.record')}
              title={t('im.record')}
              disabled={upload !== null}
              data-testid="im-record"
              onClick={() => void recorder.start()}
            />
            <Input.TextArea
              value={text}
              autoSize={{ minRows: 1, maxRows: 4 }}
              placeholder={t('im.placeholder')}
              aria-label={t('im.placeholder')}
              data-testid="im-input"
              onChange={(e) => setText(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !e.shiftKey) {
                  e.preventDefault();
                  send();
                }
              }}
            />
            <Button type="primary" loading={sending} disabled={!text.trim()} onClick={send} data-testid="im-send">
              {t('im.send')}
            </Button>
          </>
        )}
      </div>
    </div>
  );
}
