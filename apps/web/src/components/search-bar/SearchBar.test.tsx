import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MenuId } from '@bwc/protocol';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../test-utils';
import { SearchBar } from './SearchBar';
import { DATE_TIME_FORMAT, cleanFilters, type FilterValues, type SearchItem } from './search-bar.types';

afterEach(cleanup);

const typeOptions = [
  { value: 1, label: 'one' },
  { value: 3, label: 'three' },
];

/** Opens an antd select (found by its placeholder or the container) and picks an option by its text. */
async function pick(container: HTMLElement, optionText: string) {
  const selector = container.querySelector('.ant-select-selector');
  if (!selector) throw new Error('no select');
  fireEvent.mouseDown(selector);
  const option = await waitFor(() => {
    const found = [...document.querySelectorAll('.ant-select-item-option-content, .ant-select-tree-title')].find(
      (node) => node.textContent === optionText,
    );
    if (!found) throw new Error(`option ${optionText} not shown`);
    return found as HTMLElement;
  });
  fireEvent.click(option);
}

function itemContaining(label: string): HTMLElement {
  const item = screen.getByText(label).closest('.bwc-search-bar-item');
  if (!item) throw new Error(`no item ${label}`);
  return item as HTMLElement;
}

describe('SearchBar', () => {
  it('searches a text input on Enter only', async () => {
    const onSearch = vi.fn();
    await renderWidget(<SearchBar items={[{ type: 'text', name: 'keyword', label: 'kw' }]} values={{}} onSearch={onSearch} />);
    const input = screen.getByRole('textbox', { name: 'kw' });
    await userEvent.type(input, 'abc');
    expect(onSearch).not.toHaveBeenCalled();
    await userEvent.type(input, '{Enter}');
    expect(onSearch).toHaveBeenLastCalledWith({ keyword: 'abc' });
  });

  it('shows the unlimited placeholder in both languages and searches when a value is picked', async () => {
    const onSearch = vi.fn();
    const items: SearchItem[] = [{ type: 'select', name: 'type', label: 'type', options: typeOptions }];
    const first = await renderWidget(<SearchBar items={items} values={{}} onSearch={onSearch} />);
    expect(screen.getByText('不限')).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'type' })).toBeTruthy();
    await pick(itemContaining('type'), 'three');
    expect(onSearch).toHaveBeenLastCalledWith({ type: '3' });
    first.unmount();
    await renderWidget(<SearchBar items={items} values={{}} onSearch={onSearch} />, { language: 'en-US' });
    expect(screen.getByText('Any')).toBeTruthy();
  });

  it('shows a dependent date range only while the other select equals 3 and drops its value otherwise', async () => {
    const items: SearchItem[] = [
      { type: 'select', name: 'type', label: 'type', options: typeOptions },
      { type: 'dateRange', names: ['from', 'to'], label: 'range', showWhen: { field: 'type', equals: 3 } },
    ];
    const onSearch = vi.fn();
    const view = await renderWidget(<SearchBar items={items} values={{ type: '1' }} onSearch={onSearch} />);
    expect(screen.queryByText('range')).toBeNull();
    view.rerender(<SearchBar items={items} values={{ type: '3', from: '2026-01-01', to: '2026-01-31' }} onSearch={onSearch} />);
    expect(screen.getByText('range')).toBeTruthy();
    expect(cleanFilters(items, { type: '1', from: '2026-01-01', to: '2026-01-31' })).toEqual({ type: '1' });
    expect(cleanFilters(items, { type: '3', from: '2026-01-01', to: '2026-01-31' })).toEqual({ type: '3', from: '2026-01-01', to: '2026-01-31' });
  });

  it('offers last 7 / 30 / 90 days shortcuts on a date-time range', async () => {
    const onSearch = vi.fn();
    await renderWidget(<SearchBar items={[{ type: 'dateTimeRange', names: ['start_time', 'end_time'], label: 'when' }]} values={{}} onSearch={onSearch} />);
    fireEvent.mouseDown(screen.getByPlaceholderText('开始时间'));
    fireEvent.click(screen.getByPlaceholderText('开始时间'));
    expect(await screen.findByText('最近7天')).toBeTruthy();
    expect(screen.getByText('最近90天')).toBeTruthy();
    fireEvent.click(screen.getByText('最近30天'));
    await waitFor(() => expect(onSearch).toHaveBeenCalled());
    const sent = onSearch.mock.lastCall![0] as FilterValues;
    const days = dayjs(sent.end_time as string, DATE_TIME_FORMAT).diff(dayjs(sent.start_time as string, DATE_TIME_FORMAT), 'day');
    expect(days).toBe(30);
  });

  it('sends every checked value of a multi-check tree select, parents included once all their children are checked', async () => {
    const onSearch = vi.fn();
    const treeData = [{ value: 1, title: 'root', children: [{ value: 2, title: 'leaf a' }, { value: 3, title: 'leaf b' }] }];
    await renderWidget(
      <SearchBar items={[{ type: 'treeSelect', name: 'units', label: 'units', treeData, multiple: true }]} values={{ units: ['2'] }} onSearch={onSearch} />,
    );
    fireEvent.mouseDown(itemContaining('units').querySelector('.ant-select-selector')!);
    const leaf = await screen.findByTitle('leaf b');
    fireEvent.click(leaf);
    await waitFor(() => expect(onSearch).toHaveBeenCalled());
    const sent = onSearch.mock.lastCall![0] as FilterValues;
    expect([...(sent.units as string[])].sort()).toEqual(['1', '2', '3']);
  });

  it('resets to the reset values', async () => {
    const onSearch = vi.fn();
    await renderWidget(
      <SearchBar items={[{ type: 'text', name: 'keyword' }, { type: 'select', name: 'state', options: typeOptions }]} values={{ keyword: 'x' }} resetValues={{ state: '1' }} onSearch={onSearch} />,
    );
    fireEvent.click(screen.getByRole('button', { name: /重\s*置/ }));
    expect(onSearch).toHaveBeenLastCalledWith({ state: '1' });
  });

  it('hides buttons and dropdown entries that are not allowed', async () => {
    const add = vi.fn();
    const exportAll = vi.fn();
    await renderWidget(
      <SearchBar
        values={{}}
        onSearch={vi.fn()}
        items={[
          { type: 'button', key: 'add', label: 'add-btn', onClick: add },
          { type: 'button', key: 'delete', label: 'delete-btn', onClick: vi.fn(), visible: false },
          {
            type: 'dropdown',
            key: 'more',
            label: 'more-menu',
            menu: [
              { key: 'export', label: 'export-all', onClick: exportAll },
              { key: 'purge', label: 'purge-all', onClick: vi.fn(), visible: false },
            ],
          },
          { type: 'dropdown', key: 'none', label: 'empty-menu', menu: [{ key: 'x', label: 'x', onClick: vi.fn(), visible: false }] },
        ]}
      />,
    );
    expect(screen.queryByText('delete-btn')).toBeNull();
    expect(screen.queryByText('empty-menu')).toBeNull();
    fireEvent.click(screen.getByText('add-btn'));
    expect(add).toHaveBeenCalledOnce();
    // no filters: no search/reset buttons
    expect(screen.queryByText('查询')).toBeNull();
    fireEvent.click(screen.getByText('more-menu'));
    const menu = await screen.findByRole('menu');
    expect(within(menu).queryByText('purge-all')).toBeNull();
    await act(async () => fireEvent.click(within(menu).getByText('export-all')));
    expect(exportAll).toHaveBeenCalledOnce();
  });

  it('shows a button gated by permission only to users holding that action', async () => {
    const items: SearchItem[] = [{ type: 'button', key: 'add', label: 'add-btn', onClick: vi.fn(), permission: { menu: MenuId.DOWNLOADS, action: 'add' } }];
    const viewer = await renderWidget(<SearchBar items={items} values={{}} onSearch={vi.fn()} />, { permissions: { [MenuId.DOWNLOADS]: { view: 1, edit: 1 } } });
    expect(screen.queryByText('add-btn')).toBeNull();
    viewer.unmount();
    await renderWidget(<SearchBar items={items} values={{}} onSearch={vi.fn()} />, { permissions: { [MenuId.DOWNLOADS]: { view: 1, add: 1 } } });
    expect(screen.getByText('add-btn')).toBeTruthy();
  });
});
