import { DeleteOutlined, PlayCircleOutlined, PlusOutlined } from '@ant-design/icons';
import {
  DICT_TYPES,
  MenuId,
  RETENTION_PREVIEW_DAYS,
  type DictEntry,
  type RetentionDueItem,
  type RetentionRunAnswer,
} from '@bwc/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Drawer, Form, InputNumber, Modal, Select, Space, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { usePermission } from '../../app/session/Permission';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import { formatTime } from '../../format/time';
import { currentLanguage } from '../../i18n';
import './retention.css';

export const retentionKeys = {
  all: ['retention'] as const,
  policy: ['retention', 'policy'] as const,
  preview: ['retention', 'preview'] as const,
  categories: ['dict', DICT_TYPES.MEDIA_CATEGORY] as const,
};

interface RuleRow {
  category?: string;
  days?: number;
}

/** Label of a category key in the console's language ('' keys: the key itself). */
function labelOf(entries: readonly DictEntry[] | undefined, key: string, lang: string): string {
  const entry = entries?.find((e) => e.key === key);
  if (!entry) return key;
  return lang.startsWith('en') && entry.label_en ? entry.label_en : entry.label;
}

export interface RetentionDrawerProps {
  open: boolean;
  onClose: () => void;
  /** after a run: the deleted view's lists change */
  onRun?: () => void;
}

/**
 * Retention policy of /data/edit/deleted (10272): days kept per media category from the recording
 * time (the longest rule of an item's categories applies; the file-storage default otherwise;
 * items of open cases are kept), the items due within N days as listed before the daily job acts,
 * and a run now. View reads; edit saves the rules and runs.
 */
export function RetentionDrawer({ open, onClose, onRun }: RetentionDrawerProps) {
  const { t } = useTranslation('retention');
  const canEdit = usePermission(MenuId.DELETED_MEDIA, 'edit');
  const lang = currentLanguage();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ rules: RuleRow[] }>();
  const [days, setDays] = useState<number>(RETENTION_PREVIEW_DAYS);
  const [saving, setSaving] = useState(false);
  const [result, setResult] = useState<RetentionRunAnswer | null>(null);
  const [modal, contextHolder] = Modal.useModal();

  const policy = useQuery({
    queryKey: retentionKeys.policy,
    queryFn: ({ signal }) => call('retentionGet', undefined, { signal }),
    enabled: open,
  });
  const categories = useQuery({
    queryKey: retentionKeys.categories,
    queryFn: ({ signal }) => call('dictList', { type: DICT_TYPES.MEDIA_CATEGORY }, { signal }),
    enabled: open,
  });

  useEffect(() => {
    if (policy.data)
      form.setFieldsValue({ rules: policy.data.rules.map((r) => ({ category: r.category, days: r.days })) });
  }, [policy.data, form]);

  const options = useMemo(
    () =>
      (categories.data ?? [])
        .filter((e) => e.enabled === 1)
        .map((e) => ({ value: e.key, label: labelOf(categories.data, e.key, lang) })),
    [categories.data, lang],
  );

  const reloadAll = useCallback(() => queryClient.invalidateQueries({ queryKey: retentionKeys.all }), [queryClient]);

  const save = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      const rules = (values.rules ?? []).map((r) => ({ category: r.category ?? '', days: r.days ?? 0 }));
      await call('retentionUpdate', { rules }, { success: true });
      await reloadAll();
    } finally {
      setSaving(false);
    }
  };

  const runNow = () =>
    void modal.confirm({
      title: t('run.title'),
      content: t('run.question'),
      okText: t('run.ok'),
      okButtonProps: { danger: true },
      onOk: async () => {
        const answer = await call('retentionRun', undefined, { success: true });
        setResult(answer);
        await reloadAll();
        onRun?.();
      },
    });

  const ruleText = useCallback(
    (row: RetentionDueItem) =>
      row.rule
        ? t('preview.ruleCategory', { category: labelOf(categories.data, row.rule, lang), days: row.days })
        : t('preview.ruleDefault', { days: row.days }),
    [t, categories.data, lang],
  );

  const columns = useMemo<DataTableColumn<RetentionDueItem>[]>(
    () => [
      { title: t('preview.title'), dataIndex: 'title', key: 'title', width: 180, ellipsis: true },
      {
        title: t('preview.category'),
        dataIndex: 'category',
        key: 'category',
        width: 140,
        ellipsis: true,
        render: (v: string) =>
          v
            .split(',')
            .map((k) => k.trim())
            .filter(Boolean)
            .map((k) => labelOf(categories.data, k, lang))
            .join(', ') || '-',
      },
      { title: t('preview.unit'), dataIndex: 'unit_name', key: 'unit', width: 120, ellipsis: true },
      {
        title: t('preview.recorded'),
        dataIndex: 'recorded_at',
        key: 'recorded',
        width: 160,
        render: (v: string) => formatTime(v),
      },
      {
        title: t('preview.due'),
        dataIndex: 'due_at',
        key: 'due',
        width: 160,
        render: (v: string) => <span data-testid="retention-due">{formatTime(v)}</span>,
      },
      {
        title: t('preview.rule'),
        key: 'rule',
        width: 170,
        render: (_: unknown, row: RetentionDueItem) => <span data-testid="retention-rule">{ruleText(row)}</span>,
      },
    ],
    [t, categories.data, lang, ruleText],
  );

  return (
    <Drawer
      open={open}
      onClose={onClose}
      width={960}
      title={t('title')}
      destroyOnHidden
      data-testid="retention-drawer"
      className="bwc-retention"
    >
      {contextHolder}
      <Typography.Title level={5}>{t('policy.heading')}</Typography.Title>
      <Alert
        type="info"
        showIcon
        className="bwc-retention-note"
        message={t('policy.note')}
        description={
          policy.data ? (
            <span data-testid="retention-default">{t('policy.default', { days: policy.data.default_days })}</span>
          ) : null
        }
      />
      <Form form={form} name="retention-rules" disabled={!canEdit} layout="inline" className="bwc-retention-rules">
        <Form.List name="rules">
          {(fields, { add, remove }) => (
            <Space direction="vertical" style={{ width: '100%' }}>
              {fields.length === 0 && <Typography.Text type="secondary">{t('policy.none')}</Typography.Text>}
              {fields.map((field) => (
                <Space key={field.key} align="baseline" data-testid="retention-rule-row">
                  <Form.Item
                    name={[field.name, 'category']}
                    label={t('policy.category')}
                    rules={[{ required: true, message: t('policy.categoryRequired') }]}
                  >
                    <Select
                      style={{ width: 220 }}
                      options={options}
                      showSearch
                      optionFilterProp="label"
                      placeholder={t('policy.categoryHint')}
                      loading={categories.isPending}
                    />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'days']}
                    label={t('policy.days')}
                    rules={[{ required: true, type: 'integer', min: 1, max: 36500, message: t('policy.daysRange') }]}
                  >
                    <InputNumber min={1} max={36500} precision={0} suffix={t('policy.dayUnit')} />
                  </Form.Item>
                  {canEdit && (
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('policy.remove')}
                      onClick={() => remove(field.name)}
                    />
                  )}
                </Space>
              ))}
              {canEdit && (
                <Space>
                  <Button icon={<PlusOutlined />} onClick={() => add({ days: 365 })} data-testid="retention-add-rule">
                    {t('policy.add')}
                  </Button>
                  <Button type="primary" loading={saving} onClick={() => void save().catch(() => undefined)}>
                    {t('action.save')}
                  </Button>
                </Space>
              )}
            </Space>
          )}
        </Form.List>
      </Form>

      <div className="bwc-retention-preview-head">
        <Typography.Title level={5}>{t('preview.heading')}</Typography.Title>
        <Space wrap>
          <span>{t('preview.within')}</span>
          <InputNumber
            min={0}
            max={3650}
            precision={0}
            value={days}
            onChange={(v) => setDays(typeof v === 'number' ? v : RETENTION_PREVIEW_DAYS)}
            suffix={t('policy.dayUnit')}
            data-testid="retention-days"
          />
          {canEdit && (
            <Button danger icon={<PlayCircleOutlined />} onClick={runNow} data-testid="retention-run">
              {t('run.button')}
            </Button>
          )}
        </Space>
      </div>
      {policy.data?.last_run ? (
        <Typography.Text type="secondary">{t('run.last', { at: formatTime(policy.data.last_run) })}</Typography.Text>
      ) : null}
      {result && (
        <Alert
          type="success"
          showIcon
          closable
          className="bwc-retention-note"
          data-testid="retention-result"
          message={t('run.result', result)}
          onClose={() => setResult(null)}
        />
      )}
      {open && (
        <DataTable<RetentionDueItem>
          urlKey="retention"
          queryKey={[...retentionKeys.preview, days, lang]}
          fetch={({ page, limit }) => call('retentionPreview', { page, limit, days })}
          columns={columns}
          scroll={{ x: 930 }}
        />
      )}
    </Drawer>
  );
}
