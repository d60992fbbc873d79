import { Api } from '@bwc/protocol';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../../components/test-utils';
import { SendRecordsDialog } from './SendRecordsDialog';
import { testMessage } from './test-message';

const message = testMessage;
let read: string | null;
let recipientReads: number;

beforeEach(() => {
  read = null;
  recipientReads = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const path = String(url).split('?')[0];
      const page = <T,>(list: T[]) => ({ total: list.length, page: 1, limit: 20, list });
      let data: unknown = null;
      if (path === Api.messSendList.path)
        data = page([
          {
            id: 3,
            messid: 7,
            title: message.title,
            content: message.content,
            sender: 'Desk',
            unitname: 'North station',
            send_time: '2026-11-24T08:00:00Z',
            total: 1,
            delivered: 1,
            read: read ? 1 : 0,
          },
        ]);
      if (path === Api.messRecipients.path) {
        recipientReads += 1;
        data = page([
          {
            uid: 10,
            hostname: 'Officer Li',
            hostbody: 'T10',
            jq_hostcode: '550001',
            unitname: 'North station',
            delivered: '2026-11-24T08:00:01Z',
            read,
            online: 1,
          },
        ]);
      }
      return new Response(JSON.stringify({ code: 200, msg: 'ok', data }), {
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('send records dialog', () => {
  it('reads the states again when the console service tells of a read, several notices making one read', async () => {
    const listeners = new Map<string, () => void>();
    const sdk = {
      login: { login_uid: 100 },
      on: (code: string, listener: () => void) => {
        listeners.set(code, listener);
        return () => listeners.delete(code);
      },
    };
    const view = await renderWidget(
      <SendRecordsDialog message={message} sendId={3} onClose={() => undefined} sdk={sdk as never} />,
      { language: 'en-US' },
    );
    expect(await screen.findByText('Officer Li')).toBeTruthy();
    await waitFor(() => expect(recipientReads).toBe(1));
    const before = recipientReads;
    read = '2026-11-24T08:00:05Z';
    act(() => {
      for (let i = 0; i < 5; i++) listeners.get('notice_im_state')!();
    });
    // one read of the recipients for the five notices (coalesced), showing the new state
    await waitFor(() => expect(recipientReads).toBe(before + 1));
    await waitFor(() => expect(screen.getByText('2026-11-24 08:00:05', { exact: false })).toBeTruthy());
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(recipientReads).toBe(before + 1);
    view.unmount();
    expect(listeners.size).toBe(0);
  });
});
