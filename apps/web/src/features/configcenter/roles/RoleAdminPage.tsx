import { MenuId, type Role } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { CrudPage, useCrud } from '../../../components/crud';
import type { DataTableColumn } from '../../../components/data-table';
import type { FilterValues, SearchItem } from '../../../components/search-bar';
import { configKeys } from '../configcenter.api';
import { PermissionDialog } from './PermissionDialog';
import { RoleFormDialog } from './RoleFormDialog';

function matches(row: Role, filters: FilterValues): boolean {
  const keyword = typeof filters.keyword === 'string' ? filters.keyword.trim().toLowerCase() : '';
  return !keyword || row.name.toLowerCase().includes(keyword) || row.remark.toLowerCase().includes(keyword);
}

const unchangeable = (role: Role) => role.changeable !== 1;

/** /configcenter/userAdmin/RoleAdmin: roles by weight, add / edit / delete, permission distribution. */
export function RoleAdminPage() {
  const { t } = useTranslation('configcenter');
  const { dialog, addButton, editAction, deleteAction } = useCrud<Role>({
    menu: MenuId.ROLES,
    invalidate: [configKeys.all],
  });
  const [distributing, setDistributing] = useState<Role | null>(null);
  const roles = useQuery({ queryKey: configKeys.roles, queryFn: ({ signal }) => call('roleList', {}, { signal }) });

  const searchItems = useMemo<SearchItem[]>(
    () => [
      {
        type: 'text',
        name: 'keyword',
        label: t('roles.filter.keyword'),
        placeholder: t('roles.filter.keywordPlaceholder'),
      },
      addButton(t('roles.action.add')),
    ],
    [t, addButton],
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
          // only what the server will allow: a unit administrator cannot change roles beyond his
          // own rights (the administrator role) or held by accounts outside his units
          {
            key: 'perm',
            label: t('roles.action.permissions'),
            onClick: (row) => setDistributing(row),
            hidden: unchangeable,
          },
          { ...editAction(t('roles.action.edit')), hidden: unchangeable },
          deleteAction({
            label: t('roles.action.delete'),
            confirm: t('roles.confirm.delete'),
            remove: (row) => call('roleDelete', { id: row.id }, { success: true }),
            hidden: unchangeable,
          }),
        ],
      },
    ],
    [t, editAction, deleteAction],
  );

  return (
    <CrudPage<Role>
      title={t('roles.title')}
      rows={roles}
      columns={columns}
      clientFilter={matches}
      searchItems={searchItems}
      dialog={<RoleFormDialog {...dialog} />}
    >
      <PermissionDialog role={distributing} onClose={() => setDistributing(null)} />
    </CrudPage>
  );
}
