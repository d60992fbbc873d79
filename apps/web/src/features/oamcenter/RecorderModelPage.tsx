import { MenuId, RecorderModelAddRequest, type RecorderModel } from '@bwc/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Card, Form, Input, Modal } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { validateWith, zodRules } from '../../app/forms/zodRules';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import type { SearchItem } from '../../components/search-bar';
import { callAs, oamKeys } from './oamcenter.api';

const add = { menu: MenuId.RECORDER_MODELS, action: 'add' } as const;
const edit = { menu: MenuId.RECORDER_MODELS, action: 'edit' } as const;
const rules = zodRules(RecorderModelAddRequest);

/** /oamcenter/deviceAdmin/recorderModel: device models (a model in use cannot be deleted). */
export function RecorderModelPage() {
  const { t } = useTranslation('oamcenter');
  const client = useQueryClient();
  const [editing, setEditing] = useState<RecorderModel | 'new' | null>(null);
  const models = useQuery({
    queryKey: oamKeys.models,
    queryFn: ({ signal }) => callAs<RecorderModel[]>('modelList', {}, { signal }),
  });

  const searchItems = useMemo<SearchItem[]>(
    () => [
      { type: 'text', name: 'keyword', label: t('model.filter.keyword') },
      {
        type: 'button',
        key: 'add',
        label: t('model.action.add'),
        primary: true,
        onClick: () => setEditing('new'),
        permission: add,
      },
    ],
    [t],
  );
  const columns = useMemo<DataTableColumn<RecorderModel>[]>(
    () => [
      { title: t('model.field.name'), dataIndex: 'name', key: 'name' },
      { title: t('model.field.vendor'), dataIndex: 'vendor', key: 'vendor' },
      { title: t('model.field.devices'), dataIndex: 'devices', key: 'devices', width: 100 },
      { title: t('model.field.remark'), dataIndex: 'remark', key: 'remark', ellipsis: true },
      {
        kind: 'operation',
        width: 140,
        actions: [
          { key: 'edit', label: t('action.edit'), onClick: (row) => setEditing(row), permission: edit },
          {
            key: 'del',
            label: t('action.delete'),
            danger: true,
            confirm: t('model.confirmDelete'),
            onClick: (row) =>
              callAs('modelDelete', { id: row.id }, { success: true }).then(() =>
                client.invalidateQueries({ queryKey: oamKeys.models }),
              ),
            permission: edit,
          },
        ],
      },
    ],
    [t, client],
  );

  return (
    <Card title={t('model.title')}>
      <DataTable<RecorderModel>
        dataSource={models.data ?? []}
        loading={models.isLoading}
        clientFilter={(row, filters) => {
          const keyword = String(filters.keyword ?? '')
            .trim()
            .toLowerCase();
          return !keyword || row.name.toLowerCase().includes(keyword) || row.vendor.toLowerCase().includes(keyword);
        }}
        columns={columns}
        searchItems={searchItems}
        urlKey="model"
      />
      <ModelDialog
        editing={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          void client.invalidateQueries({ queryKey: oamKeys.models });
        }}
      />
    </Card>
  );
}

function ModelDialog({
  editing,
  onClose,
  onSaved,
}: {
  editing: RecorderModel | 'new' | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('oamcenter');
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const last = useRef(editing);
  if (editing !== null) last.current = editing;

  useEffect(() => {
    if (!editing) return;
    form.resetFields();
    form.setFieldsValue(
      editing === 'new'
        ? { name: '', vendor: '', remark: '' }
        : { name: editing.name, vendor: editing.vendor, remark: editing.remark },
    );
  }, [editing, form]);

  const submit = async () => {
    if (!editing) return;
    const values = await validateWith(form, RecorderModelAddRequest);
    setSaving(true);
    try {
      if (editing === 'new') await callAs('modelAdd', values, { success: true });
      else await callAs('modelUpdate', { id: editing.id, ...values }, { success: true });
      onSaved();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={editing !== null}
      title={t(last.current === 'new' ? 'model.form.addTitle' : 'model.form.editTitle')}
      onCancel={onClose}
      onOk={() => void submit().catch(() => undefined)}
      okText={t('action.save')}
      confirmLoading={saving}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" disabled={saving} name="model-form">
        <Form.Item name="name" label={t('model.field.name')} rules={rules('name')} required>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="vendor" label={t('model.field.vendor')} rules={rules('vendor')}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="remark" label={t('model.field.remark')} rules={rules('remark')}>
          <Input.TextArea maxLength={255} rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
