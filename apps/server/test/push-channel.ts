import { SESSION_WS_PATH } from '@bwc/protocol';
import type { FastifyInstance } from 'fastify';
import { api } from './api';
import type { Session } from './helpers';
import { TestConsole } from './ws-client';

/**
 * A console on the session push channel (bell and map) of the server at `wsBase` (ws://host:port),
 * logged in with the session's user info as the console does; throws when the login is refused.
 */
export async function openPushChannel(app: FastifyInstance, wsBase: string, s: Session): Promise<TestConsole> {
  const info = await api<{ logincode: string; username: string; scode: string; auth_cate: string }>(app, 'userInfo', s);
  const ws = await TestConsole.open(`${wsBase}${SESSION_WS_PATH}`, s.headers);
  ws.send({
    cmd: 'client_login',
    logincode: info.data.logincode,
    username: info.data.username,
    scode: info.data.scode,
    cate: info.data.auth_cate,
  });
  const answer = await ws.next((m) => m.cmd === 'client_login');
  if (answer.code !== 200) throw new Error(`push channel login refused: ${String(answer.code)} ${String(answer.msg)}`);
  return ws;
}
