import type { ReactNode } from 'react';
import type { Gated } from './permission';

/** A committed filter value as it travels in the URL and to the server: one string or several. */
export type FilterValue = string | string[];
export type FilterValues = Record<string, FilterValue | undefined>;

/** Wire formats of the date pickers (the server parses these). */
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export const DATE_FORMAT = 'YYYY-MM-DD';

interface FilterItemBase {
  label?: ReactNode;
  /** Show the item only while another filter holds this value (spec: a date range shown when a select equals 3). */
  showWhen?: { field: string; equals: string | number };
  /** Control width in px. */
  width?: number;
}

/** Text input; Enter (or the search button) searches. */
export interface TextFilterItem extends FilterItemBase {
  type: 'text';
  name: string;
  placeholder?: string;
}

/** Date-time range with the shortcuts last 7 / 30 / 90 days; writes two parameters. */
export interface DateTimeRangeFilterItem extends FilterItemBase {
  type: 'dateTimeRange';
  names: [start: string, end: string];
}

/** Plain date range; writes two parameters. */
export interface DateRangeFilterItem extends FilterItemBase {
  type: 'dateRange';
  names: [start: string, end: string];
}

export interface FilterOption {
  value: string | number;
  label: ReactNode;
}

/** Select; empty means "unlimited" (its placeholder unless one is given). */
export interface SelectFilterItem extends FilterItemBase {
  type: 'select';
  name: string;
  options: FilterOption[];
  placeholder?: string;
}

export interface TreeFilterOption {
  value: string | number;
  title: ReactNode;
  children?: TreeFilterOption[];
  disabled?: boolean;
}

/** Tree select, single or multi-check (multi writes the parameter once per checked value). */
export interface TreeSelectFilterItem extends FilterItemBase {
  type: 'treeSelect';
  name: string;
  treeData: TreeFilterOption[];
  multiple?: boolean;
  placeholder?: string;
}

export interface CustomFilterControl {
  value: FilterValue | undefined;
  /** Changes the value and searches at once. */
  onChange: (value: FilterValue | undefined) => void;
}

/** Slot for a control the bar does not know, typically the unit picker (`UnitTreeSelect`). */
export interface CustomFilterItem extends FilterItemBase {
  type: 'custom';
  name: string;
  render: (control: CustomFilterControl) => ReactNode;
}

export interface ButtonBarItem extends Gated {
  type: 'button';
  key: string;
  label: ReactNode;
  onClick: () => void;
  icon?: ReactNode;
  primary?: boolean;
  danger?: boolean;
  disabled?: boolean;
}

export interface DropdownMenuEntry extends Gated {
  key: string;
  label: ReactNode;
  onClick: () => void;
  danger?: boolean;
  disabled?: boolean;
}

/** A button opening a menu; hidden when none of its entries may be shown. */
export interface DropdownBarItem extends Gated {
  type: 'dropdown';
  key: string;
  label: ReactNode;
  menu: DropdownMenuEntry[];
  icon?: ReactNode;
  primary?: boolean;
}

export type FilterItem =
  | TextFilterItem
  | DateTimeRangeFilterItem
  | DateRangeFilterItem
  | SelectFilterItem
  | TreeSelectFilterItem
  | CustomFilterItem;
export type ActionItem = ButtonBarItem | DropdownBarItem;
export type SearchItem = FilterItem | ActionItem;

export function isFilterItem(item: SearchItem): item is FilterItem {
  return item.type !== 'button' && item.type !== 'dropdown';
}

/** URL / request parameter names an item owns. */
export function filterNames(item: FilterItem): string[] {
  return 'names' in item ? [...item.names] : [item.name];
}

/** Items whose value is a list. */
export function isMultiValued(item: FilterItem): boolean {
  return item.type === 'treeSelect' && item.multiple === true;
}

function isEmpty(value: FilterValue | undefined): boolean {
  return value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

export function isItemShown(item: FilterItem, values: FilterValues): boolean {
  if (!item.showWhen) return true;
  const current = values[item.showWhen.field];
  return current !== undefined && String(current) === String(item.showWhen.equals);
}

/**
 * Values as they are committed: only names the items own, no empty values, nothing of an item
 * that is currently hidden by its showWhen rule.
 */
export function cleanFilters(items: readonly SearchItem[], values: FilterValues): FilterValues {
  const out: FilterValues = {};
  for (const item of items) {
    if (!isFilterItem(item) || !isItemShown(item, values)) continue;
    for (const name of filterNames(item)) {
      const value = values[name];
      if (!isEmpty(value)) out[name] = value;
    }
  }
  return out;
}
