import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../test-utils';
import { filterTree, labelIncludes } from './filter-tree';
import { Tree, type TreeItem } from './Tree';

afterEach(cleanup);

const data: TreeItem[] = [
  {
    devgbid: 'g-1',
    name: 'North district',
    itemtype: '2',
    children: [
      { devgbid: 'c-1', name: 'Gate camera', itemtype: '5' },
      { devgbid: 'c-2', name: 'Hall recorder', itemtype: '3' },
    ],
  },
  { id: 7, name: 'South district', itemtype: '2', hasChildren: true },
];

/** Titles of the rows shown (filtered-out rows stay in the DOM, hidden by a class). */
function treeTitles(): string[] {
  return [...document.querySelectorAll('.ant-tree-treenode:not(.bwc-tree-hidden) .ant-tree-title')].map((node) => node.textContent ?? '');
}

function rowOf(title: string): HTMLElement {
  const row = screen.getByText(title).closest('.ant-tree-treenode');
  if (!row) throw new Error(`no row ${title}`);
  return row as HTMLElement;
}

describe('filterTree', () => {
  it('keeps matches with their path and expands the ancestors', () => {
    const nodes = [{ key: 'a', label: 'alpha', children: [{ key: 'b', label: 'beta' }, { key: 'c', label: 'gamma' }] }, { key: 'd', label: 'delta' }];
    const result = filterTree(nodes, (node) => labelIncludes(node.label, 'BET'));
    expect(result.nodes.map((node) => node.key)).toEqual(['a']);
    expect(result.nodes[0]!.children!.map((node) => node.key)).toEqual(['b']);
    expect(result.expandedKeys).toEqual(['a']);
  });
});

describe('Tree', () => {
  it('shows the camera icon for item type 5 only', async () => {
    await renderWidget(<Tree data={data} defaultExpandAll />);
    expect(rowOf('Gate camera').querySelector('[data-itemtype="camera"]')).toBeTruthy();
    expect(rowOf('Hall recorder').querySelector('[data-itemtype="camera"]')).toBeNull();
    expect(rowOf('Hall recorder').querySelector('[data-itemtype="group"]')).toBeTruthy();
  });

  it('loads children lazily when a node is expanded', async () => {
    const loadChildren = vi.fn(async (item: TreeItem) => [{ devgbid: `${String(item.id)}-x`, name: 'Lazy child', itemtype: '5' }]);
    await renderWidget(<Tree data={data} loadChildren={loadChildren} />);
    expect(screen.queryByText('Lazy child')).toBeNull();
    fireEvent.click(rowOf('South district').querySelector('.ant-tree-switcher')!);
    expect(await screen.findByText('Lazy child')).toBeTruthy();
    expect(loadChildren).toHaveBeenCalledWith(expect.objectContaining({ id: 7 }));
  });

  it('filters by label substring and shows the path of each match', async () => {
    await renderWidget(<Tree data={data} filterable />);
    await userEvent.type(screen.getByPlaceholderText('输入关键字过滤'), 'camera');
    await waitFor(() => expect(treeTitles()).toEqual(['North district', 'Gate camera']));
    await userEvent.clear(screen.getByPlaceholderText('输入关键字过滤'));
    await waitFor(() => expect(treeTitles()).toEqual(['North district', 'South district']));
  });

  it('checks only the visible match while filtering; its hidden sibling and the parent stay unchecked', async () => {
    const onCheck = vi.fn();
    await renderWidget(<Tree data={data} checkable filterable onCheck={onCheck} />);
    await userEvent.type(screen.getByPlaceholderText('输入关键字过滤'), 'camera');
    await waitFor(() => expect(treeTitles()).toEqual(['North district', 'Gate camera']));
    fireEvent.click(rowOf('Gate camera').querySelector('.ant-tree-checkbox')!);
    expect(onCheck).toHaveBeenLastCalledWith(['c-1'], [data[0]!.children![0]]);
    expect(rowOf('North district').querySelector('.ant-tree-checkbox')!.className).toContain('ant-tree-checkbox-indeterminate');
    await userEvent.clear(screen.getByPlaceholderText('输入关键字过滤'));
    fireEvent.click(rowOf('North district').querySelector('.ant-tree-switcher')!);
    await waitFor(() => expect(treeTitles()).toEqual(['North district', 'Gate camera', 'Hall recorder', 'South district']));
    expect(rowOf('Hall recorder').querySelector('.ant-tree-checkbox')!.className).not.toContain('ant-tree-checkbox-checked');
  });

  it('says so when nothing matches', async () => {
    await renderWidget(<Tree data={data} filterable />);
    await userEvent.type(screen.getByPlaceholderText('输入关键字过滤'), 'zzz');
    expect(await screen.findByText('暂无数据')).toBeTruthy();
  });

  it('turns checkboxes on and off with the switch and reports checked items by devgbid or id', async () => {
    const onCheck = vi.fn();
    const view = await renderWidget(<Tree data={data} checkSwitch onCheck={onCheck} />);
    expect(view.container.querySelector('.ant-tree-checkbox')).toBeNull();
    fireEvent.click(screen.getByRole('switch'));
    expect(screen.getByText('多选')).toBeTruthy();
    fireEvent.click(rowOf('South district').querySelector('.ant-tree-checkbox')!);
    expect(onCheck).toHaveBeenLastCalledWith(['7'], [data[1]]);
    fireEvent.click(screen.getByRole('switch'));
    expect(onCheck).toHaveBeenLastCalledWith([], []);
    expect(view.container.querySelector('.ant-tree-checkbox')).toBeNull();
  });

  it('reports the selected item', async () => {
    const onSelect = vi.fn();
    await renderWidget(<Tree data={data} onSelect={onSelect} />);
    fireEvent.click(screen.getByText('South district'));
    expect(onSelect).toHaveBeenCalledWith(data[1]);
  });
});
