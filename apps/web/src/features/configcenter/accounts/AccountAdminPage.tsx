import { MenuId, USER_STATUSES, type Account, type UserStatus } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { Card, Tabs, Tag } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { call } from '../../../api/http';
import { readLoggedIn } from '../../../api/session';
import { useUserInfo } from '../../../app/session/queries';
import { CrudTable, useCrud } from '../../../components/crud';
import type { DataTableColumn } from '../../../components/data-table';
import type { SearchItem } from '../../../components/search-bar';
import { unitSearchItem } from '../../../components/unit-tree';
import { configKeys } from '../configcenter.api';
import { keysOf } from '../../../i18n/keys';
import { useUnits } from '../units/useUnits';
import { AccountFormDialog } from './AccountFormDialog';
import { OnlineUsersTab } from './OnlineUsersTab';

const TABS = ['accounts', 'online'] as const;
const STATUS_LABELS = keysOf('configcenter', {
  enabled: 'accounts.status.enabled',
  disabled: 'accounts.status.disabled',
} satisfies Record<UserStatus, string>);

/** /configcenter/userAdmin/accountAdmin: accounts of the caller's scope, and the online users. */
export function AccountAdminPage() {
  const { t } = useTranslation('configcenter');
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'online' ? 'online' : 'accounts';
  return (
    <Card title={t('accounts.title')}>
      <Tabs
        activeKey={tab}
        destroyOnHidden
        onChange={(key) => setParams(key === TABS[0] ? {} : { tab: key })}
        items={[
          { key: 'accounts', label: t('accounts.tab.accounts'), children: <AccountsTab /> },
          { key: 'online', label: t('accounts.tab.online'), children: <OnlineUsersTab /> },
        ]}
      />
    </Card>
  );
}

function AccountsTab() {
  const { t } = useTranslation('configcenter');
  const isAdmin = useUserInfo().data?.ifadmin === 1;
  const me = readLoggedIn()?.username;
  const { dialog, addButton, editAction, deleteAction, permission } = useCrud<Account>({
    menu: MenuId.ACCOUNTS,
    invalidate: [configKeys.all],
  });
  const units = useUnits(undefined);
  const roles = useQuery({
    queryKey: configKeys.roleOptions,
    queryFn: ({ signal }) => call('roleOptions', undefined, { signal }),
  });

  const searchItems = useMemo<SearchItem[]>(
    () => [
      {
        type: 'text',
        name: 'keyword',
        label: t('accounts.filter.keyword'),
        placeholder: t('accounts.filter.keywordPlaceholder'),
      },
      unitSearchItem(t('accounts.filter.unit')),
      {
        type: 'select',
        name: 'role_id',
        label: t('accounts.filter.role'),
        options: (roles.data ?? []).map((role) => ({ value: role.id, label: role.name })),
        width: 160,
      },
      {
        type: 'select',
        name: 'status',
        label: t('accounts.filter.status'),
        options: USER_STATUSES.map((status) => ({ value: status, label: t(STATUS_LABELS[status]) })),
        width: 120,
      },
      addButton(t('accounts.action.add')),
    ],
    [t, roles.data, addButton],
  );

  const columns = useMemo<DataTableColumn<Account>[]>(
    () => [
      { title: t('accounts.column.username'), dataIndex: 'username', key: 'username', width: 140 },
      { title: t('accounts.column.hostname'), dataIndex: 'hostname', key: 'hostname', width: 120 },
      { title: t('accounts.column.unit'), dataIndex: 'dname', key: 'dname', ellipsis: true },
      {
        title: t('accounts.column.role'),
        dataIndex: 'group_name',
        key: 'group_name',
        width: 140,
        render: (name: string, row) => (
          <>
            {name}
            {row.ifadmin === 1 && (
              <Tag color="gold" style={{ marginInlineStart: 6 }}>
                {t('accounts.adminTag')}
              </Tag>
            )}
          </>
        ),
      },
      { title: t('accounts.column.phone'), dataIndex: 'phone', key: 'phone', width: 130 },
      {
        title: t('accounts.column.online'),
        dataIndex: 'online',
        key: 'online',
        width: 90,
        align: 'center',
        render: (online: number) =>
          online === 1 ? <Tag color="green">{t('accounts.online.yes')}</Tag> : <Tag>{t('accounts.online.no')}</Tag>,
      },
      {
        kind: 'switch',
        key: 'status',
        title: t('accounts.column.enabled'),
        width: 90,
        isOn: (row) => row.status === 'enabled',
        onToggle: (row, on) =>
          call('accountStatus', { id: row.id, status: on ? 'enabled' : 'disabled' }, { success: true }),
        // one cannot lock oneself out
        disabled: (row) => row.username === me,
        permission: permission('edit'),
      },
      {
        kind: 'operation',
        width: 230,
        actions: [
          editAction(t('accounts.action.edit')),
          {
            key: 'reset',
            label: t('accounts.action.resetPassword'),
            confirm: t('accounts.confirm.resetPassword'),
            onClick: (row) => call('accountResetPassword', { id: row.id }, { success: true }),
            permission: permission('edit'),
          },
          deleteAction({
            label: t('accounts.action.delete'),
            confirm: t('accounts.confirm.delete'),
            remove: (row) => call('accountDelete', { id: row.id }, { success: true }),
            hidden: (row) => row.username === me,
          }),
        ],
      },
    ],
    [t, me, permission, editAction, deleteAction],
  );

  return (
    <>
      <CrudTable<Account>
        queryKey={configKeys.accounts}
        fetch={({ page, limit, filters }) => call('accountList', { page, limit, ...filters })}
        columns={columns}
        searchItems={searchItems}
        scroll={{ x: 1100 }}
      />
      <AccountFormDialog units={units.tree} unitsListed={units.allowed} isAdmin={isAdmin} {...dialog} />
    </>
  );
}
