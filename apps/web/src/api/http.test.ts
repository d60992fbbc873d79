import { Api, LOGGED_IN_KEY, PRODUCT_PREFIX } from '@bwc/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18next, setLanguage } from '../i18n';
import { ApiError, call, download, filenameFromDisposition, resetUnauthenticatedGuard } from './http';
import { setNavigator } from './navigation';
import { notify } from './notify';
import { isLoggedIn, markLoggedIn } from './session';

function envelopeResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const navigate = vi.fn();
let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(async () => {
  await setLanguage('en-US');
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
  navigate.mockReset();
  setNavigator(navigate);
  resetUnauthenticatedGuard();
  vi.spyOn(notify, 'error').mockImplementation(() => undefined);
  vi.spyOn(notify, 'success').mockImplementation(() => undefined);
  vi.spyOn(notify, 'warning').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('call: envelope mapping', () => {
  it('resolves data on code 200 and sends x-lang with credentials', async () => {
    fetchMock.mockResolvedValueOnce(envelopeResponse({ code: 200, msg: 'ok', data: { title: 'T' } }));
    await expect(call('pageInfo')).resolves.toEqual({ title: 'T' });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe(Api.pageInfo.path);
    expect((init.headers as Record<string, string>)['x-lang']).toBe('en-US');
    expect(init.credentials).toBe('include');
    expect(notify.success).not.toHaveBeenCalled();
  });

  it('shows the envelope msg as success only when asked', async () => {
    fetchMock.mockResolvedValueOnce(envelopeResponse({ code: 200, msg: 'Saved successfully', data: null }));
    await call(Api.changePassword, { old_password: 'a', new_password: 'b' }, { success: true });
    expect(notify.success).toHaveBeenCalledWith('Saved successfully');
  });

  const loginBody = { login_info: 'x', token: 't', captcha_code: '1234', timestamp: 1, signature: 's' };

  it('toasts other codes as "msg code: {code}" and rejects with ApiError', async () => {
    fetchMock.mockResolvedValueOnce(envelopeResponse({ code: 423, msg: 'account locked', data: null }));
    const error = await call('login', loginBody).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(423);
    expect(notify.error).toHaveBeenCalledWith('account locked code: 423');
    await setLanguage('zh-CN');
    fetchMock.mockResolvedValueOnce(envelopeResponse({ code: 403, msg: '没有权限', data: null }));
    await call('home').catch(() => undefined);
    expect(notify.error).toHaveBeenLastCalledWith('没有权限（代码：403）');
  });

  it('does not toast when silent', async () => {
    fetchMock.mockResolvedValueOnce(envelopeResponse({ code: 400, msg: 'bad', data: null }));
    await expect(call('login', loginBody, { silent: true })).rejects.toBeInstanceOf(ApiError);
    expect(notify.error).not.toHaveBeenCalled();
  });

  it('body code 401 clears the session flag and goes to Login once, showing msg', async () => {
    markLoggedIn({ username: 'admin', ifadmin: 1 });
    sessionStorage.setItem('other', 'x');
    fetchMock.mockImplementation(async () =>
      envelopeResponse({
        code: 401,
        msg: 'The account is logged in elsewhere and the user was forced offline',
        data: null,
      }),
    );
    await expect(call('userInfo')).rejects.toMatchObject({ code: 401 });
    await expect(call('userContext')).rejects.toMatchObject({ code: 401 });
    expect(isLoggedIn()).toBe(false);
    expect(sessionStorage.getItem(`${PRODUCT_PREFIX}${LOGGED_IN_KEY}`)).toBeNull();
    expect(sessionStorage.getItem('other')).toBeNull();
    expect(navigate).toHaveBeenCalledTimes(1);
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
    expect(notify.warning).toHaveBeenCalledTimes(1);
    expect(notify.warning).toHaveBeenCalledWith(
      'The account is logged in elsewhere and the user was forced offline',
      'session',
    );
    expect(notify.error).not.toHaveBeenCalled();
  });

  it('HTTP status 406 goes to /406', async () => {
    fetchMock.mockResolvedValueOnce(envelopeResponse({ code: 460, msg: 'expired', data: null }, 406));
    await expect(call('userInfo')).rejects.toMatchObject({ status: 406 });
    expect(navigate).toHaveBeenCalledWith('/406', { replace: true });
  });

  it('GET payloads go to the query string, form bodies are url-encoded', async () => {
    fetchMock.mockImplementation(async () => envelopeResponse({ code: 200, msg: '', data: null }));
    await call('settingsGet', { type: 'titleset' });
    expect(fetchMock.mock.calls[0]![0]).toBe('/rest/system/config/system_get?type=titleset');
    await call('changePassword', { old_password: 'Old@1234', new_password: 'New@1234' });
    const init = fetchMock.mock.calls[1]![1] as RequestInit;
    expect((init.headers as Record<string, string>)['Content-Type']).toContain('application/x-www-form-urlencoded');
    expect(String(init.body)).toBe('old_password=Old%401234&new_password=New%401234');
    await call('announceAdd', { title: 't', content: 'c' });
    expect((fetchMock.mock.calls[2]![1] as RequestInit).body).toBe('{"title":"t","content":"c"}');
  });

  it('an answer that is not an envelope is an error, not data', async () => {
    fetchMock.mockResolvedValueOnce(new Response('<html>', { status: 502 }));
    await expect(call('pageInfo')).rejects.toMatchObject({ status: 502 });
    expect(notify.error).toHaveBeenCalledWith(i18next.t('common:http.badAnswer', { status: 502 }));
  });

  it('a request cancelled while its body is read is not reported as an error', async () => {
    const aborted = {
      status: 200,
      headers: new Headers(),
      json: () => Promise.reject(new DOMException('aborted', 'AbortError')),
    };
    fetchMock.mockResolvedValueOnce(aborted as unknown as Response);
    await expect(call('userContext')).rejects.toMatchObject({ name: 'AbortError' });
    expect(notify.error).not.toHaveBeenCalled();
  });
});

describe('download', () => {
  it('reads the file name from content-disposition', () => {
    expect(filenameFromDisposition(`attachment; filename="a.zip"; filename*=UTF-8''%E4%B8%8B%E8%BD%BD.zip`)).toBe(
      '下载.zip',
    );
    expect(filenameFromDisposition('attachment; filename="report 1.xlsx"')).toBe('report 1.xlsx');
    expect(filenameFromDisposition('attachment; filename=plain.txt')).toBe('plain.txt');
    expect(filenameFromDisposition(null)).toBeNull();
  });

  it('saves the blob under the disposition name', async () => {
    fetchMock.mockResolvedValueOnce(
      new Response('file-bytes', {
        status: 200,
        headers: {
          'content-type': 'application/octet-stream',
          'content-disposition': `attachment; filename*=UTF-8''%E5%AE%A2%E6%88%B7%E7%AB%AF.exe`,
        },
      }),
    );
    const created = vi.fn(() => 'blob:x');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const result = await download('downloadFile', { id: 3 });
    expect(result.filename).toBe('客户端.exe');
    expect(await result.blob.text()).toBe('file-bytes');
    expect(fetchMock.mock.calls[0]![0]).toBe('/rest/system/download/file?id=3');
    expect(click).toHaveBeenCalledTimes(1);
  });

  it('a failed download toasts "Download failed, http status: {status}"', async () => {
    fetchMock.mockResolvedValueOnce(new Response('gone', { status: 404, headers: { 'content-type': 'text/plain' } }));
    await expect(download('downloadFile', { id: 9 })).rejects.toBeInstanceOf(ApiError);
    expect(notify.error).toHaveBeenCalledWith('Download failed, http status: 404');
  });

  it('an envelope error instead of the file is mapped like any call', async () => {
    fetchMock.mockResolvedValueOnce(envelopeResponse({ code: 404, msg: 'file not found', data: null }));
    await expect(download('downloadFile', { id: 9 })).rejects.toMatchObject({ code: 404 });
    expect(notify.error).toHaveBeenCalledWith('file not found code: 404');
  });
});
