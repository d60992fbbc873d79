import { SESSION_WS_PATH } from '@bwc/protocol';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { api } from './api';
import type { Session } from './helpers';
import { TestConsole } from './ws-client';

/** A console logged in (client_login) on the session push channel with the session's user info. */
export async function sessionConsole(app: FastifyInstance, wsBase: string, s: Session): Promise<TestConsole> {
  const info = await api<{ logincode: string; username: string; scode: string; auth_cate: string }>(app, 'userInfo', s);
  const c = await TestConsole.open(`${wsBase}${SESSION_WS_PATH}`, s.headers);
  c.send({
    cmd: 'client_login',
    logincode: info.data.logincode,
    username: info.data.username,
    scode: info.data.scode,
    cate: info.data.auth_cate,
  });
  expect(await c.next((m) => m.cmd === 'client_login')).toMatchObject({ code: 200 });
  return c;
}

/**
 * Everything the server sent this console before now: a ping answered on the same socket comes
 * after every frame the server had already sent to it.
 */
export async function drain(c: TestConsole): Promise<void> {
  const before = c.messages.length;
  c.send({ cmd: 'ping' });
  await c.next((m) => m.cmd === 'pong' && c.messages.indexOf(m) >= before);
}
