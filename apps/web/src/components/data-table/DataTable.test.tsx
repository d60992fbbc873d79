import { MenuId, TABLE_DEFAULT_PAGE_SIZE } from '@bwc/protocol';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SearchItem } from '../search-bar';
import { renderWidget } from '../test-utils';
import { DataTable, FLEX_COLUMN_MIN_WIDTH, fitScrollX, formatIndex } from './DataTable';
import type { DataTableColumn, TablePage, TableQuery } from './data-table.types';

afterEach(cleanup);

interface Person {
  id: number;
  name: string;
  enabled: boolean;
  pdname?: number;
  checked?: number;
  select?: number;
  children?: Person[];
}

const people: Person[] = Array.from({ length: 45 }, (_, i) => ({
  id: i + 1,
  name: `person ${i + 1}`,
  enabled: i % 2 === 0,
}));

/** A real in-memory "server": pages and filters the rows the way the API does. */
function serverOver(rows: Person[]) {
  return vi.fn(async ({ page, limit, filters }: TableQuery): Promise<TablePage<Person>> => {
    const keyword = typeof filters.keyword === 'string' ? filters.keyword : '';
    const matching = rows.filter((row) => row.name.includes(keyword));
    return { total: matching.length, list: matching.slice((page - 1) * limit, page * limit) };
  });
}

const nameColumn: DataTableColumn<Person> = { title: 'name', dataIndex: 'name', key: 'name' };
const keywordSearch: SearchItem[] = [{ type: 'text', name: 'keyword', label: 'keyword' }];

function bodyRows(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>('.ant-table-tbody > tr.ant-table-row')];
}

function firstCells(container: HTMLElement): string[] {
  return bodyRows(container).map((row) => row.querySelector('td')?.textContent ?? '');
}

async function chooseSize(container: HTMLElement, size: number) {
  fireEvent.mouseDown(container.querySelector('.ant-pagination-options .ant-select-selector')!);
  const option = await waitFor(() => {
    const found = document.querySelector<HTMLElement>(`.ant-select-item-option[title^="${size} "]`);
    if (!found) throw new Error('size option missing');
    return found;
  });
  fireEvent.click(option);
}

describe('formatIndex', () => {
  it('pads to two digits and no further', () => {
    expect(formatIndex(1)).toBe('01');
    expect(formatIndex(10)).toBe('10');
    expect(formatIndex(123)).toBe('123');
  });
});

describe('fitScrollX', () => {
  const columns = [{ key: 'a', width: 400 }, { key: 'unit' }, { key: 'b', width: 500 }, { key: 'op', width: 170 }];

  it('widens the scroll width so that a column without a width keeps its least width', () => {
    // 1,070 fixed + 55 of a selection column: the unit column had 1,160 - 1,125 = 35 pixels
    expect(fitScrollX({ x: 1160 }, columns, 55)).toEqual({ x: 1125 + FLEX_COLUMN_MIN_WIDTH });
  });

  it('keeps a scroll width that leaves enough, and a table that does not scroll sideways', () => {
    const scroll = { x: 2000, y: 300 };
    expect(fitScrollX(scroll, columns)).toBe(scroll);
    expect(fitScrollX(undefined, columns)).toBeUndefined();
    expect(fitScrollX({ x: 'max-content' }, columns)).toEqual({ x: 'max-content' });
  });
});

describe('DataTable, server paging', () => {
  it('asks the server for page 1 with the default size and shows total, index and texts', async () => {
    const fetch = serverOver(people);
    const view = await renderWidget(<DataTable<Person> queryKey={['people']} fetch={fetch} columns={[nameColumn]} />);
    await waitFor(() => expect(bodyRows(view.container)).toHaveLength(TABLE_DEFAULT_PAGE_SIZE));
    expect(fetch).toHaveBeenCalledWith({ page: 1, limit: TABLE_DEFAULT_PAGE_SIZE, filters: {} });
    expect(firstCells(view.container).slice(0, 2)).toEqual(['01', '02']);
    expect(screen.getByText('共 45 条')).toBeTruthy();
    expect(screen.getByText('序号')).toBeTruthy();
    const headerIndex = view.container.querySelector('.ant-table-thead th');
    expect(headerIndex?.textContent).toBe('序号');
  });

  it('continues the index on the next page and writes the page into the URL', async () => {
    const fetch = serverOver(people);
    const view = await renderWidget(<DataTable<Person> queryKey={['people']} fetch={fetch} columns={[nameColumn]} />);
    await waitFor(() => expect(bodyRows(view.container)).toHaveLength(20));
    fireEvent.click(view.container.querySelector('.ant-pagination-item-2')!);
    await waitFor(() => expect(firstCells(view.container)[0]).toBe('21'));
    expect(view.url().get('page')).toBe('2');
    expect(fetch).toHaveBeenLastCalledWith({ page: 2, limit: 20, filters: {} });
  });

  it('goes back to page 1 when the page size changes', async () => {
    const fetch = serverOver(people);
    const view = await renderWidget(<DataTable<Person> queryKey={['people']} fetch={fetch} columns={[nameColumn]} />, {
      url: '/?page=2',
    });
    await waitFor(() => expect(firstCells(view.container)[0]).toBe('21'));
    await chooseSize(view.container, 50);
    await waitFor(() => expect(bodyRows(view.container)).toHaveLength(45));
    expect(view.url().get('page')).toBeNull();
    expect(view.url().get('limit')).toBe('50');
    expect(fetch).toHaveBeenLastCalledWith({ page: 1, limit: 50, filters: {} });
    expect(firstCells(view.container)[0]).toBe('01');
  });

  it('restores filters and page from the URL (a shared link or a reload)', async () => {
    const fetch = serverOver(people);
    const view = await renderWidget(
      <DataTable<Person> queryKey={['people']} fetch={fetch} columns={[nameColumn]} searchItems={keywordSearch} />,
      { url: '/?keyword=person%201&page=2&limit=10' },
    );
    // "person 1", "person 10".."person 19": 11 rows, page 2 of 10 holds one
    await waitFor(() => expect(bodyRows(view.container)).toHaveLength(1));
    expect(fetch).toHaveBeenCalledWith({ page: 2, limit: 10, filters: { keyword: 'person 1' } });
    expect((screen.getByPlaceholderText('请输入') as HTMLInputElement).value).toBe('person 1');
    expect(firstCells(view.container)[0]).toBe('11');
  });

  it('searches on Enter, writes the filter into the URL and goes back to page 1', async () => {
    const fetch = serverOver(people);
    const view = await renderWidget(
      <DataTable<Person> queryKey={['people']} fetch={fetch} columns={[nameColumn]} searchItems={keywordSearch} />,
      {
        url: '/?page=2',
      },
    );
    await waitFor(() => expect(firstCells(view.container)[0]).toBe('21'));
    await userEvent.type(screen.getByPlaceholderText('请输入'), 'person 4{Enter}');
    await waitFor(() => expect(bodyRows(view.container)).toHaveLength(7)); // 4, 40..45
    expect(view.url().get('keyword')).toBe('person 4');
    expect(view.url().get('page')).toBeNull();
    expect(screen.getByText('共 7 条')).toBeTruthy();
  });

  it('moves to the last page when the requested page is past the end', async () => {
    const fetch = serverOver(people);
    const view = await renderWidget(<DataTable<Person> queryKey={['people']} fetch={fetch} columns={[nameColumn]} />, {
      url: '/?page=9',
    });
    await waitFor(() => expect(view.url().get('page')).toBe('3'));
    await waitFor(() => expect(bodyRows(view.container)).toHaveLength(5));
  });

  it('keeps two tables on one page apart with URL prefixes', async () => {
    const first = serverOver(people);
    const second = serverOver(people);
    const view = await renderWidget(
      <>
        <div data-testid="a">
          <DataTable<Person> urlKey="a" queryKey={['a']} fetch={first} columns={[nameColumn]} />
        </div>
        <div data-testid="b">
          <DataTable<Person> urlKey="b" queryKey={['b']} fetch={second} columns={[nameColumn]} />
        </div>
      </>,
      { url: '/?b.page=3' },
    );
    const tableB = screen.getByTestId('b');
    await waitFor(() => expect(firstCells(tableB)[0]).toBe('41'));
    const tableA = screen.getByTestId('a');
    await waitFor(() => expect(firstCells(tableA)[0]).toBe('01'));
    fireEvent.click(tableA.querySelector('.ant-pagination-item-2')!);
    await waitFor(() => expect(firstCells(tableA)[0]).toBe('21'));
    expect(view.url().get('a.page')).toBe('2');
    expect(view.url().get('b.page')).toBe('3');
    expect(view.url().get('page')).toBeNull();
  });

  it('toggles a switch, then reloads the page from the server', async () => {
    const rows = people.slice(0, 3).map((row) => ({ ...row }));
    const fetch = serverOver(rows);
    const onToggle = vi.fn(async (row: Person, on: boolean) => {
      rows.find((r) => r.id === row.id)!.enabled = on;
    });
    const columns: DataTableColumn<Person>[] = [
      nameColumn,
      { kind: 'switch', key: 'enabled', title: 'enabled', isOn: (row) => row.enabled, onToggle },
    ];
    const view = await renderWidget(<DataTable<Person> queryKey={['people']} fetch={fetch} columns={columns} />);
    await waitFor(() => expect(bodyRows(view.container)).toHaveLength(3));
    const secondSwitch = within(bodyRows(view.container)[1]!).getByRole('switch');
    expect(secondSwitch.getAttribute('aria-checked')).toBe('false');
    const callsBefore = fetch.mock.calls.length;
    fireEvent.click(secondSwitch);
    await waitFor(() =>
      expect(within(bodyRows(view.container)[1]!).getByRole('switch').getAttribute('aria-checked')).toBe('true'),
    );
    expect(onToggle).toHaveBeenCalledWith(expect.objectContaining({ id: 2 }), true);
    expect(fetch.mock.calls.length).toBeGreaterThan(callsBefore);
  });

  it('keeps a switch read-only without permission', async () => {
    const columns: DataTableColumn<Person>[] = [
      {
        kind: 'switch',
        key: 'enabled',
        title: 'enabled',
        isOn: (row) => row.enabled,
        onToggle: vi.fn(),
        visible: false,
      },
    ];
    const view = await renderWidget(
      <DataTable<Person> queryKey={['people']} fetch={serverOver(people.slice(0, 2))} columns={columns} />,
    );
    await waitFor(() => expect(bodyRows(view.container)).toHaveLength(2));
    expect(within(bodyRows(view.container)[0]!).getByRole('switch').hasAttribute('disabled')).toBe(true);
  });
});

describe('DataTable, client paging and rows', () => {
  it('pages and filters in memory', async () => {
    const view = await renderWidget(
      <DataTable<Person>
        dataSource={people}
        columns={[nameColumn]}
        searchItems={keywordSearch}
        clientFilter={(row, filters) => row.name.includes(String(filters.keyword ?? ''))}
      />,
      { url: '/?page=3' },
    );
    expect(bodyRows(view.container)).toHaveLength(5);
    expect(firstCells(view.container)[0]).toBe('41');
    await userEvent.type(screen.getByPlaceholderText('请输入'), 'person 2{Enter}');
    await waitFor(() => expect(bodyRows(view.container)).toHaveLength(11)); // 2, 20..29
    expect(screen.getByText('共 11 条')).toBeTruthy();
  });

  it('hides the pagination on request and shows the empty text in both languages', async () => {
    const first = await renderWidget(<DataTable<Person> dataSource={[]} columns={[nameColumn]} pagination={false} />);
    expect(first.container.querySelector('.ant-pagination')).toBeNull();
    expect(first.container.querySelector('.ant-empty-description')?.textContent).toBe('暂无数据');
    first.unmount();
    const second = await renderWidget(<DataTable<Person> dataSource={[]} columns={[nameColumn]} />, {
      language: 'en-US',
    });
    expect(second.container.querySelector('.ant-empty-description')?.textContent).toBe('No data');
    expect(screen.getByText('No.')).toBeTruthy();
  });

  it('disables rows flagged pdname, preselects rows flagged checked, highlights rows flagged select, stripes rows', async () => {
    const rows: Person[] = [
      { id: 1, name: 'a', enabled: true, pdname: 1 },
      { id: 2, name: 'b', enabled: true, checked: 1 },
      { id: 3, name: 'c', enabled: true, select: 1 },
      { id: 4, name: 'd', enabled: true },
    ];
    const onChange = vi.fn();
    const view = await renderWidget(
      <DataTable<Person>
        dataSource={rows}
        columns={[nameColumn]}
        flagBy="select"
        selection={{ type: 'checkbox', disabledBy: 'pdname', preselectedBy: 'checked', onChange }}
      />,
    );
    await waitFor(() => expect(onChange).toHaveBeenCalledWith([2], [rows[1]]));
    const boxes = bodyRows(view.container).map((row) => row.querySelector<HTMLInputElement>('input[type="checkbox"]')!);
    expect(boxes.map((box) => box.disabled)).toEqual([true, false, false, false]);
    expect(boxes.map((box) => box.checked)).toEqual([false, true, false, false]);
    fireEvent.click(boxes[3]!);
    expect(onChange).toHaveBeenLastCalledWith([2, 4], [rows[1], rows[3]]);
    const classes = bodyRows(view.container).map((row) => row.className);
    expect(classes[2]).toContain('bwc-row-flagged');
    expect(classes[1]).toContain('bwc-row-striped');
    expect(classes[0]).not.toContain('bwc-row-striped');
  });

  it('offers a single-choice radio column', async () => {
    const onChange = vi.fn();
    const view = await renderWidget(
      <DataTable<Person>
        dataSource={people.slice(0, 3)}
        columns={[nameColumn]}
        selection={{ type: 'radio', onChange }}
      />,
    );
    const radios = () =>
      bodyRows(view.container).map((row) => row.querySelector<HTMLInputElement>('input[type="radio"]')!);
    fireEvent.click(radios()[0]!);
    fireEvent.click(radios()[2]!);
    expect(onChange).toHaveBeenLastCalledWith([3], [people[2]]);
    expect(radios().map((radio) => radio.checked)).toEqual([false, false, true]);
  });

  it('renders action, operation and custom last columns and gates them by permission', async () => {
    const play = vi.fn();
    const edit = vi.fn();
    const remove = vi.fn();
    const columns: DataTableColumn<Person>[] = [
      nameColumn,
      { kind: 'action', key: 'play', title: 'play-col', label: 'play', onClick: play, hidden: (row) => row.id === 2 },
      { kind: 'action', key: 'secret', title: 'secret-col', label: 'secret', onClick: vi.fn(), visible: false },
      {
        kind: 'operation',
        actions: [
          { key: 'edit', label: 'edit', onClick: edit },
          { key: 'remove', label: 'remove', onClick: remove, confirm: 'really?', danger: true },
          { key: 'hidden', label: 'never', onClick: vi.fn(), visible: false },
        ],
      },
      {
        kind: 'operation',
        key: 'nothing',
        title: 'nothing-col',
        actions: [{ key: 'x', label: 'x', onClick: vi.fn(), visible: false }],
      },
      { key: 'last', title: 'last-col', render: (_value, row) => <span>custom {row.id}</span> },
    ];
    const view = await renderWidget(<DataTable<Person> dataSource={people.slice(0, 2)} columns={columns} />);
    const headers = [...view.container.querySelectorAll('.ant-table-thead th')].map((th) => th.textContent);
    expect(headers).toEqual(['序号', 'name', 'play-col', '操作', 'last-col']);
    expect(screen.getAllByText('play')).toHaveLength(1);
    expect(screen.queryByText('never')).toBeNull();
    expect(screen.getByText('custom 2')).toBeTruthy();
    fireEvent.click(screen.getAllByText('edit')[1]!);
    expect(edit).toHaveBeenCalledWith(people[1]);
    fireEvent.click(screen.getAllByText('remove')[0]!);
    expect(remove).not.toHaveBeenCalled();
    fireEvent.click(await screen.findByRole('button', { name: /^确\s*定$/ }));
    await waitFor(() => expect(remove).toHaveBeenCalledWith(people[0]));
  });

  it("follows the user's permissions: edit shows the action and unlocks the switch, view alone does not", async () => {
    const columns: DataTableColumn<Person>[] = [
      nameColumn,
      {
        kind: 'switch',
        key: 'enabled',
        title: 'enabled',
        isOn: (row) => row.enabled,
        onToggle: vi.fn(),
        permission: { menu: MenuId.ANNOUNCEMENTS, action: 'edit' },
      },
      {
        kind: 'operation',
        actions: [
          { key: 'edit', label: 'edit', onClick: vi.fn(), permission: { menu: MenuId.ANNOUNCEMENTS, action: 'edit' } },
        ],
      },
    ];
    const rows = people.slice(0, 1);
    const viewer = await renderWidget(<DataTable<Person> dataSource={rows} columns={columns} />, {
      permissions: { [MenuId.ANNOUNCEMENTS]: { view: 1 } },
    });
    expect(screen.queryByText('edit')).toBeNull();
    expect(screen.getByRole('switch').hasAttribute('disabled')).toBe(true);
    viewer.unmount();
    await renderWidget(<DataTable<Person> dataSource={rows} columns={columns} />, {
      permissions: { [MenuId.ANNOUNCEMENTS]: { view: 1, edit: 1 } },
    });
    expect(screen.getByText('edit')).toBeTruthy();
    expect(screen.getByRole('switch').hasAttribute('disabled')).toBe(false);
  });

  it.each([false, true])(
    'shows tree-type rows under their parent, numbering top-level rows only (selectable: %s)',
    async (selectable) => {
      const rows: Person[] = [
        { id: 1, name: 'parent', enabled: true, children: [{ id: 11, name: 'child', enabled: true }] },
        { id: 2, name: 'second', enabled: true },
      ];
      const view = await renderWidget(
        <DataTable<Person>
          dataSource={rows}
          columns={[nameColumn]}
          tree={{ defaultExpandAll: true }}
          selection={selectable ? { type: 'radio' } : undefined}
        />,
      );
      expect(screen.getByText('child')).toBeTruthy();
      // the expander sits in the name column, next to the parent's name
      expect(screen.getByText('parent').closest('td')?.querySelector('.ant-table-row-expand-icon')).toBeTruthy();
      const indexCells = bodyRows(view.container).map(
        (row) => row.querySelectorAll('td')[selectable ? 1 : 0]?.textContent,
      );
      expect(indexCells).toEqual(['01', '', '02']);
    },
  );
});
