import { GROUP_DIALOG_WIDTH, type TreeNode } from '@bwc/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../test-utils';
import type { UnitTreeLoader } from '../unit-tree';
import { GroupMemberPicker } from './GroupMemberPicker';

const station: TreeNode = { id: 1, unitname: 'North station', sub: 1, last: 0, treecate: 'unit', lion_count: 1 };
const online: TreeNode = { id: 10, unitname: 'North station', hostname: 'Officer Li', sub: 0, last: 1, treecate: 'device', lineon: 1 };
const offline: TreeNode = { id: 11, unitname: 'North station', hostname: 'Officer Wang', sub: 0, last: 1, treecate: 'device', lineon: 0 };
const loader: UnitTreeLoader = async (parent) => (parent ? [online, offline] : [station]);

async function openStation() {
  const row = (await screen.findByText('North station')).closest('.ant-tree-treenode')!;
  fireEvent.click(row.querySelector('.ant-tree-switcher')!);
  await screen.findByText('Officer Wang');
}

function checkboxOf(label: string): HTMLElement {
  const row = within(document.querySelector<HTMLElement>('.ant-tree')!).getByText(label).closest('.ant-tree-treenode')!;
  return row.querySelector('.ant-tree-checkbox') as HTMLElement;
}

function dialog(): HTMLElement {
  return screen.getByRole('dialog');
}

describe('GroupMemberPicker', () => {
  it('is 800 px wide, counts online members and keeps offline members out', async () => {
    await renderWidget(<GroupMemberPicker open title="New group" loader={loader} onSend={vi.fn()} onCancel={vi.fn()} />);
    expect(screen.getByText('New group')).toBeTruthy();
    expect((document.querySelector('.ant-modal') as HTMLElement).style.width).toBe(`${GROUP_DIALOG_WIDTH}px`);
    await openStation();
    expect(screen.getByText('在线 1 / 共 2')).toBeTruthy();
    expect(checkboxOf('Officer Wang').className).toContain('ant-tree-checkbox-disabled');
    fireEvent.click(checkboxOf('Officer Wang'));
    expect(screen.getByText('已选 0，在线 0')).toBeTruthy();
    fireEvent.click(checkboxOf('Officer Li'));
    expect(screen.getByText('已选 1，在线 1')).toBeTruthy();
    const chosen = screen.getByRole('region', { name: '已选成员' });
    expect(within(chosen).getByText('Officer Li')).toBeTruthy();
  });

  it('requires the group name when asked for, then sends members and name', async () => {
    const onSend = vi.fn();
    await renderWidget(<GroupMemberPicker open title="New group" withGroupName loader={loader} onSend={onSend} onCancel={vi.fn()} />);
    const send = () => within(dialog()).getByRole('button', { name: /发\s*送/ });
    expect(send().hasAttribute('disabled')).toBe(true);
    await openStation();
    fireEvent.click(checkboxOf('Officer Li'));
    fireEvent.click(send());
    expect(await screen.findByText('请输入群组名称', { selector: '.ant-form-item-explain-error' })).toBeTruthy();
    expect(onSend).not.toHaveBeenCalled();
    fireEvent.change(screen.getByPlaceholderText('请输入群组名称'), { target: { value: ' Patrol 1 ' } });
    fireEvent.click(send());
    expect(onSend).toHaveBeenCalledWith([online], 'Patrol 1');
  });

  it('removes a member from the chosen list and unticks it in the tree', async () => {
    await renderWidget(<GroupMemberPicker open title="t" loader={loader} initialMembers={[online]} onSend={vi.fn()} onCancel={vi.fn()} />, {
      language: 'en-US',
    });
    expect(screen.getByText('1 chosen, 1 online')).toBeTruthy();
    await openStation();
    expect(checkboxOf('Officer Li').className).toContain('ant-tree-checkbox-checked');
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(checkboxOf('Officer Li').className).not.toContain('ant-tree-checkbox-checked'));
    expect(screen.getByText('Tick members on the left')).toBeTruthy();
  });

  it('cancels', async () => {
    const onCancel = vi.fn();
    await renderWidget(<GroupMemberPicker open title="t" loader={loader} onSend={vi.fn()} onCancel={onCancel} />);
    fireEvent.click(within(dialog()).getByRole('button', { name: /取\s*消/ }));
    expect(onCancel).toHaveBeenCalledOnce();
  });
});
