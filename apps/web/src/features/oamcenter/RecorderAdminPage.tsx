import { call } from '../../api/http';
import { MenuId, type Device } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage, useCrud } from '../../components/crud';
import { NameWithCode, type DataTableColumn } from '../../components/data-table';
import type { SearchItem } from '../../components/search-bar';
import { unitSearchItem } from '../../components/unit-tree';
import { oamKeys } from './oamcenter.api';
import { RecorderFormDialog } from './RecorderFormDialog';
import { RecorderImportDialog } from './RecorderImportDialog';

/** /oamcenter/deviceAdmin/recorderAdmin: the devices (recorders) of the caller's unit scope. */
export function RecorderAdminPage() {
  const { t } = useTranslation('oamcenter');
  const { dialog, reload, addButton, editAction, deleteAction, permission } = useCrud<Device>({
    menu: MenuId.RECORDERS,
    invalidate: [oamKeys.all],
  });
  const [importing, setImporting] = useState(false);
  const models = useQuery({
    queryKey: oamKeys.models,
    queryFn: ({ signal }) => call('modelList', {}, { signal }),
  });

  const searchItems = useMemo<SearchItem[]>(
    () => [
      {
        type: 'text',
        name: 'keyword',
        label: t('recorder.filter.keyword'),
        placeholder: t('recorder.filter.keywordPlaceholder'),
      },
      unitSearchItem(t('recorder.field.unit')),
      {
        type: 'select',
        name: 'model_id',
        label: t('recorder.field.model'),
        options: (models.data ?? []).map((m) => ({ value: m.id, label: m.name })),
        width: 140,
      },
      {
        type: 'select',
        name: 'lineon',
        label: t('recorder.field.state'),
        options: [
          { value: 1, label: t('recorder.state.online') },
          { value: 0, label: t('recorder.state.offline') },
        ],
        width: 110,
      },
      addButton(t('recorder.action.add')),
      {
        type: 'button',
        key: 'import',
        label: t('recorder.action.import'),
        onClick: () => setImporting(true),
        permission: permission('add'),
      },
    ],
    [t, models.data, addButton, permission],
  );

  const columns = useMemo<DataTableColumn<Device>[]>(
    () => [
      // widths: on a 1280-pixel screen every header fits and the unit column keeps about 100 px
      {
        title: t('recorder.field.hostbody'),
        dataIndex: 'hostbody',
        key: 'hostbody',
        width: 130,
        className: 'bwc-nowrap',
      },
      // 15 digits on one line
      { title: 'IMEI', dataIndex: 'imei', key: 'imei', width: 140, className: 'bwc-nowrap' },
      {
        title: t('recorder.field.hostname'),
        key: 'hostname',
        width: 124,
        render: (_v, row) => <NameWithCode name={row.hostname} code={row.hostcode} />,
      },
      {
        title: t('recorder.field.jqHostcode'),
        dataIndex: 'jq_hostcode',
        key: 'jq_hostcode',
        width: 130,
        className: 'bwc-nowrap',
      },
      {
        title: t('recorder.field.owner'),
        key: 'owner',
        width: 100,
        ellipsis: true,
        render: (_v, row) => row.owner_name || '-',
      },
      { title: t('recorder.field.unit'), dataIndex: 'unitname', key: 'unitname', ellipsis: true },
      { title: t('recorder.field.model'), dataIndex: 'model_name', key: 'model_name', width: 90, ellipsis: true },
      {
        title: t('recorder.field.state'),
        key: 'state',
        width: 96,
        render: (_v, row) =>
          row.remote_kill === 1 ? (
            <Tag color="default">{t('recorder.state.killed')}</Tag>
          ) : row.lineon === 1 ? (
            <Tag color="green">{t('recorder.state.online')}</Tag>
          ) : (
            <Tag>{t('recorder.state.offline')}</Tag>
          ),
      },
      {
        kind: 'operation',
        width: 110,
        actions: [
          editAction(t('action.edit')),
          deleteAction({
            label: t('action.delete'),
            confirm: t('recorder.confirmDelete'),
            remove: (row) => call('deviceDelete', { id: row.id }, { success: true }),
          }),
        ],
      },
    ],
    [t, editAction, deleteAction],
  );

  return (
    <CrudPage<Device>
      title={t('recorder.title')}
      queryKey={oamKeys.devices}
      fetch={({ page, limit, filters }) => call('deviceList', { page, limit, ...filters })}
      columns={columns}
      searchItems={searchItems}
      scroll={{ x: 1070 }}
      urlKey="dev"
      dialog={<RecorderFormDialog models={models.data ?? []} {...dialog} />}
    >
      <RecorderImportDialog open={importing} onClose={() => setImporting(false)} onImported={() => void reload()} />
    </CrudPage>
  );
}
