import type { TableColumnType } from 'antd';
import type { Key, ReactNode } from 'react';
import type { FilterValues, Gated } from '../search-bar';

/** What a server-paged table asks for: 1-based page, page size (`limit` as PageQuery names it), filters. */
export interface TableQuery {
  page: number;
  limit: number;
  filters: FilterValues;
}

/** What the fetcher answers (the protocol's `Page<T>` fits). */
export interface TablePage<T> {
  /** 1 when the server counted up to a cap and more match (`total` is then a lower bound) */
  capped?: number;
  total: number;
  list: T[];
}

/** Any row: columns read fields by name. */
export type Row = object;

/** A plain antd column: custom render, custom last column, anything antd can do. */
export type PlainColumn<T> = TableColumnType<T> & { kind?: undefined } & Gated;

/** A switch per row (e.g. enabled, listed on the home page). A promise from onToggle reloads the table when it resolves. */
export interface SwitchColumn<T> extends Gated {
  kind: 'switch';
  key: string;
  title: ReactNode;
  isOn: (row: T) => boolean;
  onToggle: (row: T, on: boolean) => Promise<unknown> | void;
  /** Without permission (see `Gated`) the switch stays visible but read-only. */
  disabled?: (row: T) => boolean;
  width?: number;
}

export interface RowAction<T> extends Gated {
  key: string;
  label: ReactNode;
  /** A returned promise reloads the table when it resolves. */
  onClick: (row: T) => Promise<unknown> | void;
  /** Ask this question first (pop confirm). */
  confirm?: ReactNode;
  danger?: boolean;
  hidden?: (row: T) => boolean;
  disabled?: (row: T) => boolean;
}

/** A column holding one action per row (e.g. "play", "details"). Hidden without permission. */
export interface ActionColumn<T> extends RowAction<T> {
  kind: 'action';
  title: ReactNode;
  width?: number;
}

/** The operation column: several row actions as links. Hidden when none is permitted. */
export interface OperationColumn<T> {
  kind: 'operation';
  key?: string;
  /** Defaults to the catalogue's "operation". */
  title?: ReactNode;
  actions: RowAction<T>[];
  width?: number;
  fixed?: 'left' | 'right';
}

export type DataTableColumn<T> = PlainColumn<T> | SwitchColumn<T> | ActionColumn<T> | OperationColumn<T>;

/** Reads a flag from a row: a field name (truthy value) or a predicate. */
export type RowFlag<T> = string | ((row: T) => boolean);

export interface TableSelection<T> {
  /** 'checkbox' for several rows, 'radio' for the single-choice column. */
  type: 'checkbox' | 'radio';
  /** Controlled selection; without it the table keeps its own. */
  selectedRowKeys?: Key[];
  onChange?: (keys: Key[], rows: T[]) => void;
  /** Rows that cannot be selected (e.g. field `pdname`). */
  disabledBy?: RowFlag<T>;
  /** Rows selected when they first appear (e.g. field `checked`). */
  preselectedBy?: RowFlag<T>;
}

export function readFlag<T>(row: T, flag: RowFlag<T> | undefined): boolean {
  if (flag === undefined) return false;
  if (typeof flag === 'function') return flag(row);
  const value = (row as Record<string, unknown>)[flag];
  return value !== undefined && value !== null && value !== false && value !== 0 && value !== '0' && value !== '';
}
