import { ImTargetType, ImType, type ImMessage } from '@bwc/protocol';
import { describe, expect, it, vi } from 'vitest';
import { ImStore, type ImSdk, type WireImSession } from './ImStore';

const ME = 100;

function im(msgId: number, over: Partial<ImMessage> = {}): ImMessage {
  return {
    msg_id: msgId,
    from: 7,
    extfrom: '97',
    from_name: 'Officer 7',
    target: ME,
    exttarget: '9100',
    target_type: ImTargetType.USER,
    im_type: ImType.TEXT,
    content: `text ${msgId}`,
    time: '2026-11-24T10:00:00.000Z',
    filename: '',
    size: 0,
    fid: '',
    ourl: '',
    surl: '',
    ...over,
  };
}

/** The SDK at its boundary: listeners per msg_code, req_im_sessions and req_im_list answered from `sessions`. */
function fakeSdk(sessions: WireImSession[]) {
  const listeners = new Map<string, ((n: unknown) => void)[]>();
  const login = { login_uid: ME, token: 'tk', upload_url_gfile: '' };
  const request = vi.fn(async (code: string, _body: Record<string, unknown>) => {
    if (code === 'req_im_sessions') return { sessions };
    if (code === 'req_im_list') return { total: 0, start: 0, count: 0, im: [] };
    throw new Error(`unexpected ${code}`);
  });
  const sdk = {
    login,
    on: (code: string, listener: (n: unknown) => void) => {
      listeners.set(code, [...(listeners.get(code) ?? []), listener]);
      return () => undefined;
    },
    request,
  };
  const emit = (code: string, message: unknown) => {
    for (const l of listeners.get(code) ?? []) l(message);
  };
  return { sdk: sdk as unknown as ImSdk, login, request, emit };
}

const calls = (request: ReturnType<typeof vi.fn>, code: string) =>
  request.mock.calls.filter(([c]) => c === code).length;

describe('ImStore conversation list', () => {
  it('lists the conversations on the first heartbeat of a resumed login, with names and unread, each counted once', async () => {
    const { sdk, request, emit } = fakeSdk([
      {
        target: 5,
        exttarget: '9500',
        target_type: ImTargetType.GROUP,
        name: '巡逻一组',
        unread: 1,
        unread_ids: [12],
        last: im(12, { target: 5, target_type: ImTargetType.GROUP, exttarget: '9500' }),
      },
      {
        target: 7,
        exttarget: '97',
        target_type: ImTargetType.USER,
        name: 'Officer 7',
        unread: 103,
        unread_ids: [11, 10],
        last: im(11),
      },
    ]);
    const store = new ImStore(sdk);
    // a message kept while the console was away, delivered at logon before the list came
    emit('notice_im', { im: im(10) });
    emit('heartbeat', { logged_on: 1, uid: ME, time: 1 });
    await vi.waitFor(() => expect(store.getSnapshot().conversations).toHaveLength(2));
    const [group, user] = store.getSnapshot().conversations;
    expect(group).toMatchObject({ key: 'g5', name: '巡逻一组', unread: 1 });
    // 2 named ids + 101 counted beyond them; message 10 (notice and list) once
    expect(user).toMatchObject({ key: 'u7', name: 'Officer 7', unread: 103 });
    expect(store.getSnapshot().unread).toBe(104);

    // the notice of a listed message adds nothing; a new one adds one
    emit('notice_im', { im: im(11) });
    emit('notice_im', { im: im(13) });
    expect(store.getSnapshot().conversations.find((c) => c.key === 'u7')?.unread).toBe(104);

    // more heartbeats of the same login list nothing again
    emit('heartbeat', { logged_on: 1, uid: ME, time: 2 });
    emit('heartbeat', { logged_on: 0, time: 3 });
    expect(calls(request, 'req_im_sessions')).toBe(1);

    await store.open(7, ImTargetType.USER);
    expect(store.getSnapshot().conversations.find((c) => c.key === 'u7')?.unread).toBe(0);
    expect(store.getSnapshot().unread).toBe(1);
  });

  it("forgets another user's conversations when a different login is listed", async () => {
    const { sdk, login, emit } = fakeSdk([]);
    const store = new ImStore(sdk);
    emit('notice_im', { im: im(1) });
    emit('heartbeat', { logged_on: 1, uid: ME, time: 1 });
    await vi.waitFor(() => expect(store.getSnapshot().conversations).toHaveLength(1));
    login.login_uid = 200;
    emit('heartbeat', { logged_on: 1, uid: 200, time: 2 });
    await vi.waitFor(() => expect(store.getSnapshot().conversations).toHaveLength(0));
  });

  it('asks the list again to name a group that a message opens', async () => {
    const named: WireImSession[] = [];
    const { sdk, request, emit } = fakeSdk(named);
    const store = new ImStore(sdk);
    emit('heartbeat', { logged_on: 1, uid: ME, time: 1 });
    await vi.waitFor(() => expect(calls(request, 'req_im_sessions')).toBe(1));
    const message = im(20, { target: 6, target_type: ImTargetType.GROUP, exttarget: '9600' });
    named.push({
      target: 6,
      exttarget: '9600',
      target_type: 1,
      name: '二组',
      unread: 1,
      unread_ids: [20],
      last: message,
    });
    emit('notice_im', { im: message });
    expect(store.getSnapshot().conversations[0]).toMatchObject({ name: '9600', unread: 1 });
    await vi.waitFor(() => expect(store.getSnapshot().conversations[0]).toMatchObject({ name: '二组', unread: 1 }));
  });
});
