import { Api, MenuId, type TalkGroup } from '@bwc/protocol';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../components/test-utils';
import { DevicePointStore } from '../../map/pointStore';
import { GroupTab } from './GroupTab';
import { onOpenTalk } from '../talk/openTalk';
import { point as mapPoint } from '../../map/test-points';

function member(uid: number, lineon: number): TalkGroup['children'][number] {
  return {
    uid,
    ext_id: `9${uid}`,
    display_name: `Officer ${uid}`,
    hostbody: `HB${uid}`,
    hostcode: '',
    jq_hostcode: `9${uid}`,
    lineon,
    attachg: 0,
    speaking: 0,
    treecate: '0',
  };
}

/** a console-service terminal (cluster number 9<id>) of unit 1 */
const point = (id: number, lineon: number) =>
  mapPoint(id, { did: `HB${id}`, hostbody: `HB${id}`, hostcode: '', jq_hostcode: `9${id}`, lineon });

function group(tgid: number, name: string, preconfig: number, members: TalkGroup['children']): TalkGroup {
  return {
    tgid,
    ext_tgid: `g${tgid}`,
    tg_name: name,
    preconfig,
    uids: members.map((m) => m.uid),
    treecate: '1',
    lineonNum: members.filter((m) => m.lineon === 1).length,
    total: members.length,
    speak: false,
    hear: false,
    unit_id: 1,
    bh: '001',
    remark: '',
    expires: preconfig === 1 ? null : '2026-11-25T10:00:00.000Z',
    created: '2026-11-24T10:00:00.000Z',
    children: members,
  };
}

let groups: TalkGroup[];
let fetchMock: ReturnType<typeof vi.fn>;
const answer = (data: unknown) =>
  new Response(JSON.stringify({ code: 200, msg: '', data }), { headers: { 'content-type': 'application/json' } });
const listBodies = () =>
  fetchMock.mock.calls
    .filter(([url]) => String(url).split('?')[0] === Api.groupList.path)
    .map(([, init]) => JSON.parse(String((init as RequestInit).body)) as Record<string, unknown>);

beforeEach(() => {
  groups = [group(1, 'Patrol A', 1, [member(11, 0), member(12, 1)]), group(2, 'Incident 7', 0, [member(13, 0)])];
  fetchMock = vi.fn(async (url: string) => {
    if (String(url).split('?')[0] === Api.groupList.path) return answer(groups);
    return answer(null);
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

/** the input of an antd field (the test id lands on the input or on its wrapper) */
const inputOf = (id: string) => {
  const el = screen.getByTestId(id);
  return el instanceof HTMLInputElement ? el : el.querySelector('input')!;
};
const counts = () => screen.getAllByTestId('group-count').map((c) => c.textContent);
const perms = { permissions: { [MenuId.EMERGENCY]: { view: 1 as const } } };

describe('emergency group tab', () => {
  it('lists the stored groups with online counts that follow the live store', async () => {
    const store = new DevicePointStore((flush) => flush());
    store.push([point(11, 0), point(12, 1)], true);
    const onMessage = vi.fn();
    await renderWidget(<GroupTab store={store} onLocate={() => undefined} onMessage={onMessage} />, {
      ...perms,
      language: 'en-US',
    });
    await waitFor(() => expect(counts()).toEqual(['Online 1 / 2', 'Online 0 / 1']));
    expect(screen.getByText('Fixed')).toBeTruthy();
    expect(screen.getByText('Temporary')).toBeTruthy();
    // officer 11 comes online: the pushed state counts, not the last answer
    act(() => store.patch([{ id: 11, lineon: 1 }]));
    await waitFor(() => expect(counts()).toEqual(['Online 2 / 2', 'Online 0 / 1']));
    const states = screen.getAllByTestId('group-member').map((m) => [m.dataset.uid, m.dataset.online]);
    expect(states).toEqual([
      ['11', '1'],
      ['12', '1'],
      ['13', '0'],
    ]);
    // a group's message button opens its conversation
    fireEvent.click(screen.getAllByTestId('group-message')[1]!);
    expect(onMessage).toHaveBeenCalledWith(2, 'Incident 7');
  });

  it('locates a member on click and leaves offline members out when ticked', async () => {
    const store = new DevicePointStore((flush) => flush());
    const onLocate = vi.fn();
    await renderWidget(<GroupTab store={store} onLocate={onLocate} />, perms);
    await waitFor(() => expect(screen.getAllByTestId('group-member')).toHaveLength(3));
    fireEvent.click(screen.getByText('Officer 12'));
    expect(onLocate).toHaveBeenCalledWith(12);
    fireEvent.click(inputOf('group-online-only'));
    // offline members are left out of the tree (the counts still name all of them)
    await waitFor(() => expect(screen.getAllByTestId('group-member').map((m) => m.dataset.uid)).toEqual(['12']));
    expect(counts()).toEqual(['在线 1 / 2', '在线 0 / 1']);
  });

  it('says how to make a group when there is none, and when a search matches none', async () => {
    groups = [];
    const store = new DevicePointStore((flush) => flush());
    await renderWidget(<GroupTab store={store} onLocate={() => undefined} />, { ...perms, language: 'en-US' });
    await screen.findByText('No groups yet. Select devices on the map to create a temporary group');
    const search = inputOf('group-search');
    fireEvent.change(search, { target: { value: 'nothing' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await screen.findByText('No group matches');
    expect(listBodies().at(-1)).toMatchObject({ keyword: 'nothing' });
  });

  it('reads the groups again when the console service tells of a group change', async () => {
    const listeners = new Map<string, () => void>();
    const sdk = {
      on: (code: string, listener: () => void) => {
        listeners.set(code, listener);
        return () => listeners.delete(code);
      },
    };
    const store = new DevicePointStore((flush) => flush());
    const view = await renderWidget(<GroupTab store={store} onLocate={() => undefined} sdk={sdk as never} />, perms);
    await waitFor(() => expect(screen.getAllByTestId('group-node')).toHaveLength(2));
    expect([...listeners.keys()].sort()).toEqual([
      'notice_add_grp_mem',
      'notice_create_grp',
      'notice_delete_grp',
      'notice_grp_mem_status',
      'notice_ptt_status',
      'notice_rem_grp_mem',
      'notice_update_grp',
      'notice_user_state',
    ]);
    const asked = listBodies().length;
    groups = [...groups, group(3, 'Night shift', 1, [member(14, 1)])];
    act(() => listeners.get('notice_create_grp')!());
    await waitFor(() => expect(screen.getAllByTestId('group-node')).toHaveLength(3));
    expect(listBodies().length).toBe(asked + 1);
    view.unmount();
    // the floor store of the connection keeps listening: a floor taken meanwhile is known on return
    expect([...listeners.keys()]).toEqual(['notice_ptt_status']);
  });

  it('shows who talks in each group and opens the talk panel of a group', async () => {
    const listeners = new Map<string, (notice: unknown) => void>();
    const sdk = {
      on: (code: string, listener: (notice: unknown) => void) => {
        listeners.set(code, listener);
        return () => listeners.delete(code);
      },
    };
    const store = new DevicePointStore((flush) => flush());
    await renderWidget(<GroupTab store={store} onLocate={() => undefined} sdk={sdk as never} />, {
      ...perms,
      language: 'en-US',
    });
    await waitFor(() => expect(screen.getAllByTestId('group-node')).toHaveLength(2));
    expect(screen.queryByTestId('group-floor')).toBeNull();
    const talker = {
      uid: 12,
      ext_id: '912',
      name: 'Officer 12',
      priority: 1,
      emergency: 0,
      since: 0,
      until: 60_000,
      refid: 'r1',
    };
    const floor = (tgid: number, who: typeof talker | null) =>
      act(() =>
        listeners.get('notice_ptt_status')!({ tgid, state: who ? 1 : 0, talker: who, previous: null, queue: [] }),
      );
    floor(2, talker);
    const shown = await screen.findByTestId('group-floor');
    expect(shown.textContent).toContain('Officer 12 is talking');
    expect(shown.closest<HTMLElement>('[data-testid="group-node"]')!.dataset.tgid).toBe('2');
    floor(2, null);
    await waitFor(() => expect(screen.queryByTestId('group-floor')).toBeNull());
    const opened = vi.fn();
    const off = onOpenTalk(opened);
    fireEvent.click(screen.getAllByTestId('group-talk')[0]!);
    off();
    expect(opened).toHaveBeenCalledWith({ tgid: 1 });
  });

  it('shows who is in a group or listening, and lets an editor pull in, push out, remove and add members', async () => {
    const listeners = new Map<string, (notice: unknown) => void>();
    let attach = [
      { uid: 11, ext_id: '911', tgid: 1, speak: 1, hear: 1 },
      { uid: 12, ext_id: '912', tgid: 1, speak: 0, hear: 1 },
    ];
    const request = vi.fn(async (code: string) => (code === 'req_group_attach_info' ? { attach } : true));
    const sdk = {
      login: { login_uid: 99 },
      request,
      on: (code: string, listener: (notice: unknown) => void) => {
        listeners.set(code, listener);
        return () => listeners.delete(code);
      },
    };
    const store = new DevicePointStore((flush) => flush());
    await renderWidget(<GroupTab store={store} onLocate={() => undefined} sdk={sdk as never} />, {
      permissions: { [MenuId.EMERGENCY]: { view: 1 as const, edit: 1 as const } },
      language: 'en-US',
    });
    await waitFor(() => expect(screen.getAllByTestId('member-attach')).toHaveLength(2));
    expect(screen.getAllByTestId('member-attach').map((a) => [a.textContent, a.dataset.attach])).toEqual([
      ['In group', 'speak'],
      ['Listening', 'hear'],
    ]);
    expect(request).toHaveBeenCalledWith('req_group_attach_info', { uids: [11, 12, 13], extuids: [] });
    // 11 and 12 are in group 1: push out; 13 is not in group 2: pull in
    expect(screen.getAllByTestId('member-force-leave')).toHaveLength(2);
    fireEvent.click(screen.getAllByTestId('member-force-enter')[0]!);
    expect(request).toHaveBeenCalledWith('req_force_enter_group', { tgid: 2, uids: [13], extuids: [] });
    fireEvent.click(screen.getAllByTestId('member-force-leave')[0]!);
    expect(request).toHaveBeenCalledWith('req_force_leave_group', { tgid: 1, uids: [11], extuids: [] });
    // a leave notice: the attachments are read again
    attach = [{ uid: 12, ext_id: '912', tgid: 1, speak: 0, hear: 1 }];
    act(() => listeners.get('notice_leave_group')!({ tgid: 1, uids: [11] }));
    await waitFor(() => expect(screen.getAllByTestId('member-attach')).toHaveLength(1));
    // removing asks first
    fireEvent.click(screen.getAllByTestId('member-remove')[0]!);
    fireEvent.click(await screen.findByRole('button', { name: 'OK' }));
    await waitFor(() => expect(request).toHaveBeenCalledWith('req_rem_grp_mem', { tgid: 1, uids: [11], extuids: [] }));
    expect(screen.getAllByTestId('group-add-members')).toHaveLength(2);
    // a terminal logged on to the console service (state 7) counts online without the device API
    expect(counts()).toEqual(['Online 1 / 2', 'Online 0 / 1']);
    act(() => listeners.get('notice_user_state')!({ uid: 13, state: 7 }));
    await waitFor(() => expect(counts()).toEqual(['Online 1 / 2', 'Online 1 / 1']));
  });

  it('shows no member actions without edit on the emergency screen', async () => {
    const sdk = {
      login: { login_uid: 99 },
      request: vi.fn(async () => ({ attach: [] })),
      on: () => () => undefined,
    };
    const store = new DevicePointStore((flush) => flush());
    await renderWidget(<GroupTab store={store} onLocate={() => undefined} sdk={sdk as never} />, perms);
    await waitFor(() => expect(screen.getAllByTestId('group-member')).toHaveLength(3));
    expect(screen.queryByTestId('member-force-enter')).toBeNull();
    expect(screen.queryByTestId('member-remove')).toBeNull();
    expect(screen.queryByTestId('group-add-members')).toBeNull();
  });
});
