import { MenuId, type Role } from '@bwc/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Card } from 'antd';
import dayjs from 'dayjs';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import type { FilterValues, SearchItem } from '../../../components/search-bar';
import { configKeys } from '../configcenter.api';
import { QueryError } from '../QueryError';
import { PermissionDialog } from './PermissionDialog';
import { RoleFormDialog } from './RoleFormDialog';

const add = { menu: MenuId.ROLES, action: 'add' } as const;
const edit = { menu: MenuId.ROLES, action: 'edit' } as const;

function matches(row: Role, filters: FilterValues): boolean {
  const keyword = typeof filters.keyword === 'string' ? filters.keyword.trim().toLowerCase() : '';
  return !keyword || row.name.toLowerCase().includes(keyword) || row.remark.toLowerCase().includes(keyword);
}

/** /configcenter/userAdmin/RoleAdmin: roles by weight, add / edit / delete, permission distribution. */
export function RoleAdminPage() {
  const { t } = useTranslation('configcenter');
  const client = useQueryClient();
  const [editing, setEditing] = useState<Role | 'new' | null>(null);
  const [distributing, setDistributing] = useState<Role | null>(null);
  const roles = useQuery({ queryKey: configKeys.roles, queryFn: ({ signal }) => call('roleList', {}, { signal }) });
  const reload = useCallback(() => client.invalidateQueries({ queryKey: configKeys.all }), [client]);

  const searchItems = useMemo<SearchItem[]>(
    () => [
      {
        type: 'text',
        name: 'keyword',
        label: t('roles.filter.keyword'),
        placeholder: t('roles.filter.keywordPlaceholder'),
      },
      {
        type: 'button',
        key: 'add',
        label: t('roles.action.add'),
        primary: true,
        onClick: () => setEditing('new'),
        permission: add,
      },
    ],
    [t],
  );

  const columns = useMemo<DataTableColumn<Role>[]>(
    () => [
      { title: t('roles.column.name'), dataIndex: 'name', key: 'name', width: 180 },
      { title: t('roles.column.weight'), dataIndex: 'weight', key: 'weight', width: 90, align: 'center' },
      { title: t('roles.column.users'), dataIndex: 'users', key: 'users', width: 100, align: 'center' },
      { title: t('roles.column.remark'), dataIndex: 'remark', key: 'remark', ellipsis: true },
      {
        title: t('roles.column.created'),
        dataIndex: 'created',
        key: 'created',
        width: 170,
        render: (value: string) => (value ? dayjs(value).format('YYYY-MM-DD HH:mm') : ''),
      },
      {
        kind: 'operation',
        width: 240,
        actions: [
          { key: 'perm', label: t('roles.action.permissions'), onClick: (row) => setDistributing(row) },
          { key: 'edit', label: t('roles.action.edit'), onClick: (row) => setEditing(row), permission: edit },
          {
            key: 'delete',
            label: t('roles.action.delete'),
            danger: true,
            confirm: t('roles.confirm.delete'),
            onClick: (row) => call('roleDelete', { id: row.id }, { success: true }).then(reload),
            permission: edit,
          },
        ],
      },
    ],
    [t, reload],
  );

  return (
    <Card title={t('roles.title')}>
      {roles.isError && !roles.data ? (
        <QueryError error={roles.error} onRetry={() => void roles.refetch()} />
      ) : (
        <DataTable<Role>
          columns={columns}
          dataSource={roles.data ?? []}
          loading={roles.isFetching}
          clientFilter={matches}
          searchItems={searchItems}
        />
      )}
      <RoleFormDialog
        editing={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          void reload();
        }}
      />
      <PermissionDialog role={distributing} onClose={() => setDistributing(null)} />
    </Card>
  );
}
