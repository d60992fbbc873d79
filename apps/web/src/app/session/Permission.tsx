import type { Action } from '@bwc/protocol';
import { can } from '@bwc/protocol';
import { cloneElement, isValidElement, useMemo, type ReactElement, type ReactNode } from 'react';
import { permissionMap } from './permissions';
import { useUserContext } from './queries';

/** True when the user's role holds `action` on `menuId` (the server enforces the same rule). */
export function usePermission(menuId: number, action: Action = 'view'): boolean {
  const { data } = useUserContext();
  const map = useMemo(() => permissionMap(data), [data]);
  return can(map, menuId, action);
}

interface PermissionProps {
  menu: number;
  action: Action;
  /** `hide` (default) renders nothing without the permission; `disable` renders the child with disabled */
  mode?: 'hide' | 'disable';
  children: ReactNode;
}

/** Hides (or disables) its child when the user lacks `action` on `menu`. */
export function Permission({ menu, action, mode = 'hide', children }: PermissionProps) {
  const allowed = usePermission(menu, action);
  if (allowed) return <>{children}</>;
  if (mode === 'disable' && isValidElement(children))
    return cloneElement(children as ReactElement<{ disabled?: boolean }>, { disabled: true });
  return null;
}
