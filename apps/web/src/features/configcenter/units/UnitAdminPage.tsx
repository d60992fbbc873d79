import { MenuId } from '@bwc/protocol';
import { Card, Typography } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { useUserInfo } from '../../../app/session/queries';
import { CrudTable, useCrud } from '../../../components/crud';
import { useTableUrlState, type DataTableColumn } from '../../../components/data-table';
import type { SearchItem } from '../../../components/search-bar';
import { configKeys } from '../configcenter.api';
import { UnitFormDialog } from './UnitFormDialog';
import { UnitMoveDialog } from './UnitMoveDialog';
import type { UnitRow } from './unitTree';
import { useUnits } from './useUnits';

/**
 * /configcenter/UnitAdmin: the units of the caller's scope as a tree (a unit administrator sees
 * his own subtree), search by name or code, add, rename / re-code, move and delete.
 */
export function UnitAdminPage() {
  const { t } = useTranslation('configcenter');
  const isAdmin = useUserInfo().data?.ifadmin === 1;
  const { dialog, reload, create, addButton, editAction, deleteAction, permission } = useCrud<UnitRow>({
    menu: MenuId.UNITS,
    invalidate: [configKeys.all],
  });
  // a new unit goes under the row whose "add child" was clicked (none from the toolbar)
  const [parent, setParent] = useState<UnitRow>();
  const addUnder = useCallback(
    (row?: UnitRow) => {
      setParent(row);
      create();
    },
    [create],
  );
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
      addButton(t('units.action.add'), () => addUnder()),
    ],
    [t, addButton, addUnder],
  );
  const { filters } = useTableUrlState(searchItems);
  const keyword = typeof filters.keyword === 'string' ? filters.keyword : undefined;
  const units = useUnits(keyword);
  // pickers always offer the whole scope, whatever the search shows
  const all = useUnits(undefined);

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
          { key: 'addChild', label: t('units.action.addChild'), onClick: addUnder, permission: permission('add') },
          editAction(t('units.action.edit')),
          // a unit administrator's own unit (the root of his view) is not his to move or delete
          {
            key: 'move',
            label: t('units.action.move'),
            onClick: (row) => setMoving(row),
            hidden: ownRoot,
            permission: permission('edit'),
          },
          deleteAction({
            label: t('units.action.delete'),
            confirm: t('units.confirm.delete'),
            remove: (row) => call('unitDelete', { id: row.id }, { success: true }),
            hidden: ownRoot,
          }),
        ],
      },
    ],
    [t, ownRoot, addUnder, permission, editAction, deleteAction],
  );

  return (
    <Card title={t('units.title')} extra={<Typography.Text type="secondary">{t('units.scopeHint')}</Typography.Text>}>
      <CrudTable<UnitRow>
        // antd expands all rows only when they are there at mount: remount once the search's units arrive
        key={`${keyword ?? ''}|${units.data ? 'loaded' : 'loading'}`}
        columns={columns}
        rows={units}
        searchItems={searchItems}
        pagination={false}
        tree={{ childrenField: 'subunits', defaultExpandAll: true }}
      />
      <UnitFormDialog parent={parent} units={all.tree} flat={all.flat} isAdmin={isAdmin} {...dialog} />
      <UnitMoveDialog
        target={moving}
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
