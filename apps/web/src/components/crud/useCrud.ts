import type { Action } from '@bwc/protocol';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import type { RowAction } from '../data-table';
import type { FormDialogTargetProps } from '../form-dialog';
import type { SearchItem } from '../search-bar';

export interface CrudOptions {
  /** menu id of the screen: adding needs `add`, editing and deleting `edit` (the server checks the same) */
  menu: number;
  /** query keys of what a save or a delete changes (the list, and other screens showing the entity) */
  invalidate: readonly QueryKey[];
}

export interface DeleteActionOptions<Row> {
  label: ReactNode;
  /** the question of the pop confirm */
  confirm: ReactNode;
  /** the delete call (with `{ success: true }` for the toast) */
  remove: (row: Row) => Promise<unknown>;
  hidden?: (row: Row) => boolean;
}

export interface Crud<Row> {
  /** invalidate the screen's queries (after a change made elsewhere on the screen) */
  reload: () => Promise<unknown>;
  /** hand to the screen's form dialog: `<RoleFormDialog {...crud.dialog} />` */
  dialog: FormDialogTargetProps<Row>;
  create: () => void;
  edit: (row: Row) => void;
  /** the toolbar's add button (primary, needs `add`); it opens the dialog for a new entry unless told otherwise */
  addButton: (label: ReactNode, onClick?: () => void) => SearchItem;
  /** the row's edit link (needs `edit`) */
  editAction: (label: ReactNode) => RowAction<Row>;
  /** the row's delete link: confirm, call, reload (needs `edit`) */
  deleteAction: (options: DeleteActionOptions<Row>) => RowAction<Row>;
  /** a permission of this screen, for the screen's other buttons and actions */
  permission: (action: Action) => { menu: number; action: Action };
}

/**
 * The CRUD screen kit: which entry the form dialog shows, and the permission-gated pieces every
 * entity screen has (add button, edit and delete row actions) for the screen to place in its
 * `DataTable` toolbar and operation column. The builders keep their identity while the dialog
 * opens and closes, so the screen's memoised columns stay put.
 */
export function useCrud<Row>({ menu, invalidate }: CrudOptions): Crud<Row> {
  const client = useQueryClient();
  const keys = useRef(invalidate);
  keys.current = invalidate;
  const reload = useCallback(
    () => Promise.all(keys.current.map((queryKey) => client.invalidateQueries({ queryKey }))),
    [client],
  );
  const [target, setTarget] = useState<Row | 'new' | null>(null);
  const close = useCallback(() => setTarget(null), []);
  const saved = useCallback(() => {
    setTarget(null);
    void reload();
  }, [reload]);

  const builders = useMemo(() => {
    const permission = (action: Action) => ({ menu, action });
    return {
      reload,
      create: () => setTarget('new'),
      edit: (row: Row) => setTarget(() => row),
      permission,
      addButton: (label: ReactNode, onClick: () => void = () => setTarget('new')): SearchItem => ({
        type: 'button',
        key: 'add',
        label,
        primary: true,
        onClick,
        permission: permission('add'),
      }),
      editAction: (label: ReactNode): RowAction<Row> => ({
        key: 'edit',
        label,
        onClick: (row) => setTarget(() => row),
        permission: permission('edit'),
      }),
      deleteAction: ({ label, confirm, remove, hidden }: DeleteActionOptions<Row>): RowAction<Row> => ({
        key: 'delete',
        label,
        danger: true,
        confirm,
        onClick: (row) => remove(row).then(reload),
        hidden,
        permission: permission('edit'),
      }),
    };
  }, [menu, reload]);

  const dialog = useMemo(() => ({ target, onClose: close, onSaved: saved }), [target, close, saved]);
  return { ...builders, dialog };
}
