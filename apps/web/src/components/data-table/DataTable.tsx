import { TABLE_INDEX_COLUMN_WIDTH, TABLE_PAGE_SIZES } from '@bwc/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Empty, Pagination, Popconfirm, Space, Switch, Table } from 'antd';
import type { TableColumnType, TableProps } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState, type Key, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchBar, usePermissionCheck, type FilterValues, type SearchItem } from '../search-bar';
import {
  readFlag,
  type DataTableColumn,
  type Row,
  type RowAction,
  type RowFlag,
  type TablePage,
  type TableQuery,
  type TableSelection,
} from './data-table.types';
import { useTableUrlState } from './useTableUrlState';
import './data-table.css';

/** A field no row has: antd reads nested rows from `children` unless told another field. */
const NOT_A_TREE = '__bwc_no_children__';

export interface DataTableProps<T extends Row> {
  columns: readonly DataTableColumn<T>[];
  /** Field holding the row key, or a function; `id` by default. */
  rowKey?: string | ((row: T) => Key);
  /** Search bar above the table; its filters and the page live in the URL. */
  searchItems?: readonly SearchItem[];
  /** Filters in force when the URL says nothing about them. */
  defaultFilters?: FilterValues;
  /** Prefix of this table's URL parameters, needed when a page holds several tables. */
  urlKey?: string;
  /** Server paging: called with page, size and filters. Needs `queryKey`. */
  fetch?: (query: TableQuery) => Promise<TablePage<T>>;
  /** TanStack Query key prefix of `fetch`; invalidate it to reload the table. */
  queryKey?: readonly unknown[];
  /** Client paging: every row, paged (and filtered by `clientFilter`) in memory. */
  dataSource?: readonly T[];
  clientFilter?: (row: T, filters: FilterValues) => boolean;
  /** Loading state for client paging (server paging knows its own). */
  loading?: boolean;
  /** Index column, two-digit zero padded, counting on across pages. On by default. */
  showIndex?: boolean;
  selection?: TableSelection<T>;
  /** Rows to highlight (e.g. field `select`). */
  flagBy?: RowFlag<T>;
  /** Tree-type rows: children under this field (antd's `children` by default). */
  tree?: { childrenField?: string; defaultExpandAll?: boolean };
  /** Pagination under the table; on by default. */
  pagination?: boolean;
  striped?: boolean;
  bordered?: boolean;
  size?: TableProps<T>['size'];
  scroll?: TableProps<T>['scroll'];
  /** Extra content at the end of the search bar. */
  searchExtra?: ReactNode;
}

const NO_SEARCH_ITEMS: readonly SearchItem[] = [];

/** The least a column without a width keeps when the table scrolls sideways (`scroll.x`). */
export const FLEX_COLUMN_MIN_WIDTH = 100;

/**
 * The sideways scroll width: the page's `scroll.x`, widened so that every column without a width
 * keeps FLEX_COLUMN_MIN_WIDTH beside the fixed ones. Otherwise antd gives such a column only what
 * `x` leaves over, and nothing once the fixed widths reach it (the workstation list drew its unit
 * column 0 pixels wide).
 */
export function fitScrollX<T>(
  scroll: TableProps<T>['scroll'],
  columns: readonly TableColumnType<T>[],
  extra = 0,
): TableProps<T>['scroll'] {
  if (typeof scroll?.x !== 'number') return scroll;
  let fixed = extra;
  let flexible = 0;
  for (const column of columns) {
    if (typeof column.width === 'number') fixed += column.width;
    else flexible++;
  }
  const x = Math.max(scroll.x, fixed + flexible * FLEX_COLUMN_MIN_WIDTH);
  return x === scroll.x ? scroll : { ...scroll, x };
}

/** Row number as the spec shows it: two digits at least. */
export function formatIndex(position: number): string {
  return String(position).padStart(2, '0');
}

/**
 * Data table with an optional search bar (spec part 2 section 2.4). Pages on the server (`fetch`)
 * or in memory (`dataSource`); filters and page are kept in the URL.
 */
export function DataTable<T extends Row>(props: DataTableProps<T>) {
  const {
    columns,
    rowKey = 'id',
    searchItems = NO_SEARCH_ITEMS,
    defaultFilters,
    urlKey,
    fetch,
    queryKey,
    dataSource,
    clientFilter,
    showIndex = true,
    selection,
    flagBy,
    tree,
    pagination = true,
    striped = true,
    bordered = true,
    size = 'middle',
    scroll,
    searchExtra,
  } = props;
  const { t } = useTranslation('components');
  const allowed = usePermissionCheck();
  const { filters, page, limit, setFilters, setPage } = useTableUrlState(searchItems, urlKey, defaultFilters);

  const serverPaged = fetch !== undefined;
  const query = useQuery({
    queryKey: [...(queryKey ?? ['data-table', urlKey ?? '']), { page, limit, filters }],
    queryFn: () => fetch!({ page, limit, filters }),
    enabled: serverPaged,
    placeholderData: keepPreviousData,
  });

  const clientRows = useMemo(() => {
    if (serverPaged) return [];
    const all = dataSource ?? [];
    return clientFilter ? all.filter((row) => clientFilter(row, filters)) : [...all];
  }, [serverPaged, dataSource, clientFilter, filters]);

  const total = serverPaged ? (query.data?.total ?? 0) : clientRows.length;
  const rows = useMemo(
    () =>
      serverPaged
        ? (query.data?.list ?? [])
        : pagination
          ? clientRows.slice((page - 1) * limit, page * limit)
          : clientRows,
    [serverPaged, query.data, pagination, clientRows, page, limit],
  );
  const loading = serverPaged ? query.isFetching : (props.loading ?? false);

  // Past the last page (rows deleted, a shared link gone stale): show the last page instead.
  const lastPage = Math.max(1, Math.ceil(total / limit));
  const settled = !serverPaged || (query.isSuccess && !query.isPlaceholderData);
  useEffect(() => {
    if (settled && total > 0 && page > lastPage) setPage(lastPage);
  }, [settled, total, page, lastPage, setPage]);

  const keyOf = useCallback(
    (row: T): Key => (typeof rowKey === 'function' ? rowKey(row) : ((row as Record<string, unknown>)[rowKey] as Key)),
    [rowKey],
  );

  const reload = useCallback(async () => {
    if (serverPaged) await query.refetch();
  }, [serverPaged, query]);

  // Selection: controlled or own; rows remembered by key so that selections survive paging.
  const [ownKeys, setOwnKeys] = useState<Key[]>([]);
  const selectedKeys = selection?.selectedRowKeys ?? ownKeys;
  const knownRows = useRef(new Map<Key, T>());
  const preselectionDone = useRef(new Set<Key>());
  const selectionRef = useRef(selection);
  selectionRef.current = selection;
  const selectedRef = useRef(selectedKeys);
  selectedRef.current = selectedKeys;

  const applySelection = useCallback((keys: Key[]) => {
    setOwnKeys(keys);
    const rowsOfKeys = keys.map((key) => knownRows.current.get(key)).filter((row): row is T => row !== undefined);
    selectionRef.current?.onChange?.(keys, rowsOfKeys);
  }, []);

  useEffect(() => {
    const visit = (list: readonly T[]) => {
      for (const row of list) {
        knownRows.current.set(keyOf(row), row);
        const children = (row as Record<string, unknown>)[tree?.childrenField ?? 'children'];
        if (Array.isArray(children)) visit(children as T[]);
      }
    };
    visit(rows);
    const current = selectionRef.current;
    if (!current?.preselectedBy) return;
    const fresh = rows.filter((row) => !preselectionDone.current.has(keyOf(row)));
    for (const row of fresh) preselectionDone.current.add(keyOf(row));
    const picked = fresh
      .filter((row) => readFlag(row, current.preselectedBy) && !readFlag(row, current.disabledBy))
      .map(keyOf);
    if (picked.length === 0) return;
    const existing = selectedRef.current;
    const next =
      current.type === 'radio'
        ? existing.length > 0
          ? existing
          : picked.slice(0, 1)
        : [...new Set([...existing, ...picked])];
    if (next.length !== existing.length) applySelection(next);
  }, [rows, keyOf, tree?.childrenField, applySelection]);

  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const run = useCallback(
    async (id: string, work: () => Promise<unknown> | void) => {
      const result = work();
      if (!(result instanceof Promise)) return;
      setPending((current) => new Set(current).add(id));
      try {
        await result;
        await reload();
      } catch {
        // The http layer already told the user; the row keeps its previous state.
      } finally {
        setPending((current) => {
          const next = new Set(current);
          next.delete(id);
          return next;
        });
      }
    },
    [reload],
  );

  const renderAction = (action: RowAction<T>, row: T): ReactNode => {
    if (action.hidden?.(row)) return null;
    const id = `${action.key}:${String(keyOf(row))}`;
    const button = (
      <Button
        key={action.key}
        type="link"
        size="small"
        danger={action.danger}
        disabled={action.disabled?.(row)}
        loading={pending.has(id)}
        onClick={action.confirm ? undefined : () => void run(id, () => action.onClick(row))}
      >
        {action.label}
      </Button>
    );
    if (!action.confirm) return button;
    return (
      <Popconfirm
        key={action.key}
        title={action.confirm}
        okText={t('table.confirm')}
        cancelText={t('table.cancel')}
        onConfirm={() => run(id, () => action.onClick(row))}
      >
        {button}
      </Popconfirm>
    );
  };

  const antdColumns: TableColumnType<T>[] = [];
  if (showIndex) {
    antdColumns.push({
      key: '__index',
      title: t('table.index'),
      width: TABLE_INDEX_COLUMN_WIDTH,
      align: 'center',
      // Tree-type rows: only top-level rows are numbered.
      render: (_value, row) => {
        const position = rows.indexOf(row);
        return position < 0 ? null : formatIndex((pagination ? (page - 1) * limit : 0) + position + 1);
      },
    });
  }
  for (const column of columns) {
    switch (column.kind) {
      case undefined: {
        if (!allowed(column)) break;
        const { permission: _permission, visible: _visible, kind: _kind, ...plain } = column;
        antdColumns.push(plain);
        break;
      }
      case 'switch': {
        const writable = allowed(column);
        antdColumns.push({
          key: column.key,
          title: column.title,
          width: column.width,
          align: 'center',
          render: (_value, row) => {
            const id = `${column.key}:${String(keyOf(row))}`;
            return (
              <Switch
                size="small"
                checked={column.isOn(row)}
                loading={pending.has(id)}
                disabled={!writable || column.disabled?.(row)}
                onChange={(on) => void run(id, () => column.onToggle(row, on))}
              />
            );
          },
        });
        break;
      }
      case 'action': {
        if (!allowed(column)) break;
        antdColumns.push({
          key: column.key,
          title: column.title,
          width: column.width,
          align: 'center',
          render: (_value, row) => renderAction(column, row),
        });
        break;
      }
      case 'operation': {
        const actions = column.actions.filter(allowed);
        if (actions.length === 0) break;
        antdColumns.push({
          key: column.key ?? '__operation',
          title: column.title ?? t('table.operation'),
          width: column.width,
          fixed: column.fixed,
          align: 'center',
          render: (_value, row) => (
            <Space size={0} wrap>
              {actions.map((action) => renderAction(action, row))}
            </Space>
          ),
        });
        break;
      }
    }
  }

  // a header too wide for its column ends in "…" (app/global.css): its text shows as a tooltip
  const titledColumns = antdColumns.map((column) =>
    typeof column.title === 'string' && !column.onHeaderCell
      ? { ...column, onHeaderCell: () => ({ title: column.title as string }) }
      : column,
  );

  const rowSelection: TableProps<T>['rowSelection'] = selection && {
    type: selection.type,
    selectedRowKeys: selectedKeys,
    preserveSelectedRowKeys: true,
    columnWidth: TABLE_INDEX_COLUMN_WIDTH,
    getCheckboxProps: (row) => ({ disabled: readFlag(row, selection.disabledBy) }),
    onChange: (keys) => applySelection(keys),
  };

  return (
    <div className="bwc-data-table">
      {(searchItems.length > 0 || searchExtra) && (
        <SearchBar
          items={searchItems}
          values={filters}
          onSearch={setFilters}
          resetValues={defaultFilters}
          extra={searchExtra}
        />
      )}
      <Table<T>
        rowKey={keyOf}
        columns={titledColumns}
        dataSource={rows}
        loading={{ spinning: loading, tip: t('table.loading') }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('table.empty')} /> }}
        bordered={bordered}
        size={size}
        scroll={fitScrollX(scroll, titledColumns, selection ? TABLE_INDEX_COLUMN_WIDTH : 0)}
        pagination={false}
        rowSelection={rowSelection}
        expandable={
          tree
            ? {
                childrenColumnName: tree.childrenField ?? 'children',
                defaultExpandAllRows: tree.defaultExpandAll,
                // The expander goes into the first data column, not the narrow index column. antd
                // counts the selection column and takes one off a given index when rows are selectable.
                expandIconColumnIndex: (showIndex ? 1 : 0) + (selection ? 2 : 0),
              }
            : // not a tree: a row that merely carries a `children` field (a talk group's members) gets no expander
              { childrenColumnName: NOT_A_TREE }
        }
        rowClassName={(row, index) =>
          [striped && index % 2 === 1 ? 'bwc-row-striped' : '', readFlag(row, flagBy) ? 'bwc-row-flagged' : '']
            .filter(Boolean)
            .join(' ')
        }
      />
      {pagination && (
        <Pagination
          className="bwc-data-table-pagination"
          current={page}
          pageSize={limit}
          total={total}
          showSizeChanger
          pageSizeOptions={TABLE_PAGE_SIZES.map(String)}
          showQuickJumper
          showTotal={(count) =>
            serverPaged && query.data?.capped
              ? t('table.totalCapped', { total: count })
              : t('table.total', { total: count })
          }
          onChange={(nextPage, nextSize) => setPage(nextPage, nextSize)}
        />
      )}
    </div>
  );
}
