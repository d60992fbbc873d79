import type { TreeNode } from '@bwc/protocol';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { DataTable } from '../data-table';
import { renderWidget } from '../test-utils';
import { UnitTree, UnitTreeSelect, type LiveOnline } from './UnitTree';
import { unitNodeKey, unitNodeMatches, type UnitTreeLoader } from './useUnitTree';

const unit = (id: number, unitname: string, extra: Partial<TreeNode> = {}): TreeNode => ({ id, unitname, sub: 1, last: 0, treecate: 'unit', ...extra });
const terminal = (id: number, hostname: string, lineon: number): TreeNode => ({ id, unitname: 'x', hostname, sub: 0, last: 1, treecate: 'device', lineon });

const levels = new Map<string, TreeNode[]>([
  ['root', [unit(1, 'City bureau', { lion_count: 2 })]],
  ['unit:1', [unit(2, 'North station'), terminal(10, 'Camera A', 1), terminal(11, 'Camera B', 0)]],
  ['unit:2', [terminal(12, 'Camera C', 1), terminal(13, 'Camera D', 0)]],
]);

/** Answers one level per call, as other/unitjson/gdlist_dv does. */
function treeLoader() {
  return vi.fn<UnitTreeLoader>(async (parent) => levels.get(parent ? unitNodeKey(parent) : 'root') ?? []);
}

function titles(): string[] {
  return [...document.querySelectorAll('.ant-tree-title .bwc-unit-node, .ant-select-tree-title .bwc-unit-node')].map(
    (node) => node.firstChild?.textContent ?? '',
  );
}

async function expand(label: string) {
  const row = (await screen.findByText(label)).closest('.ant-tree-treenode, .ant-select-tree-treenode');
  fireEvent.click(row!.querySelector('.ant-tree-switcher, .ant-select-tree-switcher')!);
}

describe('unitNodeMatches', () => {
  it('matches by label substring; with online only, only online terminals match', () => {
    expect(unitNodeMatches(unit(1, 'City bureau'), 'city', false)).toBe(true);
    expect(unitNodeMatches(unit(1, 'City bureau'), 'city', true)).toBe(false);
    expect(unitNodeMatches(terminal(10, 'Camera A', 1), 'camera', true)).toBe(true);
    expect(unitNodeMatches(terminal(11, 'Camera B', 0), 'camera', true)).toBe(false);
    expect(unitNodeMatches(terminal(11, 'Camera B', 0), 'camera', false)).toBe(true);
    expect(unitNodeMatches(terminal(10, 'Camera A', 1), 'zzz', true)).toBe(false);
  });
});

describe('UnitTree', () => {
  it('loads the roots, then children on expand, and shows online state and counts', async () => {
    const loader = treeLoader();
    await renderWidget(<UnitTree loader={loader} />);
    await expand('City bureau');
    expect(await screen.findByText('Camera A')).toBeTruthy();
    expect(loader).toHaveBeenCalledWith(null);
    expect(loader).toHaveBeenCalledWith(expect.objectContaining({ id: 1, treecate: 'unit' }));
    expect(screen.getByText('在线 2')).toBeTruthy();
    expect(screen.getByText('Camera B').className).toContain('bwc-unit-node-offline');
  });

  it('filters loaded nodes by label and, with online only, keeps only online terminals and their path', async () => {
    await renderWidget(<UnitTree loader={treeLoader()} />);
    await expand('City bureau');
    await expand('North station');
    await screen.findByText('Camera D');
    await userEvent.type(screen.getByPlaceholderText('输入名称过滤'), 'camera');
    await waitFor(() => expect(titles()).toEqual(['City bureau', 'North station', 'Camera C', 'Camera D', 'Camera A', 'Camera B']));
    fireEvent.click(screen.getByRole('switch', { name: '仅看在线' }));
    await waitFor(() => expect(titles()).toEqual(['City bureau', 'North station', 'Camera C', 'Camera A']));
    await userEvent.clear(screen.getByPlaceholderText('输入名称过滤'));
    await userEvent.type(screen.getByPlaceholderText('输入名称过滤'), 'north');
    // a unit never matches under online only
    await waitFor(() => expect(titles()).toEqual([]));
    expect(screen.getByText('暂无数据')).toBeTruthy();
  });

  it('takes terminal online states from a live source when given one, the answer for those it does not know', async () => {
    const states = new Map<number, boolean>([[10, false]]);
    const listeners = new Set<() => void>();
    const live: LiveOnline = {
      subscribe: (listener) => {
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
      online: (id) => states.get(id),
    };
    await renderWidget(<UnitTree loader={treeLoader()} live={live} />);
    await expand('City bureau');
    // Camera A: online in the answer, offline by the live source; Camera B: unknown to it, offline
    await waitFor(() => expect(screen.getByText('Camera A').className).toContain('bwc-unit-node-offline'));
    expect(screen.getByText('Camera B').className).toContain('bwc-unit-node-offline');
    act(() => {
      states.set(10, true).set(11, true);
      for (const listener of listeners) listener();
    });
    // the tree's titles follow the live source (a loaded machine may commit them a moment later)
    await waitFor(() => expect(screen.getByText('Camera A').className).toContain('bwc-unit-node-online'));
    await waitFor(() => expect(screen.getByText('Camera B').className).toContain('bwc-unit-node-online'));
  });

  it('reports checked terminals', async () => {
    const onCheck = vi.fn();
    await renderWidget(<UnitTree loader={treeLoader()} checkable checkableNode={(node) => node.treecate === 'device'} onCheck={onCheck} />);
    await expand('City bureau');
    const row = (await screen.findByText('Camera A')).closest('.ant-tree-treenode')!;
    fireEvent.click(row.querySelector('.ant-tree-checkbox')!);
    expect(onCheck).toHaveBeenLastCalledWith([expect.objectContaining({ id: 10 })], ['device:10']);
    expect(screen.getByText('City bureau').closest('.ant-tree-treenode')!.querySelector('.ant-tree-checkbox')).toBeNull();
  });
});

describe('UnitTreeSelect', () => {
  it('picks a unit as the search bar unit picker and puts its id in the URL', async () => {
    const loader = treeLoader();
    const view = await renderWidget(
      <DataTable
        dataSource={[]}
        columns={[]}
        searchItems={[{ type: 'custom', name: 'unit', label: 'unit', render: ({ value, onChange }) => <UnitTreeSelect loader={loader} value={value} onChange={onChange} /> }]}
      />,
    );
    await waitFor(() => expect(loader).toHaveBeenCalledWith(null));
    fireEvent.mouseDown(document.querySelector('.ant-select-selector')!);
    await expand('City bureau');
    fireEvent.click(await screen.findByText('North station'));
    await waitFor(() => expect(view.url().get('unit')).toBe('2'));
    expect(screen.getByText('仅看在线')).toBeTruthy();
  });

  it('filters as the user types, with the online-only switch in the popup', async () => {
    const onChange = vi.fn();
    await renderWidget(<UnitTreeSelect loader={treeLoader()} onChange={onChange} />, { language: 'en-US' });
    fireEvent.mouseDown(document.querySelector('.ant-select-selector')!);
    await expand('City bureau');
    await screen.findByText('Camera B');
    fireEvent.change(document.querySelector('.ant-select-selection-search-input')!, { target: { value: 'camera' } });
    await waitFor(() => expect(titles()).toEqual(['City bureau', 'Camera A', 'Camera B']));
    fireEvent.click(screen.getByRole('switch', { name: 'Online only' }));
    await waitFor(() => expect(titles()).toEqual(['City bureau', 'Camera A']));
    fireEvent.click(screen.getByText('Camera A'));
    expect(onChange).toHaveBeenLastCalledWith('device:10', [expect.objectContaining({ id: 10 })]);
  });

  it('shows the name of a unit picked earlier when the value comes back from the URL before the tree reaches it', async () => {
    const unknown = await renderWidget(<UnitTreeSelect loader={treeLoader()} value={'2'} onChange={vi.fn()} />);
    // never picked in this session and not loaded: only the id is known
    expect(document.querySelector('.ant-select-selection-item')?.textContent).toBe('2');
    unknown.unmount();
    const onChange = vi.fn();
    const first = await renderWidget(<UnitTreeSelect loader={treeLoader()} onChange={onChange} />);
    fireEvent.mouseDown(document.querySelector('.ant-select-selector')!);
    await expand('City bureau');
    fireEvent.click(await screen.findByText('North station'));
    expect(onChange).toHaveBeenCalledWith('2', [expect.objectContaining({ id: 2 })]);
    first.unmount();
    await renderWidget(<UnitTreeSelect loader={treeLoader()} value={'2'} onChange={vi.fn()} />);
    await waitFor(() => expect(document.querySelector('.ant-select-selection-item')?.textContent).toBe('North station'));
  });
});
