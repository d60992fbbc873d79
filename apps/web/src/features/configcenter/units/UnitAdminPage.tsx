import { MenuId } from '@bwc/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Card, Typography } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { useUserInfo } from '../../../app/session/queries';
import { DataTable, useTableUrlState, type DataTableColumn } from '../../../components/data-table';
import type { SearchItem } from '../../../components/search-bar';
import { configKeys } from '../configcenter.api';
import { QueryError } from '../QueryError';
import { UnitFormDialog, type UnitEditing } from './UnitFormDialog';
import { UnitMoveDialog } from './UnitMoveDialog';
import type { UnitRow } from './unitTree';
import { useUnits } from './useUnits';

const add = { menu: MenuId.UNITS, action: 'add' } as const;
const edit = { menu: MenuId.UNITS, action: 'edit' } as const;

/**
 * /configcenter/UnitAdmin: the units of the caller's scope as a tree (a unit administrator sees
 * his own subtree), search by name or code, add, rename / re-code, move and delete.
 */
export function UnitAdminPage() {
  const { t } = useTranslation('configcenter');
  const client = useQueryClient();
  const isAdmin = useUserInfo().data?.ifadmin === 1;
  const [editing, setEditing] = useState<UnitEditing>(null);
  const [moving, setMoving] = useState<UnitRow | null>(null);

  const searchItems = useMemo<SearchItem[]>(
    () => [
      {
        type: 'text',
        name: 'keyword',
        label: t('units.filter.keyword'),
        placeholder: t('units.filter.keywordPlaceholder'),
        width: 240,
      },
      {
        type: 'button',
        key: 'add',
        label: t('units.action.add'),
        primary: true,
        onClick: () => setEditing({ mode: 'add' }),
        permission: add,
      },
    ],
    [t],
  );
  const { filters } = useTableUrlState(searchItems);
  const keyword = typeof filters.keyword === 'string' ? filters.keyword : undefined;
  const units = useUnits(keyword);
  // pickers always offer the whole scope, whatever the search shows
  const all = useUnits(undefined);

  const reload = useCallback(() => client.invalidateQueries({ queryKey: configKeys.all }), [client]);
  const ownRoot = useCallback((row: UnitRow) => !isAdmin && row.depth === 0, [isAdmin]);

  const columns = useMemo<DataTableColumn<UnitRow>[]>(
    () => [
      {
        title: t('units.column.name'),
        dataIndex: 'name',
        key: 'name',
        render: (name: string) => <Typography.Text strong={false}>{name}</Typography.Text>,
      },
      { title: t('units.column.code'), dataIndex: 'bh', key: 'bh', width: 150 },
      { title: t('units.column.sort'), dataIndex: 'sort', key: 'sort', width: 80, align: 'center' },
      { title: t('units.column.children'), dataIndex: 'children', key: 'children', width: 90, align: 'center' },
      { title: t('units.column.users'), dataIndex: 'users', key: 'users', width: 90, align: 'center' },
      { title: t('units.column.devices'), dataIndex: 'devices', key: 'devices', width: 90, align: 'center' },
      {
        kind: 'operation',
        width: 300,
        actions: [
          {
            key: 'addChild',
            label: t('units.action.addChild'),
            onClick: (row) => setEditing({ mode: 'add', parent: row }),
            permission: add,
          },
          {
            key: 'edit',
            label: t('units.action.edit'),
            onClick: (row) => setEditing({ mode: 'edit', unit: row }),
            permission: edit,
          },
          // a unit administrator's own unit (the root of his view) is not his to move or delete
          {
            key: 'move',
            label: t('units.action.move'),
            onClick: (row) => setMoving(row),
            hidden: ownRoot,
            permission: edit,
          },
          {
            key: 'delete',
            label: t('units.action.delete'),
            danger: true,
            confirm: t('units.confirm.delete'),
            onClick: (row) => call('unitDelete', { id: row.id }, { success: true }).then(reload),
            hidden: ownRoot,
            permission: edit,
          },
        ],
      },
    ],
    [t, reload, ownRoot],
  );

  return (
    <Card title={t('units.title')} extra={<Typography.Text type="secondary">{t('units.scopeHint')}</Typography.Text>}>
      {units.isError && !units.data ? (
        <QueryError error={units.error} onRetry={() => void units.refetch()} />
      ) : (
        <DataTable<UnitRow>
          // antd expands all rows only when they are there at mount: remount once the search's units arrive
          key={`${keyword ?? ''}|${units.data ? 'loaded' : 'loading'}`}
          columns={columns}
          dataSource={units.tree}
          loading={units.isFetching}
          searchItems={searchItems}
          pagination={false}
          tree={{ childrenField: 'subunits', defaultExpandAll: true }}
        />
      )}
      <UnitFormDialog
        editing={editing}
        units={all.tree}
        flat={all.flat}
        isAdmin={isAdmin}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          void reload();
        }}
      />
      <UnitMoveDialog
        unit={moving}
        units={all.tree}
        flat={all.flat}
        isAdmin={isAdmin}
        onClose={() => setMoving(null)}
        onSaved={() => {
          setMoving(null);
          void reload();
        }}
      />
    </Card>
  );
}
