import { Api, MenuId, type PushRecipient, type PushSend, type TreeNode } from '@bwc/protocol';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../../components/test-utils';
import { MsgManagePage } from './MsgManagePage';
import { testMessage } from './test-message';

const message = testMessage;
const station: TreeNode = { id: 1, unitname: 'North station', sub: 1, last: 0, treecate: 'unit', lion_count: 2 };
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
const devices = [
  terminal(10, 'Officer Li', 1, '550001'),
  terminal(11, 'Officer Wang', 0, '550002'),
  terminal(12, 'Camera Zhao', 1, ''),
];

/** What the stubbed server answers for the recipient of the send, changed by the test. */
let recipientState: Pick<PushRecipient, 'delivered' | 'read' | 'online'>;
let sent: unknown[];

function answer(path: string, body: Record<string, unknown>): unknown {
  const send: PushSend = {
    id: 3,
    messid: 7,
    title: message.title,
    content: message.content,
    sender: 'Desk',
    unitname: 'North station',
    send_time: '2026-11-24T08:00:00Z',
    total: 1,
    delivered: recipientState.delivered ? 1 : 0,
    read: recipientState.read ? 1 : 0,
  };
  const page = <T,>(list: T[]) => ({ total: list.length, page: 1, limit: 20, list });
  switch (path) {
    case Api.messList.path:
      return page([message]);
    case Api.unitTreeDevices.path:
      return body.id ? devices : [station];
    case Api.messSend.path:
      sent.push(body);
      return send;
    case Api.messSendList.path:
      return page(sent.length ? [send] : []);
    case Api.messRecipients.path:
      return page([
        {
          uid: 10,
          hostname: 'Officer Li',
          hostbody: 'T10',
          jq_hostcode: '550001',
          unitname: 'North station',
          ...recipientState,
        },
      ]);
    default:
      return null;
  }
}

beforeEach(() => {
  recipientState = { delivered: null, read: null, online: 0 };
  sent = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
      return new Response(JSON.stringify({ code: 200, msg: 'ok', data: answer(String(url).split('?')[0]!, body) }), {
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function checkboxOf(dialog: HTMLElement, label: string): HTMLElement {
  const row = within(dialog.querySelector<HTMLElement>('.ant-tree')!).getByText(label).closest('.ant-tree-treenode')!;
  return row.querySelector('.ant-tree-checkbox') as HTMLElement;
}

describe('message push page', () => {
  it('sends to the online terminals with a cluster number and shows the delivery state as it changes', async () => {
    await renderWidget(<MsgManagePage />, {
      url: '/dispatch/msgManage',
      permissions: { [MenuId.MSG_MANAGE]: { view: 1, edit: 1, add: 1 } },
      language: 'en-US',
    });
    const row = (await screen.findByText('Morning shift')).closest('tr')!;
    fireEvent.click(within(row).getByText('Send'));
    const picker = (await screen.findByText('Send message: Morning shift')).closest('.ant-modal') as HTMLElement;
    const unit = (await within(picker).findByText('North station')).closest('.ant-tree-treenode')!;
    fireEvent.click(unit.querySelector('.ant-tree-switcher')!);
    await within(picker).findByText('Camera Zhao');
    // offline, and without a cluster number: not to be picked
    expect(checkboxOf(picker, 'Officer Wang').className).toContain('ant-tree-checkbox-disabled');
    expect(checkboxOf(picker, 'Camera Zhao').className).toContain('ant-tree-checkbox-disabled');
    expect(checkboxOf(picker, 'Officer Li').className).not.toContain('ant-tree-checkbox-disabled');
    fireEvent.click(checkboxOf(picker, 'Officer Li'));
    fireEvent.click(within(picker).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(sent).toEqual([{ messid: 7, device: [10] }]));

    const records = await screen.findByTestId('send-recipients');
    await within(records).findByText('Waiting');
    expect(within(records).getByText('Officer Li')).toBeTruthy();
    expect(within(records).getByText('Not logged on')).toBeTruthy();
    // the terminal logs on and lists the conversation: the dialog follows on its own
    recipientState = { delivered: '2026-11-24T08:00:05Z', read: '2026-11-24T08:01:00Z', online: 1 };
    await within(records).findByText('Read');
    expect(within(records).getByText('Logged on')).toBeTruthy();
  });

  it('offers no send, add, edit or delete to a user who may only view', async () => {
    await renderWidget(<MsgManagePage />, {
      url: '/dispatch/msgManage',
      permissions: { [MenuId.MSG_MANAGE]: { view: 1 } },
    });
    const row = (await screen.findByText('Morning shift')).closest('tr')!;
    expect(within(row).getByText('发送记录')).toBeTruthy();
    for (const label of ['发送', '编辑', '删除']) expect(within(row).queryByText(label)).toBeNull();
    expect(screen.queryByRole('button', { name: /新增消息/ })).toBeNull();
  });
});
