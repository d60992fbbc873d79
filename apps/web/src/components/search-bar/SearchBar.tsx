import { DownOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, DatePicker, Dropdown, Input, Select, Space, TreeSelect } from 'antd';
import type { TimeRangePickerProps } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { keysOf } from '../../i18n/keys';
import { usePermissionCheck } from './permission';
import {
  DATE_FORMAT,
  DATE_TIME_FORMAT,
  cleanFilters,
  isFilterItem,
  isItemShown,
  type ActionItem,
  type FilterItem,
  type FilterValue,
  type FilterValues,
  type SearchItem,
} from './search-bar.types';
import './search-bar.css';

export interface SearchBarProps {
  items: readonly SearchItem[];
  /** The committed filters (usually from the URL). */
  values: FilterValues;
  /** Called with the cleaned filters when the user searches (Enter, search button, or picking a value). */
  onSearch: (values: FilterValues) => void;
  /** Filters restored by the reset button; empty by default. */
  resetValues?: FilterValues;
  /** Extra content at the end of the bar. */
  extra?: ReactNode;
}

const RANGE_SHORTCUT_DAYS = [7, 30, 90] as const;
const RANGE_SHORTCUT_LABELS = keysOf('components', {
  7: 'search.last7Days',
  30: 'search.last30Days',
  90: 'search.last90Days',
});
const DEFAULT_CONTROL_WIDTH = 180;
const RANGE_CONTROL_WIDTH = 360;

function sameValues(a: FilterValues, b: FilterValues): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function toRange(values: FilterValues, names: [string, string], format: string): [Dayjs, Dayjs] | null {
  const [start, end] = names.map((name) => values[name]);
  if (typeof start !== 'string' || typeof end !== 'string') return null;
  const from = dayjs(start, format);
  const to = dayjs(end, format);
  return from.isValid() && to.isValid() ? [from, to] : null;
}

/**
 * Search bar of a data table (spec part 2 section 2.4), declared as a list of items. Text inputs
 * commit on Enter or the search button; pickers commit as soon as a value is picked.
 */
export function SearchBar({ items, values, onSearch, resetValues, extra }: SearchBarProps) {
  const { t } = useTranslation('components');
  const allowed = usePermissionCheck();
  const [draft, setDraft] = useState<FilterValues>(values);

  // A new committed state (reset, back/forward, another link) replaces whatever was being typed.
  useEffect(() => {
    setDraft((current) => (sameValues(current, values) ? current : values));
  }, [values]);

  const commit = (next: FilterValues) => {
    const cleaned = cleanFilters(items, next);
    setDraft(cleaned);
    onSearch(cleaned);
  };
  const change = (patch: FilterValues, now: boolean) => {
    const next = { ...draft, ...patch };
    if (now) commit(next);
    else setDraft(next);
  };

  const presets: TimeRangePickerProps['presets'] = RANGE_SHORTCUT_DAYS.map((days) => ({
    label: t(RANGE_SHORTCUT_LABELS[days]),
    value: () => [dayjs().subtract(days, 'day'), dayjs()],
  }));

  const renderFilter = (item: FilterItem): ReactNode => {
    const width = item.width;
    // the visible label names the control for assistive technology and for end-to-end tests
    const ariaLabel = typeof item.label === 'string' ? item.label : undefined;
    switch (item.type) {
      case 'text': {
        const value = draft[item.name];
        return (
          <Input
            allowClear
            aria-label={ariaLabel}
            style={{ width: width ?? DEFAULT_CONTROL_WIDTH }}
            placeholder={item.placeholder ?? t('search.inputPlaceholder')}
            value={typeof value === 'string' ? value : ''}
            onChange={(event) => change({ [item.name]: event.target.value }, event.type !== 'change')}
            onPressEnter={() => commit(draft)}
          />
        );
      }
      case 'dateTimeRange':
      case 'dateRange': {
        const withTime = item.type === 'dateTimeRange';
        const format = withTime ? DATE_TIME_FORMAT : DATE_FORMAT;
        const [startName, endName] = item.names;
        return (
          <DatePicker.RangePicker
            aria-label={ariaLabel}
            style={{ width: width ?? RANGE_CONTROL_WIDTH }}
            showTime={withTime}
            format={format}
            presets={withTime ? presets : undefined}
            placeholder={withTime ? [t('search.startTime'), t('search.endTime')] : [t('search.startDate'), t('search.endDate')]}
            value={toRange(draft, item.names, format)}
            onChange={(range) =>
              change(
                {
                  [startName]: range?.[0] ? (withTime ? range[0] : range[0].startOf('day')).format(format) : undefined,
                  [endName]: range?.[1] ? (withTime ? range[1] : range[1].endOf('day')).format(format) : undefined,
                },
                true,
              )
            }
          />
        );
      }
      case 'select': {
        const value = draft[item.name];
        return (
          <Select
            allowClear
            aria-label={ariaLabel}
            style={{ width: width ?? DEFAULT_CONTROL_WIDTH }}
            placeholder={item.placeholder ?? t('search.unlimited')}
            options={item.options.map((option) => ({ value: String(option.value), label: option.label }))}
            value={typeof value === 'string' ? value : undefined}
            onChange={(next: string | undefined) => change({ [item.name]: next }, true)}
          />
        );
      }
      case 'treeSelect': {
        const value = draft[item.name];
        const stringify = (nodes: typeof item.treeData): object[] =>
          nodes.map((node) => ({ ...node, value: String(node.value), children: node.children && stringify(node.children) }));
        return (
          <TreeSelect
            allowClear
            showSearch
            treeNodeFilterProp="title"
            aria-label={ariaLabel}
            style={{ width: width ?? DEFAULT_CONTROL_WIDTH }}
            placeholder={item.placeholder ?? t('search.selectPlaceholder')}
            treeData={stringify(item.treeData)}
            treeCheckable={item.multiple}
            treeDefaultExpandAll
            showCheckedStrategy={TreeSelect.SHOW_ALL}
            maxTagCount="responsive"
            value={item.multiple ? (Array.isArray(value) ? value : value ? [value] : []) : typeof value === 'string' ? value : undefined}
            onChange={(next: FilterValue | undefined) => change({ [item.name]: next }, true)}
          />
        );
      }
      case 'custom':
        return item.render({ value: draft[item.name], onChange: (next) => change({ [item.name]: next }, true) });
    }
  };

  const renderAction = (item: ActionItem): ReactNode => {
    if (!allowed(item)) return null;
    if (item.type === 'button') {
      return (
        <Button
          key={item.key}
          type={item.primary ? 'primary' : 'default'}
          danger={item.danger}
          disabled={item.disabled}
          icon={item.icon}
          onClick={item.onClick}
        >
          {item.label}
        </Button>
      );
    }
    const entries = item.menu.filter(allowed);
    if (entries.length === 0) return null;
    return (
      <Dropdown
        key={item.key}
        trigger={['click']}
        menu={{
          items: entries.map((entry) => ({ key: entry.key, label: entry.label, danger: entry.danger, disabled: entry.disabled })),
          onClick: ({ key }) => entries.find((entry) => entry.key === key)?.onClick(),
        }}
      >
        <Button type={item.primary ? 'primary' : 'default'} icon={item.icon}>
          {item.label} <DownOutlined />
        </Button>
      </Dropdown>
    );
  };

  const filters = items.filter(isFilterItem).filter((item) => isItemShown(item, draft));
  const actions = items.filter((item): item is ActionItem => !isFilterItem(item));

  return (
    <div className="bwc-search-bar" role="search">
      {filters.map((item) => (
        <div key={'names' in item ? item.names.join(',') : item.name} className="bwc-search-bar-item">
          {item.label !== undefined && <span className="bwc-search-bar-label">{item.label}</span>}
          {renderFilter(item)}
        </div>
      ))}
      {filters.length > 0 && (
        <Space>
          <Button type="primary" icon={<SearchOutlined />} onClick={() => commit(draft)}>
            {t('search.search')}
          </Button>
          <Button icon={<ReloadOutlined />} onClick={() => commit(resetValues ?? {})}>
            {t('search.reset')}
          </Button>
        </Space>
      )}
      {actions.length > 0 && <Space wrap>{actions.map(renderAction)}</Space>}
      {extra}
    </div>
  );
}
