import { MenuId, RUBRIC_CRITERIA_MAX, RUBRIC_POINTS_MAX, type RubricInput, type RubricVersion } from '@bwc/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Form, Input, InputNumber, Modal, Popconfirm, Result, Space, Table, Tag } from 'antd';
import type { ButtonProps } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { usePermission } from '../../app/session/Permission';
import { formatTime } from '../../format/time';
import { currentLanguage } from '../../i18n';
import { criterionLabel, reviewKeys, rubricVersionParams } from './reviewKeys';

type Values = RubricInput;

const KEY_FORMAT = /^[A-Za-z][A-Za-z0-9_]*$/;

/** The rubric_add / rubric_edit payload of the dialog's values (trimmed; English may be empty). */
export function rubricPayload(v: Values): RubricInput {
  return {
    name_zh: (v.name_zh ?? '').trim(),
    name_en: (v.name_en ?? '').trim(),
    criteria: (v.criteria ?? []).map((c) => ({
      key: (c.key ?? '').trim(),
      label_zh: (c.label_zh ?? '').trim(),
      label_en: (c.label_en ?? '').trim(),
      max: Number(c.max),
    })),
  };
}

/**
 * Create a rubric or change the newest version of one. A rubric that has scores is not changed:
 * the server saves the next version (the dialog says so before saving).
 */
export function RubricDialog({
  open,
  rubric,
  onClose,
  onSaved,
}: {
  open: boolean;
  /** the version edited; null: a new rubric */
  rubric: RubricVersion | null;
  onClose: () => void;
  onSaved: (saved: RubricVersion) => void;
}) {
  const { t } = useTranslation('review');
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      rubric
        ? { name_zh: rubric.name_zh, name_en: rubric.name_en, criteria: rubric.criteria }
        : { name_zh: '', name_en: '', criteria: [{ key: '', label_zh: '', label_en: '', max: 20 }] },
    );
  }, [open, rubric, form]);

  const submit = async () => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setBusy(true);
    try {
      const body = rubricPayload(values);
      const saved = rubric
        ? await call('rubricEdit', { id: rubric.id, ...body }, { success: true })
        : await call('rubricAdd', body, { success: true });
      onSaved(saved);
      onClose();
    } catch {
      // the http layer has shown the server's message; the dialog keeps the values
    } finally {
      setBusy(false);
    }
  };

  const lang = currentLanguage();
  return (
    <Modal
      open={open}
      width={820}
      title={
        rubric
          ? t('rubric.editTitle', { name: lang === 'en-US' ? rubric.name_en : rubric.name_zh })
          : t('rubric.addTitle')
      }
      okButtonProps={{ 'data-testid': 'rubric-ok' }}
      onOk={() => void submit()}
      confirmLoading={busy}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      <div data-testid="rubric-dialog">
        {rubric && rubric.scores > 0 && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 12 }}
            message={t('rubric.versionHint', { count: rubric.scores, version: rubric.version + 1 })}
          />
        )}
        <Form form={form} layout="vertical" disabled={busy}>
          <Space align="start" wrap>
            <Form.Item
              name="name_zh"
              label={t('rubric.nameZh')}
              rules={[{ required: true, whitespace: true, message: t('rubric.required') }]}
            >
              <Input maxLength={100} style={{ width: 300 }} aria-label={t('rubric.nameZh')} />
            </Form.Item>
            <Form.Item name="name_en" label={t('rubric.nameEn')} extra={t('rubric.nameEnHint')}>
              <Input maxLength={100} style={{ width: 300 }} aria-label={t('rubric.nameEn')} />
            </Form.Item>
          </Space>
          <Form.List
            name="criteria"
            rules={[
              {
                validator: async (_, list: unknown[] | undefined) => {
                  const n = list?.length ?? 0;
                  if (n < 1 || n > RUBRIC_CRITERIA_MAX)
                    throw new Error(t('rubric.count', { max: RUBRIC_CRITERIA_MAX }));
                },
              },
            ]}
          >
            {(fields, { add, remove }, { errors }) => (
              <div data-testid="rubric-criteria">
                {fields.map((field, i) => (
                  <Space key={field.key} align="start" wrap>
                    <Form.Item
                      name={[field.name, 'key']}
                      rules={[
                        { required: true, whitespace: true, message: t('rubric.required') },
                        { pattern: KEY_FORMAT, message: t('rubric.keyFormat') },
                        {
                          validator: async (_, value: string | undefined) => {
                            const keys = (form.getFieldValue('criteria') as Values['criteria']).map((c) =>
                              c?.key?.trim(),
                            );
                            if (value && keys.filter((k) => k === value.trim()).length > 1)
                              throw new Error(t('rubric.keyDuplicate'));
                          },
                        },
                      ]}
                    >
                      <Input
                        placeholder={t('rubric.key')}
                        aria-label={`${t('rubric.key')} ${i + 1}`}
                        maxLength={40}
                        style={{ width: 130 }}
                      />
                    </Form.Item>
                    <Form.Item
                      name={[field.name, 'label_zh']}
                      rules={[{ required: true, whitespace: true, message: t('rubric.required') }]}
                    >
                      <Input
                        placeholder={t('rubric.labelZh')}
                        aria-label={`${t('rubric.labelZh')} ${i + 1}`}
                        maxLength={40}
                        style={{ width: 170 }}
                      />
                    </Form.Item>
                    <Form.Item name={[field.name, 'label_en']}>
                      <Input
                        placeholder={t('rubric.labelEn')}
                        aria-label={`${t('rubric.labelEn')} ${i + 1}`}
                        maxLength={40}
                        style={{ width: 190 }}
                      />
                    </Form.Item>
                    <Form.Item
                      name={[field.name, 'max']}
                      rules={[
                        { required: true, message: t('rubric.maxRange', { max: RUBRIC_POINTS_MAX }) },
                        {
                          type: 'number',
                          min: 1,
                          max: RUBRIC_POINTS_MAX,
                          message: t('rubric.maxRange', { max: RUBRIC_POINTS_MAX }),
                        },
                      ]}
                    >
                      <InputNumber
                        min={1}
                        max={RUBRIC_POINTS_MAX}
                        precision={0}
                        placeholder={t('rubric.max')}
                        aria-label={`${t('rubric.max')} ${i + 1}`}
                        style={{ width: 90 }}
                      />
                    </Form.Item>
                    <Button onClick={() => remove(field.name)} aria-label={`${t('rubric.remove')} ${i + 1}`}>
                      {t('rubric.remove')}
                    </Button>
                  </Space>
                ))}
                <Form.ErrorList errors={errors} />
                <Button
                  type="dashed"
                  disabled={fields.length >= RUBRIC_CRITERIA_MAX}
                  onClick={() => add({ key: '', label_zh: '', label_en: '', max: 20 })}
                  data-testid="rubric-add-criterion"
                >
                  {t('rubric.addCriterion')}
                </Button>
              </div>
            )}
          </Form.List>
        </Form>
      </div>
    </Modal>
  );
}

/**
 * The rubrics (rubric_get): newest version of each with its criteria, the one in use, how many
 * scores were made with it; create (add on 10261), edit and activate (edit on 10261). Older
 * versions are listed on request, read-only: scores made with them keep showing them.
 */
export function RubricEditor() {
  const { t } = useTranslation('review');
  const lang = currentLanguage();
  const canAdd = usePermission(MenuId.PEER_REVIEW, 'add');
  const canEdit = usePermission(MenuId.PEER_REVIEW, 'edit');
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<RubricVersion | null | undefined>(undefined);
  const [showOld, setShowOld] = useState(false);
  const rubrics = useQuery({
    queryKey: reviewKeys.rubrics,
    queryFn: ({ signal }) => call('rubricList', undefined, { signal }),
  });

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: reviewKeys.rubrics });
    // the score panels show the active rubric
    void queryClient.invalidateQueries({ queryKey: reviewKeys.all });
  };

  const activate = async (r: RubricVersion) => {
    try {
      await call('rubricActive', { id: r.id }, { success: true });
      refresh();
    } catch {
      // shown by the http layer
    }
  };

  const columns = useMemo<ColumnsType<RubricVersion>>(
    () => [
      {
        title: t('rubric.name'),
        key: 'name',
        render: (_, r) => t('rubric.nameVersion', rubricVersionParams(r, lang)),
      },
      {
        title: t('rubric.criteria'),
        key: 'criteria',
        render: (_, r) => (
          <>
            <div>{t('rubric.criteriaOf', { count: r.criteria.length, max: r.max_total })}</div>
            <div className="bwc-review-criteria">
              {r.criteria.map((c) => `${criterionLabel(c, lang)} ${c.max}`).join(' · ')}
            </div>
          </>
        ),
      },
      {
        title: t('rubric.state'),
        key: 'state',
        width: 150,
        render: (_, r) =>
          r.active ? (
            <Tag color="green">{t('rubric.activated')}</Tag>
          ) : r.latest ? null : (
            <Tag>{t('rubric.superseded')}</Tag>
          ),
      },
      { title: t('rubric.scores'), dataIndex: 'scores', key: 'scores', width: 90 },
      {
        title: t('rubric.updated'),
        dataIndex: 'updated',
        key: 'updated',
        width: 170,
        render: (v: string) => formatTime(v),
      },
      {
        title: t('rubric.actions'),
        key: 'actions',
        width: 150,
        render: (_, r) =>
          r.latest && canEdit ? (
            <Space size={4}>
              <Button size="small" type="link" onClick={() => setEditing(r)} data-testid={`rubric-edit-${r.id}`}>
                {t('rubric.edit')}
              </Button>
              {!r.active && (
                <Popconfirm
                  title={t('rubric.activateConfirm', { name: lang === 'en-US' ? r.name_en : r.name_zh })}
                  okButtonProps={{ 'data-testid': 'rubric-activate-ok' } as ButtonProps}
                  onConfirm={() => activate(r)}
                >
                  <Button size="small" type="link" data-testid={`rubric-activate-${r.id}`}>
                    {t('rubric.activate')}
                  </Button>
                </Popconfirm>
              )}
            </Space>
          ) : null,
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, lang, canEdit],
  );

  if (rubrics.isError) return <Result status="warning" title={t('rubric.loadFailed')} />;
  const rows = (rubrics.data ?? []).filter((r) => showOld || r.latest);
  return (
    <div data-testid="rubric-editor">
      <Space style={{ marginBottom: 12 }}>
        {canAdd && (
          <Button type="primary" onClick={() => setEditing(null)} data-testid="rubric-new">
            {t('rubric.add')}
          </Button>
        )}
        <Checkbox checked={showOld} onChange={(e) => setShowOld(e.target.checked)}>
          {t('rubric.showOld')}
        </Checkbox>
      </Space>
      <Table<RubricVersion>
        rowKey="id"
        size="small"
        loading={rubrics.isPending}
        columns={columns}
        dataSource={rows}
        pagination={false}
      />
      <RubricDialog
        open={editing !== undefined}
        rubric={editing ?? null}
        onClose={() => setEditing(undefined)}
        onSaved={refresh}
      />
    </div>
  );
}
