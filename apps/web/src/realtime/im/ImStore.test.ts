import { ImTargetType, ImType } from '@bwc/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ImStore, UploadRefused, type ImSdk, type WireImSession } from './ImStore';
import { TEST_ME, testMessage } from './test-messages';

const ME = TEST_ME;
const im = testMessage;

/** The SDK at its boundary: listeners per msg_code, req_im_sessions and req_im_list answered from `sessions`. */
function fakeSdk(sessions: WireImSession[]) {
  const listeners = new Map<string, ((n: unknown) => void)[]>();
  const login = { login_uid: ME, token: 'tk', upload_url_gfile: '' };
  const request = vi.fn(async (code: string, _body: Record<string, unknown>): Promise<unknown> => {
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

describe('ImStore uploads', () => {
  afterEach(() => vi.unstubAllGlobals());

  /** A store with an open conversation and a fetch answering from `answers` (POSTs) and `held` (resume GETs). */
  async function uploading(post: (offset: number, size: number) => Response | Error) {
    const { sdk, login, request } = fakeSdk([]);
    login.upload_url_gfile = 'http://svc:9080/gfile/upload?token=tk&uid=100';
    request.mockImplementation(async (code: string, body: Record<string, unknown>) => {
      if (code === 'req_im_list') return { total: 0, start: 0, count: 0, im: [] };
      if (code === 'req_send_file_done') return { fid: body.fid };
      if (code === 'req_send_im') return { im: im(50, { from: ME, target: 7, im_type: ImType.FILE }) };
      throw new Error(`unexpected ${code}`);
    });
    const calls: string[] = [];
    let held = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: URL, init?: RequestInit) => {
        const offset = Number(url.searchParams.get('offset'));
        if (!init) {
          calls.push('GET');
          return new Response(JSON.stringify({ fid: 'f', received: held, size: 10, cmd_status: 0, error_reason: '' }));
        }
        calls.push(`POST ${offset}`);
        const size = (init.body as Blob).size;
        const answer = post(offset, size);
        if (answer instanceof Error) throw answer;
        if (answer.status === 200) held = offset + size;
        return answer;
      }),
    );
    const store = new ImStore(sdk);
    await store.open(7, ImTargetType.USER, 'Officer 7');
    return { store, calls, request, setHeld: (n: number) => (held = n) };
  }
  const ok = (received: number) =>
    new Response(JSON.stringify({ fid: 'f', received, size: 10, cmd_status: 0, error_reason: '' }));
  const file = () => Object.assign(new Blob([new Uint8Array(10)]), { name: 'report.pdf' });

  it('resumes a chunk lost on the way from the bytes the service holds', async () => {
    let lost = 1;
    const { store, calls, request } = await uploading((offset, size) =>
      lost-- > 0 ? new TypeError('Failed to fetch') : ok(offset + size),
    );
    await store.sendFile(file());
    expect(calls).toEqual(['POST 0', 'GET', 'POST 0']);
    expect(request.mock.calls.map(([code]) => code)).toContain('req_send_im');
  });

  it('does not send again what arrived when only the answer was lost', async () => {
    let failures = 0;
    const ctx = await uploading((offset, size) => {
      failures += 1;
      // stored, but the answer is a gateway error
      ctx.setHeld(offset + size);
      return new Response('bad gateway', { status: 502 });
    });
    const sending = ctx.store.sendFile(file());
    await sending;
    expect(failures).toBe(1);
    expect(ctx.calls).toEqual(['POST 0', 'GET']);
  });

  it('says a refusal at once, without trying again', async () => {
    const { store, calls } = await uploading(
      () =>
        new Response(JSON.stringify({ fid: 'f', received: 0, size: 0, cmd_status: 40004, error_reason: 'file type' }), {
          status: 400,
        }),
    );
    await expect(store.sendFile(file())).rejects.toBeInstanceOf(UploadRefused);
    expect(calls).toEqual(['POST 0']);
  });
});
