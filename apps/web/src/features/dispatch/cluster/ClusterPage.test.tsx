import { Api, MenuId, type TalkGroup } from '@bwc/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../../components/test-utils';
import { onOpenTalk, type OpenTalkRequest } from '../../talk/openTalk';
import type { GroupSdk } from '../voice-manage/groupData';
import { group, member } from '../voice-manage/test-groups';
import { ClusterPage } from './ClusterPage';

const sdk = { on: () => () => undefined, request: vi.fn(), login: null } as unknown as GroupSdk;

let groups: TalkGroup[];
let fetchMock: ReturnType<typeof vi.fn>;
const pathOf = (url: unknown) => String(url).split('?')[0];
const answer = (data: unknown) =>
  new Response(JSON.stringify({ code: 200, msg: '', data }), { headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  groups = [group(1, 'Patrol A', 1, [member(11, 0), member(12, 1)]), group(2, 'Incident 7', 0, [member(13, 0)])];
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    if (pathOf(url) === Api.groupList.path) {
      const keyword = typeof body.keyword === 'string' ? body.keyword.toLowerCase() : '';
      return answer(groups.filter((g) => g.tg_name.toLowerCase().includes(keyword)));
    }
    return answer(null);
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

const treeRow = async (name: RegExp) => (await screen.findByText(name)).closest('.ant-tree-treenode') as HTMLElement;

describe('cluster intercom (/dispatch/cluster)', () => {
  it('a group clicked in the tree opens its talk panel in the slot', async () => {
    const opened: OpenTalkRequest[] = [];
    const off = onOpenTalk((request) => opened.push(request));
    try {
      await renderWidget(<ClusterPage sdk={sdk} />, {
        language: 'en-US',
        permissions: { [MenuId.CLUSTER]: { view: 1 } },
      });
      const slot = screen.getByTestId('cluster-talk-slot');
      expect(within(slot).getByText('Choose a group in the tree on the left to talk in it')).toBeTruthy();
      const row = await treeRow(/^Incident 7/);
      expect(row.textContent).toContain('Temporary');
      expect(row.textContent).toContain('Online 0 / 1');
      fireEvent.click(within(row).getByText(/^Incident 7/));
      expect(opened).toEqual([{ tgid: 2 }]);
      await waitFor(() => expect(slot.dataset.tgid).toBe('2'));
      expect(within(slot).getByText('Incident 7')).toBeTruthy();
      fireEvent.click(within(slot).getByTestId('cluster-open-talk'));
      expect(opened).toEqual([{ tgid: 2 }, { tgid: 2 }]);
      // no add right on cluster intercom: no add button
      expect(screen.queryByTestId('cluster-add')).toBeNull();
    } finally {
      off();
    }
  });

  it('searches by name and offers the add-group dialog with the add right', async () => {
    await renderWidget(<ClusterPage sdk={sdk} />, {
      language: 'en-US',
      permissions: { [MenuId.CLUSTER]: { view: 1, add: 1 } },
    });
    await treeRow(/^Patrol A/);
    const search = screen.getByPlaceholderText('Search group name');
    fireEvent.change(search, { target: { value: 'patrol' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => {
      expect(screen.queryByText(/^Incident 7/)).toBeNull();
      expect(screen.getByText(/^Patrol A/)).toBeTruthy();
    });
    fireEvent.click(screen.getByTestId('cluster-add'));
    expect(await screen.findByText('Add group', { selector: '.ant-modal-title' })).toBeTruthy();
  });
});
