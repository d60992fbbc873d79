import { Card } from 'antd';
import type { ReactNode } from 'react';
import type { Row } from '../data-table';
import { CrudTable, type CrudTableProps } from './CrudTable';

export interface CrudPageProps<T extends Row> extends CrudTableProps<T> {
  title: ReactNode;
  /** top right of the card (a hint) */
  extra?: ReactNode;
  /** the screen's form dialog (`<RoleFormDialog {...crud.dialog} />`) */
  dialog: ReactNode;
  /** other dialogs of the screen */
  children?: ReactNode;
}

/**
 * One entity screen: a card with its list (`CrudTable`: toolbar, table, paging) and its form
 * dialog. Build the toolbar and the operation column with `useCrud`'s pieces.
 */
export function CrudPage<T extends Row>({ title, extra, dialog, children, ...table }: CrudPageProps<T>) {
  return (
    <Card title={title} extra={extra}>
      <CrudTable<T> {...table} />
      {dialog}
      {children}
    </Card>
  );
}
