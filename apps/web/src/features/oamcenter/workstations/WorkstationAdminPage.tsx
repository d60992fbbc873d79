import { call } from '../../../api/http';
import { MenuId, type Workstation } from '@bwc/protocol';
import { App, Space, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage, useCrud } from '../../../components/crud';
import type { DataTableColumn } from '../../../components/data-table';
import type { SearchItem } from '../../../components/search-bar';
import { unitSearchItem } from '../../../components/unit-tree';
import { formatTime } from '../../../format/time';
import { oamKeys } from '../oamcenter.api';
import { WorkstationFormDialog } from './WorkstationFormDialog';

export const workstationKeys = { list: ['oamcenter', 'workstations'] as const };

/** Free disk space in GB (one decimal), '—' before the first heartbeat. */
export function formatDiskFree(bytes: number | null): string {
  return bytes === null ? '—' : `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}

/** /oamcenter/deviceAdmin/workAdmin: the docking workstations of the caller's unit scope. */
export function WorkstationAdminPage() {
  const { t } = useTranslation('oamcenter');
  const { modal } = App.useApp();
  const { dialog, addButton, editAction, deleteAction, permission } = useCrud<Workstation>({
    menu: MenuId.WORKSTATIONS,
    invalidate: [oamKeys.all],
  });

  const searchItems = useMemo<SearchItem[]>(
    () => [
      {
        type: 'text',
        name: 'keyword',
        label: t('workstation.filter.keyword'),
        placeholder: t('workstation.filter.keywordPlaceholder'),
      },
      unitSearchItem(t('workstation.field.unit')),
      {
        type: 'select',
        name: 'lineon',
        label: t('workstation.field.state'),
        options: [
          { value: 1, label: t('workstation.state.online') },
          { value: 0, label: t('workstation.state.offline') },
        ],
        width: 110,
      },
      addButton(t('workstation.action.add')),
    ],
    [t, addButton],
  );

  const columns = useMemo<DataTableColumn<Workstation>[]>(
    () => [
      { title: t('workstation.field.name'), dataIndex: 'name', key: 'name', width: 140, ellipsis: true },
      { title: t('workstation.field.code'), dataIndex: 'code', key: 'code', width: 160, className: 'bwc-nowrap' },
      { title: t('workstation.field.unit'), dataIndex: 'unitname', key: 'unitname', ellipsis: true },
      {
        title: t('workstation.field.ip'),
        key: 'ip',
        width: 130,
        className: 'bwc-nowrap',
        render: (_v, row) => row.last_ip || row.ip || '—',
      },
      {
        title: t('workstation.field.state'),
        key: 'state',
        width: 80,
        render: (_v, row) =>
          row.lineon === 1 ? (
            <Tag color="green">{t('workstation.state.online')}</Tag>
          ) : (
            <Tag>{t('workstation.state.offline')}</Tag>
          ),
      },
      {
        title: t('workstation.field.docked'),
        key: 'docked',
        width: 200,
        render: (_v, row) =>
          row.docked.length ? (
            <Space size={[0, 4]} wrap>
              {row.docked.map((d) => (
                <Tag key={d.hostbody} color={d.device_id === null ? 'orange' : 'blue'}>
                  {d.hostname ? `${d.hostname} (${d.hostbody})` : d.hostbody}
                </Tag>
              ))}
            </Space>
          ) : (
            '—'
          ),
      },
      {
        title: t('workstation.field.diskFree'),
        key: 'disk_free',
        width: 100,
        render: (_v, row) => formatDiskFree(row.disk_free),
      },
      {
        title: t('workstation.field.lastSeen'),
        key: 'last_seen',
        width: 160,
        className: 'bwc-nowrap',
        render: (_v, row) => formatTime(row.last_seen),
      },
      {
        kind: 'operation',
        width: 170,
        actions: [
          editAction(t('action.edit')),
          {
            key: 'secret',
            label: t('workstation.action.resetSecret'),
            confirm: t('workstation.confirmReset'),
            permission: permission('edit'),
            onClick: async (row) => {
              const answer = await call('workstationResetSecret', { id: row.id }, { success: true });
              modal.info({
                title: t('workstation.secret.title'),
                content: (
                  <>
                    <p>{t('workstation.secret.once', { code: answer.workstation.code })}</p>
                    <Typography.Paragraph copyable code data-testid="workstation-secret">
                      {answer.secret}
                    </Typography.Paragraph>
                  </>
                ),
              });
            },
          },
          deleteAction({
            label: t('action.delete'),
            confirm: t('workstation.confirmDelete'),
            remove: (row) => call('workstationDelete', { id: row.id }, { success: true }),
          }),
        ],
      },
    ],
    [t, editAction, deleteAction, permission, modal],
  );

  return (
    <CrudPage<Workstation>
      title={t('workstation.title')}
      queryKey={workstationKeys.list}
      fetch={({ page, limit, filters }) => call('workstationList', { page, limit, ...filters })}
      columns={columns}
      searchItems={searchItems}
      scroll={{ x: 1160 }}
      urlKey="ws"
      dialog={<WorkstationFormDialog {...dialog} />}
    />
  );
}
