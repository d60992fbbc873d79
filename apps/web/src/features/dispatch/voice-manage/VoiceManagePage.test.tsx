import { Api, GROUP_RELOAD_DELAY_MS, MenuId, type TalkGroup, type TreeNode, type UserAuth } from '@bwc/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionKeys } from '../../../app/session/queries';
import { renderWidget } from '../../../components/test-utils';
import type { GroupSdk } from './groupData';
import { VoiceManagePage } from './VoiceManagePage';
import { group, member } from './test-groups';

/** A console not logged onto the console service: no notices, the stored online states stand. */
const sdk = { on: () => () => undefined, request: vi.fn(), login: null } as unknown as GroupSdk;

const station: TreeNode = { id: 1, unitname: 'Futian', bh: '440304000000', sub: 1, last: 0, treecate: 'unit' };
const terminal = (id: number, hostname: string, lineon: number, jq_hostcode: string): TreeNode => ({
  id,
  unitname: hostname,
  hostname,
  display_name: hostname,
  sub: 0,
  last: 1,
  treecate: 'device',
  lineon,
  jq_hostcode,
});
const terminals = [
  terminal(21, 'Officer Li', 1, '8001'),
  terminal(22, 'Officer Wang', 0, '8002'),
  terminal(23, 'Camera Zhao', 1, ''),
];

let groups: TalkGroup[];
let fetchMock: ReturnType<typeof vi.fn>;
const pathOf = (url: unknown) => String(url).split('?')[0];
const answer = (data: unknown) =>
  new Response(JSON.stringify({ code: 200, msg: '', data }), { headers: { 'content-type': 'application/json' } });
const bodiesOf = (path: string) =>
  fetchMock.mock.calls
    .filter(([url]) => pathOf(url) === path)
    .map(([, init]) => JSON.parse(String((init as RequestInit).body)) as Record<string, unknown>);

beforeEach(() => {
  groups = [
    group(1, 'Patrol A', 1, [member(11, 0), member(12, 1), member(90, 1, 'itrunk_desk')]),
    group(2, 'Incident 7', 0, [member(13, 0)]),
    group(3, 'Provincial', 1, [member(14, 1)], 'jg_3'),
  ];
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    switch (pathOf(url)) {
      case Api.groupList.path: {
        const keyword = typeof body.keyword === 'string' ? body.keyword.toLowerCase() : '';
        return answer(groups.filter((g) => g.tg_name.toLowerCase().includes(keyword)));
      }
      case Api.groupGet.path:
        return answer(groups.find((g) => g.tgid === body.channel_id));
      case Api.unitTreeDevices.path:
        return answer(body.id ? terminals : [station]);
      case Api.groupAdd.path:
        return answer({ groupid: 9, tg_name: 'Temp202611241000001', expires: '2026-11-25T10:00:00.000Z' });
      case Api.unitByCode.path:
        return answer({ id: 1, bh: body.bh, dname: 'Futian' });
      default:
        return answer(null);
    }
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** the input of an antd field (the test id lands on the input or on its wrapper) */
const inputOf = (id: string) => {
  const el = screen.getByTestId(id);
  return el instanceof HTMLInputElement ? el : el.querySelector('input')!;
};
const names = () => screen.getAllByTestId('group-row-name').map((n) => n.textContent);
const render = (auth: UserAuth, menu: number = MenuId.VOICE_MANAGE) =>
  renderWidget(<VoiceManagePage sdk={sdk} />, { language: 'en-US', permissions: { [menu]: auth } });

describe('group management (/dispatch/voiceManage)', () => {
  it('lists fixed and temporary groups with online counts, console members left out; view only has no buttons', async () => {
    await render({ view: 1 });
    await waitFor(() => expect(names()).toEqual(['Patrol A', 'Incident 7', 'Provincial']));
    expect(screen.getAllByTestId('group-online').map((n) => n.textContent)).toEqual(['1 / 2', '0 / 1', '1 / 1']);
    expect(screen.getAllByTestId('group-members').map((n) => n.textContent)).toEqual(['2', '1', '1']);
    const cates = [...document.querySelectorAll('.ant-table-row .ant-tag')].map((tag) => tag.textContent);
    expect(cates).toEqual(['Fixed', 'Temporary', 'Fixed']);
    // the members are no nested rows of the table
    expect(document.querySelector('.ant-table-row-expand-icon')).toBeNull();
    await waitFor(() => expect(screen.getAllByText('Futian').length).toBe(3));
    expect(screen.queryByText('Add group')).toBeNull();
    expect(screen.queryByTestId('group-edit')).toBeNull();
    expect(screen.queryByTestId('group-delete')).toBeNull();
  });

  it('the buttons follow the actions on group management itself, not on another menu', async () => {
    await render({ view: 1, add: 1, edit: 1 }, MenuId.EMERGENCY);
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.queryByText('Add group')).toBeNull();
    expect(screen.queryByTestId('group-edit')).toBeNull();
  });

  it('searches by name on the server and shows online members only when ticked', async () => {
    await render({ view: 1 });
    await waitFor(() => expect(names()).toHaveLength(3));
    await userEvent.type(screen.getByRole('textbox', { name: 'Group name' }), 'patrol{Enter}');
    await waitFor(() => expect(names()).toEqual(['Patrol A']));
    expect(bodiesOf(Api.groupList.path).at(-1)).toEqual({ keyword: 'patrol' });
    fireEvent.click(screen.getByTestId('group-members'));
    const list = await screen.findByTestId('group-member-list');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Officer 11', 'Officer 12']);
    fireEvent.click(inputOf('group-online-only'));
    await waitFor(() =>
      expect(
        within(screen.getByTestId('group-member-list'))
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual(['Officer 12']),
    );
  });

  it("the tree reads a group's members when it opens", async () => {
    await render({ view: 1 });
    await waitFor(() => expect(names()).toHaveLength(3));
    fireEvent.click(screen.getByText('Tree'));
    const row = (await screen.findByText(/^Patrol A/)).closest('.ant-tree-treenode')!;
    expect(row.textContent).toContain('Online 1 / 2');
    fireEvent.click(row.querySelector('.ant-tree-switcher')!);
    await waitFor(() => expect(screen.getAllByTestId('group-tree-member')).toHaveLength(2));
    expect(bodiesOf(Api.groupGet.path)).toEqual([{ channel_id: 1 }]);
    expect(screen.getAllByTestId('group-tree-member').map((m) => m.dataset.online)).toEqual(['0', '1']);
    expect(screen.queryByText('Officer 90')).toBeNull();
  });

  it('edits a group keeping its hidden members, then reads the list again a second later; jg_ groups cannot be edited', async () => {
    await render({ view: 1, add: 1, edit: 1 });
    await waitFor(() => expect(names()).toHaveLength(3));
    expect(screen.getByText('Add group')).toBeTruthy();
    const edits = screen.getAllByTestId('group-edit') as HTMLButtonElement[];
    expect(edits.map((b) => b.disabled)).toEqual([false, false, true]);
    expect((screen.getAllByTestId('group-delete') as HTMLButtonElement[]).map((b) => b.disabled)).toEqual([
      false,
      false,
      true,
    ]);
    fireEvent.click(edits[0]!);
    const dialog = await screen.findByRole('dialog');
    const name = within(dialog).getByPlaceholderText('Enter the group name');
    await waitFor(() => expect((name as HTMLInputElement).value).toBe('Patrol A'));
    fireEvent.change(name, { target: { value: 'Patrol B' } });
    const listsBefore = bodiesOf(Api.groupList.path).length;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(bodiesOf(Api.groupEdit.path)).toHaveLength(1));
    expect(bodiesOf(Api.groupEdit.path)[0]).toEqual({
      channel_id: 1,
      channel_name: 'Patrol B',
      cate: '1',
      remark: '',
      bh: '440304000000',
      device: [11, 12, 90],
    });
    // not at once: GROUP_RELOAD_DELAY_MS later
    await new Promise((resolve) => setTimeout(resolve, GROUP_RELOAD_DELAY_MS / 2));
    expect(bodiesOf(Api.groupList.path)).toHaveLength(listsBefore);
    // then it comes (the default wait: a loaded machine may run the timer late)
    await waitFor(() => expect(bodiesOf(Api.groupList.path).length).toBeGreaterThan(listsBefore));
  });

  it('creates a temporary group from terminals with a cluster number, offline ones included, named by the server', async () => {
    const view = await render({ view: 1, add: 1 });
    view.queryClient.setQueryData(sessionKeys.userInfo, { dwbh: '440304000000', dname: 'Futian' });
    await waitFor(() => expect(names()).toHaveLength(3));
    fireEvent.click(screen.getByText('Add group'));
    const dialog = (await screen.findByText('Add group', { selector: '.ant-modal-title' })).closest(
      '.ant-modal',
    ) as HTMLElement;
    expect(within(dialog).getByText(/may be left unnamed/)).toBeTruthy();
    fireEvent.click(within(dialog).getByTestId('group-form-pick'));
    const picker = (await screen.findByText('Choose group members (devices with a cluster number)')).closest(
      '.ant-modal',
    ) as HTMLElement;
    const unit = (await within(picker).findByText('Futian')).closest('.ant-tree-treenode')!;
    fireEvent.click(unit.querySelector('.ant-tree-switcher')!);
    await within(picker).findByText('Camera Zhao');
    const checkboxOf = (label: string) =>
      within(picker).getByText(label).closest('.ant-tree-treenode')!.querySelector('.ant-tree-checkbox') as HTMLElement;
    expect(checkboxOf('Camera Zhao').className).toContain('ant-tree-checkbox-disabled');
    expect(checkboxOf('Officer Wang').className).not.toContain('ant-tree-checkbox-disabled');
    fireEvent.click(checkboxOf('Officer Li'));
    fireEvent.click(checkboxOf('Officer Wang'));
    fireEvent.click(within(picker).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(within(dialog).getByText('Choose members (2 chosen)')).toBeTruthy());
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(bodiesOf(Api.groupAdd.path)).toHaveLength(1));
    expect(bodiesOf(Api.groupAdd.path)[0]).toEqual({
      channel_name: '',
      cate: '0',
      remark: '',
      bh: '440304000000',
      device: ['8001', '8002'],
    });
  });
});
