import { DownloadOutlined, EditOutlined, FlagFilled, FlagOutlined } from '@ant-design/icons';
import type { MediaItem, PlaybackInfo } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Modal, Result, Segmented, Space, Spin, Typography } from 'antd';
import dayjs from 'dayjs';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { PLAYBACK_RATES, formatDuration } from '../data/mediaQuery';

/** A signed download address as mediadown / media_down answer it. */
interface SignedDownload {
  url: string;
  file_name: string;
}

/** The calls of one door to history replay (monitor: videoreplay; dispatch: gis/playback, gis/mediafile). */
export interface ReplayCalls {
  /** query key prefix, so the two doors never share a signed address */
  key: string;
  info: (id: number, signal?: AbortSignal) => Promise<PlaybackInfo>;
  /** null without the edit right */
  flag: ((id: number, flg: 0 | 1) => Promise<MediaItem>) | null;
  download: (id: number) => Promise<SignedDownload>;
  /** title / description revision with a reason (videoreplay saveinfo); null where the door has none or without edit */
  revise: ((id: number, values: ReviseValues) => Promise<MediaItem>) | null;
}

export interface ReviseValues {
  title: string;
  description: string;
  reason: string;
}

export const monitorCalls = (canEdit: boolean): ReplayCalls => ({
  key: 'videoreplay',
  info: (id, signal) => call('replayInfo', { id }, { signal }),
  flag: canEdit ? (id, flg) => call('replaySave', { id, flg }) : null,
  download: (id) => call('replayDownload', { id }),
  revise: canEdit ? (id, values) => call('replaySave', { id, ...values }) : null,
});

export const dispatchCalls = (canEdit: boolean): ReplayCalls => ({
  key: 'gisplayback',
  info: (id, signal) => call('playbackInfo', { id }, { signal }),
  flag: canEdit ? (id, flg) => call('playbackFlag', { id, flg }) : null,
  download: (id) => call('mediafileDownload', { id }),
  revise: null,
});

/** Save a signed download address (the server names the file). */
function save(answer: SignedDownload) {
  const a = document.createElement('a');
  a.href = answer.url;
  a.download = answer.file_name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** Title and description of a recording, revised with a reason (the library keeps the revision). */
function ReviseDialog({
  item,
  revise,
  onClose,
  onSaved,
}: {
  item: MediaItem;
  revise: (id: number, values: ReviseValues) => Promise<MediaItem>;
  onClose: () => void;
  onSaved: (item: MediaItem) => void;
}) {
  const { t } = useTranslation('playback');
  const [form] = Form.useForm<ReviseValues>();
  const [busy, setBusy] = useState(false);
  const submit = async (values: ReviseValues) => {
    setBusy(true);
    try {
      onSaved(await revise(item.id, values));
    } catch {
      /* the call showed the server's message */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open title={t('edit')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={busy} destroyOnHidden>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ title: item.title, description: item.description, reason: '' }}
        onFinish={(values) => void submit(values)}
        data-testid="replay-revise"
      >
        <Form.Item
          name="title"
          label={t('fieldTitle')}
          rules={[{ required: true, whitespace: true, message: t('required') }]}
        >
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="description" label={t('fieldDescription')}>
          <Input.TextArea rows={3} maxLength={2000} />
        </Form.Item>
        <Form.Item
          name="reason"
          label={t('fieldReason')}
          rules={[{ required: true, whitespace: true, message: t('required') }]}
        >
          <Input maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export interface Picked {
  id: number;
  /** seconds into the recording to start at */
  offset: number;
}

/**
 * The replay player: the recording at its signed address from the picked offset, rates as in the
 * library's player, download and mark.
 */
export function ReplayPlayer({
  picked,
  calls,
  onClose,
  onChanged,
}: {
  picked: Picked | null;
  calls: ReplayCalls;
  onClose: () => void;
  onChanged?: () => void;
}) {
  const { t } = useTranslation('playback');
  const { message } = App.useApp();
  const info = useQuery({
    queryKey: [calls.key, 'info', picked?.id ?? 0],
    queryFn: ({ signal }) => calls.info(picked!.id, signal),
    enabled: picked !== null,
    // signed addresses are short-lived: never reuse one
    gcTime: 0,
    staleTime: 0,
  });
  const element = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  const [rate, setRate] = useState(1);
  const [flg, setFlg] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(false);
  const [revised, setRevised] = useState<MediaItem | null>(null);
  const data = info.data;
  const item = revised ?? data?.item;
  const marked = (flg ?? item?.flg ?? 0) === 1;

  const changeRate = (next: number) => {
    setRate(next);
    if (element.current) element.current.playbackRate = next;
  };
  const start = () => {
    const media = element.current;
    if (!media) return;
    media.playbackRate = rate;
    const offset = picked?.offset ?? 0;
    if (offset > 0) media.currentTime = Number.isFinite(media.duration) ? Math.min(offset, media.duration) : offset;
  };
  const toggleMark = async () => {
    if (!item || !calls.flag) return;
    setBusy(true);
    try {
      const next = await calls.flag(item.id, marked ? 0 : 1);
      setFlg(next.flg);
      message.success(t(next.flg ? 'marked' : 'unmarked'));
      onChanged?.();
    } catch {
      /* the call showed the server's message */
    } finally {
      setBusy(false);
    }
  };
  const download = async () => {
    if (!item) return;
    try {
      save(await calls.download(item.id));
    } catch {
      /* the call showed the server's message */
    }
  };

  let body;
  if (info.isPending) body = <Spin />;
  else if (info.isError || !data || !item) body = <Result status="warning" title={t('loadFailed')} />;
  else if (item.media_type === 3) body = <img className="bwc-replay-image" src={data.play_url} alt={item.title} />;
  else if (item.playable === 'pending') body = <Alert type="info" showIcon message={t('pending')} />;
  else if (item.playable === 'failed' || !data.play_url) body = <Alert type="error" showIcon message={t('failed')} />;
  else {
    const common = {
      ref: element,
      src: data.play_url,
      controls: true,
      autoPlay: true,
      preload: 'metadata' as const,
      onLoadedMetadata: start,
    };
    body =
      item.media_type === 1 ? (
        <video {...common} className="bwc-replay-video" data-testid="replay-video">
          <track kind="captions" />
        </video>
      ) : (
        <audio {...common} className="bwc-replay-audio" data-testid="replay-audio" />
      );
  }

  return (
    <Modal
      open={picked !== null}
      title={item?.title ?? t('player')}
      footer={null}
      onCancel={onClose}
      width={900}
      destroyOnHidden
    >
      <div data-testid="replay-player">
        <div className="bwc-replay-stage">{body}</div>
        {item && (
          <div className="bwc-replay-controls">
            <Typography.Text type="secondary">
              {dayjs(item.recorded_at).format('YYYY-MM-DD HH:mm:ss')}
              {item.duration !== null && ` · ${formatDuration(item.duration)}`}
              {item.hostbody && ` · ${item.hostbody}`}
            </Typography.Text>
            <Space wrap>
              {item.media_type !== 3 && (
                <>
                  <Typography.Text type="secondary">{t('rate')}</Typography.Text>
                  <Segmented
                    size="small"
                    data-testid="replay-rate"
                    value={rate}
                    onChange={(value) => changeRate(Number(value))}
                    options={PLAYBACK_RATES.map((r) => ({ value: r, label: `${r}x` }))}
                  />
                </>
              )}
              {calls.flag && (
                <Button
                  icon={marked ? <FlagFilled /> : <FlagOutlined />}
                  loading={busy}
                  onClick={() => void toggleMark()}
                  data-testid="replay-mark"
                >
                  {t(marked ? 'unmark' : 'mark')}
                </Button>
              )}
              {calls.revise && (
                <Button icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="replay-edit">
                  {t('edit')}
                </Button>
              )}
              <Button icon={<DownloadOutlined />} onClick={() => void download()} data-testid="replay-download">
                {t('download')}
              </Button>
            </Space>
          </div>
        )}
      </div>
      {editing && item && calls.revise && (
        <ReviseDialog
          item={item}
          revise={calls.revise}
          onClose={() => setEditing(false)}
          onSaved={(next) => {
            setRevised(next);
            setEditing(false);
            message.success(t('saved'));
            onChanged?.();
          }}
        />
      )}
    </Modal>
  );
}
