import { MenuId, type OnlineUser } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { readLoggedIn } from '../../../api/session';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import type { FilterValues, SearchItem } from '../../../components/search-bar';
import { configKeys } from '../configcenter.api';
import { QueryError } from '../../../components/crud';

const edit = { menu: MenuId.ACCOUNTS, action: 'edit' } as const;

function matches(row: OnlineUser, filters: FilterValues): boolean {
  const keyword = typeof filters.keyword === 'string' ? filters.keyword.trim().toLowerCase() : '';
  if (!keyword) return true;
  return [row.username, row.hostname, row.dname, row.ip].some((field) => field.toLowerCase().includes(keyword));
}

const time = (value: string) => (value ? dayjs(value).format('YYYY-MM-DD HH:mm:ss') : '');

/** Active sessions of the caller's scope (`other/user/online`), with force-off (`del_online`). */
export function OnlineUsersTab() {
  const { t } = useTranslation('configcenter');
  const me = readLoggedIn()?.username;
  const online = useQuery({
    queryKey: configKeys.online,
    queryFn: ({ signal }) => call('onlineUsers', {}, { signal }),
  });

  const searchItems = useMemo<SearchItem[]>(
    () => [
      {
        type: 'text',
        name: 'keyword',
        label: t('online.filter.keyword'),
        placeholder: t('online.filter.keywordPlaceholder'),
      },
      { type: 'button', key: 'refresh', label: t('online.action.refresh'), onClick: () => void online.refetch() },
    ],
    [t, online],
  );

  const columns = useMemo<DataTableColumn<OnlineUser>[]>(
    () => [
      { title: t('online.column.username'), dataIndex: 'username', key: 'username', width: 140 },
      { title: t('online.column.hostname'), dataIndex: 'hostname', key: 'hostname', width: 120 },
      { title: t('online.column.unit'), dataIndex: 'dname', key: 'dname', ellipsis: true },
      { title: t('online.column.role'), dataIndex: 'group_name', key: 'group_name', width: 130 },
      { title: t('online.column.ip'), dataIndex: 'ip', key: 'ip', width: 130 },
      { title: t('online.column.loginTime'), dataIndex: 'login_time', key: 'login_time', width: 170, render: time },
      { title: t('online.column.lastSeen'), dataIndex: 'last_seen', key: 'last_seen', width: 170, render: time },
      {
        kind: 'operation',
        width: 120,
        actions: [
          {
            key: 'off',
            label: t('online.action.forceOff'),
            danger: true,
            confirm: t('online.confirm.forceOff'),
            onClick: (row) => call('forceOffline', { id: row.id }, { success: true }).then(() => online.refetch()),
            hidden: (row) => row.username === me,
            permission: edit,
          },
        ],
      },
    ],
    [t, me, online],
  );

  if (online.isError && !online.data) return <QueryError error={online.error} onRetry={() => void online.refetch()} />;
  return (
    <>
      <Typography.Paragraph type="secondary">{t('online.hint')}</Typography.Paragraph>
      <DataTable<OnlineUser>
        urlKey="online"
        rowKey="session_id"
        columns={columns}
        dataSource={online.data ?? []}
        loading={online.isFetching}
        clientFilter={matches}
        searchItems={searchItems}
      />
    </>
  );
}
