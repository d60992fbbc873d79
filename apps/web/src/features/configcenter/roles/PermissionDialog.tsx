import { ACTIONS, MenuId, type Action, type Role } from '@bwc/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Checkbox, Modal, Skeleton } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { sessionKeys } from '../../../app/session/queries';
import { usePermission } from '../../../app/session/Permission';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { keysOf } from '../../../i18n/keys';
import { configKeys } from '../configcenter.api';
import { QueryError } from '../../../components/crud';
import {
  columnState,
  grantOf,
  grantsFromTree,
  mayGrant,
  rowState,
  setAction,
  setColumn,
  setRow,
  toPayload,
  toRows,
  type CheckState,
  type GrantMap,
  type PermissionRow,
} from './permissionTree';

const ACTION_LABELS = keysOf('configcenter', {
  view: 'roles.perm.view',
  edit: 'roles.perm.edit',
  add: 'roles.perm.add',
} satisfies Record<Action, string>);

interface PermissionDialogProps {
  role: Role | null;
  onClose: () => void;
}

function checkProps(state: CheckState) {
  return { checked: state === 'all', indeterminate: state === 'some' };
}

/**
 * Permission distribution of one role: every module of the catalogue as a tree with view / edit /
 * add per module, a select-all per row (module and its sub-modules) and per column. Saving
 * replaces the role's permissions; its users get them at their next request.
 */
export function PermissionDialog({ role, onClose }: PermissionDialogProps) {
  const { t } = useTranslation('configcenter');
  const { t: tm } = useTranslation('menu');
  const client = useQueryClient();
  const writable = usePermission(MenuId.ROLES, 'edit');
  const [grants, setGrants] = useState<GrantMap>(new Map());
  const [saving, setSaving] = useState(false);

  const auth = useQuery({
    queryKey: [...configKeys.roleAuth, role?.id],
    queryFn: ({ signal }) => call('roleAuthGet', { id: role!.id }, { signal }),
    enabled: role !== null,
    gcTime: 0,
  });
  const rows = useMemo(() => toRows(auth.data?.modules ?? []), [auth.data]);
  const grantable = useMemo(() => auth.data?.grantable ?? {}, [auth.data]);
  useEffect(() => {
    if (auth.data) setGrants(grantsFromTree(auth.data.modules));
  }, [auth.data]);

  const label = (action: Action) => t(ACTION_LABELS[action]);
  const columns = useMemo<DataTableColumn<PermissionRow>[]>(
    () => [
      { title: t('roles.perm.module'), dataIndex: 'key', key: 'module', render: (key: string) => tm(key) },
      {
        title: t('roles.perm.all'),
        key: 'all',
        width: 90,
        align: 'center',
        render: (_value, row) => (
          <Checkbox
            aria-label={t('roles.perm.rowAll', { name: tm(row.key) })}
            disabled={!writable || saving}
            {...checkProps(rowState(grants, row))}
            onChange={(e) => setGrants((g) => setRow(g, row, e.target.checked, grantable))}
          />
        ),
      },
      ...ACTIONS.map<DataTableColumn<PermissionRow>>((action) => ({
        key: action,
        width: 110,
        align: 'center',
        title: (
          <Checkbox
            disabled={!writable || saving}
            {...checkProps(columnState(grants, rows, action))}
            onChange={(e) => setGrants((g) => setColumn(g, rows, action, e.target.checked, grantable))}
          >
            {label(action)}
          </Checkbox>
        ),
        render: (_value: unknown, row: PermissionRow) => (
          <Checkbox
            aria-label={`${tm(row.key)} ${label(action)}`}
            data-testid={`perm-${row.id}-${action}`}
            checked={grantOf(grants, row.id)[action] === 1}
            disabled={!writable || saving || !mayGrant(grantable, row.id, action)}
            onChange={(e) => setGrants((g) => setAction(g, row.id, action, e.target.checked, grantable))}
          />
        ),
      })),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- label follows t
    [t, tm, grants, grantable, rows, writable, saving],
  );

  const save = async () => {
    if (!role) return;
    setSaving(true);
    try {
      await call('roleAuthUpdate', { id: role.id, permissions: toPayload(grants, rows) }, { success: true });
      // the caller's own menu may have changed too
      await Promise.all([
        client.invalidateQueries({ queryKey: configKeys.all }),
        client.invalidateQueries({ queryKey: sessionKeys.userContext }),
      ]);
      onClose();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={role !== null}
      title={t('roles.perm.title', { name: role?.name ?? '' })}
      onCancel={onClose}
      onOk={() => void save().catch(() => undefined)}
      okText={t('action.save')}
      okButtonProps={{ disabled: !writable || !auth.data, style: writable ? undefined : { display: 'none' } }}
      confirmLoading={saving}
      width={860}
      destroyOnHidden
    >
      <Alert type="info" showIcon message={t('roles.perm.hint')} style={{ marginBottom: 12 }} />
      {auth.isError ? (
        <QueryError error={auth.error} onRetry={() => void auth.refetch()} />
      ) : !auth.data ? (
        <Skeleton active />
      ) : (
        <DataTable<PermissionRow>
          urlKey="perm"
          columns={columns}
          dataSource={rows}
          showIndex={false}
          pagination={false}
          size="small"
          scroll={{ y: 460 }}
          tree={{ childrenField: 'subs', defaultExpandAll: false }}
        />
      )}
    </Modal>
  );
}
