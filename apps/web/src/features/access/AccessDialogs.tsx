import {
  ACCESS_MAX_DAYS,
  AccessAddRequest,
  AccessDecideRequest,
  type AccessDetail,
  type AccessRequest,
  type MediaItem,
} from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Descriptions, Drawer, Empty, Form, Input, Select, Table, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { zodRules } from '../../app/forms/zodRules';
import { formatTime } from '../../format/time';
import { PlayerDialog } from '../data/PlayerDialog';
import { ShellDialog } from '../data/MediaDialogs';
import { STATE_LABELS } from './labels';

/** form values of these dialogs: dates, numbers, id lists */
type Values = Record<string, NonNullable<unknown> | undefined>;
const FormDialog = ShellDialog<Values>;

const DATE_TIME = 'YYYY-MM-DD HH:mm';
const iso = (d: unknown) => (dayjs.isDayjs(d) ? (d as Dayjs).toISOString() : undefined);

/** "1, 2 3" -> [1, 2, 3]; anything else is left for the server to name. */
export function parseIds(text: string): number[] {
  return text
    .split(/[\s,，;；]+/)
    .filter(Boolean)
    .map(Number);
}

/** Ask another unit for items: by item numbers, or by recording time range, with a reason and an expiry. */
export function RequestDialog({ open, onClose, onDone }: { open: boolean; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('access');
  const rules = useMemo(() => zodRules(AccessAddRequest), []);
  const units = useQuery({ queryKey: ['access', 'units'], queryFn: () => call('accessUnits', {}), enabled: open });
  const initial = useMemo(() => ({ expires_at: dayjs().add(7, 'day') }), []);
  return (
    <FormDialog
      open={open}
      title={t('request.title')}
      okText={t('request.ok')}
      testId="access-request"
      initial={initial}
      onClose={onClose}
      onSubmit={async (values) => {
        const range = (values.range as [Dayjs, Dayjs] | undefined) ?? [];
        await call(
          'accessFromAdd',
          {
            unit_id: Number(values.unit_id),
            media_ids: parseIds(String(values.media_ids ?? '')),
            start: iso(range[0]),
            end: iso(range[1]),
            reason: String(values.reason ?? ''),
            expires_at: iso(values.expires_at) ?? '',
          },
          { success: true },
        );
        onDone();
      }}
    >
      <Form.Item
        name="unit_id"
        label={t('field.unit')}
        rules={[{ required: true, message: t('request.unitRequired') }]}
        required
      >
        <Select
          showSearch
          optionFilterProp="label"
          loading={units.isLoading}
          options={(units.data ?? []).map((u) => ({ value: u.id, label: `${u.name} (${u.bh})` }))}
          data-testid="access-unit"
        />
      </Form.Item>
      <Form.Item name="media_ids" label={t('field.mediaIds')} extra={t('request.idsHint')}>
        <Input data-testid="access-ids" />
      </Form.Item>
      <Form.Item name="range" label={t('field.range')}>
        <DatePicker.RangePicker showTime format={DATE_TIME} />
      </Form.Item>
      <Form.Item name="reason" label={t('field.reason')} rules={rules('reason')} required>
        <Input.TextArea maxLength={200} showCount autoSize={{ minRows: 2, maxRows: 4 }} data-testid="access-reason" />
      </Form.Item>
      <Form.Item
        name="expires_at"
        label={t('field.expires', { days: ACCESS_MAX_DAYS })}
        rules={[{ required: true, message: t('request.expiresRequired') }]}
        required
      >
        <DatePicker showTime format={DATE_TIME} />
      </Form.Item>
    </FormDialog>
  );
}

/** Approve (with an expiry, by default the one asked for) or refuse an incoming request. */
export function DecideDialog({
  request,
  approve,
  onClose,
  onDone,
}: {
  request: AccessRequest | null;
  approve: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('access');
  const rules = useMemo(() => zodRules(AccessDecideRequest), []);
  const initial = useMemo(
    () => (request ? { expires_at: dayjs(request.requested_until), note: '' } : undefined),
    [request],
  );
  return (
    <FormDialog
      open={request !== null}
      title={approve ? t('decide.approveTitle') : t('decide.refuseTitle')}
      okText={approve ? t('decide.approve') : t('decide.refuse')}
      danger={!approve}
      testId="access-decide"
      initial={initial}
      onClose={onClose}
      onSubmit={async (values) => {
        if (!request) return;
        await call(
          'accessToSave',
          {
            id: request.id,
            approve,
            expires_at: approve ? iso(values.expires_at) : undefined,
            note: String(values.note ?? ''),
          },
          { success: true },
        );
        onDone();
      }}
    >
      {request && (
        <Typography.Paragraph>
          {t('decide.question', { name: request.requester_name, unit: request.from_unit_name, reason: request.reason })}
        </Typography.Paragraph>
      )}
      {approve && (
        <Form.Item name="expires_at" label={t('field.expires', { days: ACCESS_MAX_DAYS })}>
          <DatePicker showTime format={DATE_TIME} />
        </Form.Item>
      )}
      <Form.Item name="note" label={t('field.note')} rules={rules('note')}>
        <Input maxLength={200} data-testid="access-note" />
      </Form.Item>
    </FormDialog>
  );
}

/** A request with its items (granted ones; for the approver of a pending request, those it would grant). */
export function RequestDrawer({ side, id, onClose }: { side: 'from' | 'to'; id: number | null; onClose: () => void }) {
  const { t } = useTranslation('access');
  const [playing, setPlaying] = useState<MediaItem | null>(null);
  const detail = useQuery<AccessDetail>({
    queryKey: ['access', side, 'view', id],
    queryFn: () => call(side === 'from' ? 'accessFromView' : 'accessToView', { id: id! }),
    enabled: id !== null,
  });
  const r = detail.data?.request;
  const items = detail.data?.items ?? [];
  return (
    <Drawer open={id !== null} onClose={onClose} width={760} title={t('detail.title')} destroyOnHidden>
      {r && (
        <div data-testid="access-detail">
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item
              label={t('column.requester')}
            >{`${r.requester_name} / ${r.from_unit_name}`}</Descriptions.Item>
            <Descriptions.Item label={t('column.toUnit')}>{r.to_unit_name}</Descriptions.Item>
            <Descriptions.Item label={t('column.state')}>{t(STATE_LABELS[r.state])}</Descriptions.Item>
            <Descriptions.Item label={t('column.expires')}>
              {formatTime(r.expires_at ?? r.requested_until)}
            </Descriptions.Item>
            <Descriptions.Item label={t('field.reason')} span={2}>
              {r.reason}
            </Descriptions.Item>
            {r.note && (
              <Descriptions.Item label={t('field.note')} span={2}>
                {r.note}
              </Descriptions.Item>
            )}
          </Descriptions>
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {r.state === 'pending' ? t('detail.candidates') : t('detail.granted')}
          </Typography.Title>
          {items.length === 0 ? (
            <Empty description={side === 'from' && r.state === 'pending' ? t('detail.waiting') : t('detail.none')} />
          ) : (
            <Table<MediaItem>
              size="small"
              rowKey="id"
              pagination={false}
              dataSource={items}
              columns={[
                { title: t('column.id'), dataIndex: 'id', width: 70 },
                { title: t('column.title'), dataIndex: 'title' },
                { title: t('column.recorded'), dataIndex: 'recorded_at', render: (v: string) => formatTime(v) },
                {
                  title: t('column.operation'),
                  key: 'op',
                  width: 90,
                  render: (_: unknown, item: MediaItem) =>
                    side === 'from' && r.active ? (
                      <Button
                        size="small"
                        type="link"
                        onClick={() => setPlaying(item)}
                        data-testid={`access-play-${item.id}`}
                      >
                        {t('action.play')}
                      </Button>
                    ) : null,
                },
              ]}
            />
          )}
        </div>
      )}
      <PlayerDialog item={playing} onClose={() => setPlaying(null)} />
    </Drawer>
  );
}
