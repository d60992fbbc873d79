import { call } from '../../api/http';
import { MenuId, RecorderModelAddRequest, type RecorderModel } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { Form, Input } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage, useCrud } from '../../components/crud';
import type { DataTableColumn } from '../../components/data-table';
import { FormDialog, useFormDialog, type FormDialogTargetProps } from '../../components/form-dialog';
import type { FilterValues, SearchItem } from '../../components/search-bar';
import { oamKeys } from './oamcenter.api';

function matches(row: RecorderModel, filters: FilterValues): boolean {
  const keyword = String(filters.keyword ?? '')
    .trim()
    .toLowerCase();
  return !keyword || row.name.toLowerCase().includes(keyword) || row.vendor.toLowerCase().includes(keyword);
}

/** /oamcenter/deviceAdmin/recorderModel: device models (a model in use cannot be deleted). */
export function RecorderModelPage() {
  const { t } = useTranslation('oamcenter');
  const { dialog, addButton, editAction, deleteAction } = useCrud<RecorderModel>({
    menu: MenuId.RECORDER_MODELS,
    invalidate: [oamKeys.models],
  });
  const models = useQuery({
    queryKey: oamKeys.models,
    queryFn: ({ signal }) => call('modelList', {}, { signal }),
  });

  const searchItems = useMemo<SearchItem[]>(
    () => [{ type: 'text', name: 'keyword', label: t('model.filter.keyword') }, addButton(t('model.action.add'))],
    [t, addButton],
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
          editAction(t('action.edit')),
          deleteAction({
            label: t('action.delete'),
            confirm: t('model.confirmDelete'),
            remove: (row) => call('modelDelete', { id: row.id }, { success: true }),
          }),
        ],
      },
    ],
    [t, editAction, deleteAction],
  );

  return (
    <CrudPage<RecorderModel>
      title={t('model.title')}
      rows={models}
      clientFilter={matches}
      columns={columns}
      searchItems={searchItems}
      urlKey="model"
      dialog={<ModelDialog {...dialog} />}
    />
  );
}

function ModelDialog(props: FormDialogTargetProps<RecorderModel>) {
  const { t } = useTranslation('oamcenter');
  const dialog = useFormDialog({
    ...props,
    schema: RecorderModelAddRequest,
    defaults: { name: '', vendor: '', remark: '' },
    create: (values) => call('modelAdd', values, { success: true }),
    update: (values, model) => call('modelUpdate', { id: model.id, ...values }, { success: true }),
  });
  return (
    <FormDialog
      dialog={dialog}
      name="model-form"
      title={t(dialog.creating ? 'model.form.addTitle' : 'model.form.editTitle')}
      okText={t('action.save')}
    >
      <Form.Item name="name" label={t('model.field.name')} rules={dialog.rules('name')} required>
        <Input maxLength={50} />
      </Form.Item>
      <Form.Item name="vendor" label={t('model.field.vendor')} rules={dialog.rules('vendor')}>
        <Input maxLength={50} />
      </Form.Item>
      <Form.Item name="remark" label={t('model.field.remark')} rules={dialog.rules('remark')}>
        <Input.TextArea maxLength={255} rows={2} />
      </Form.Item>
    </FormDialog>
  );
}
