import { MenuId } from '@bwc/protocol';
import type { ReactNode } from 'react';
import { Lazy } from '../../app/routing/guards';
import { lazyPage } from '../../app/routing/lazyPage';

const UnitAdminPage = lazyPage(() => import('./units/UnitAdminPage'), 'UnitAdminPage', ['configcenter']);
const AccountAdminPage = lazyPage(() => import('./accounts/AccountAdminPage'), 'AccountAdminPage', ['configcenter']);
const RoleAdminPage = lazyPage(() => import('./roles/RoleAdminPage'), 'RoleAdminPage', ['configcenter']);
const OperationLogPage = lazyPage(() => import('./oplog/OperationLogPage'), 'OperationLogPage', ['configcenter']);
const DataDictionaryPage = lazyPage(() => import('./dictionary/DataDictionaryPage'), 'DataDictionaryPage', [
  'configcenter',
]);

/**
 * Built pages of /configcenter by menu id. `app/routing/moduleRoutes.tsx` puts each in place of
 * the module's "not built yet" page, inside its `<ModuleGate>`.
 */
export const configcenterPages: Readonly<Record<number, ReactNode>> = {
  [MenuId.UNITS]: (
    <Lazy>
      <UnitAdminPage />
    </Lazy>
  ),
  [MenuId.ACCOUNTS]: (
    <Lazy>
      <AccountAdminPage />
    </Lazy>
  ),
  [MenuId.ROLES]: (
    <Lazy>
      <RoleAdminPage />
    </Lazy>
  ),
  [MenuId.OPERATION_LOG]: (
    <Lazy>
      <OperationLogPage />
    </Lazy>
  ),
  [MenuId.DATA_DICTIONARY]: (
    <Lazy>
      <DataDictionaryPage />
    </Lazy>
  ),
};
