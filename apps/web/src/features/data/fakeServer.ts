import { vi } from 'vitest';

/** A fake fetch answering envelopes by path (how the console's page tests stand in for the server). */
export function fakeServer(handle: (path: string, body: Record<string, unknown>) => unknown) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const path = String(url).split('?')[0]!;
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    const answer = handle(path, body);
    const envelope =
      answer && typeof answer === 'object' && 'code' in answer ? answer : { code: 200, msg: '', data: answer ?? null };
    return new Response(JSON.stringify(envelope), { headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    fetchMock,
    calls: (path: string) =>
      fetchMock.mock.calls
        .filter(([url]) => String(url).split('?')[0] === path)
        .map(([, init]) => (init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {})),
  };
}
