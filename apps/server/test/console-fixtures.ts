import { CONSOLE_WS_PATH, type GroupApi } from '@bwc/protocol';
import type { FastifyInstance } from 'fastify';
import { api } from './api';
import { ConsoleClient, type Message } from './console-client';
import type { Session } from './helpers';

/** Console-service fixtures: accounts from gis info, logged-on consoles and terminals. */

/** The websocket address of the service under the main port of a listening app. */
export function consoleUrl(address: string, query = ''): string {
  return `${address.replace('http', 'ws')}${CONSOLE_WS_PATH}${query}`;
}

/** group_api of gis info for the session's user. */
export async function groupApiOf(app: FastifyInstance, session: Session): Promise<GroupApi> {
  const env = await api<{ group_api: GroupApi }>(app, 'mapConfig', session);
  if (env.code !== 200) throw new Error(`map_get failed: ${env.code} ${env.msg}`);
  return env.data.group_api;
}

export interface LoggedOn {
  client: ConsoleClient;
  rsp: Message;
  uid: number;
  token: string;
}

/** Open a connection and log on as the session's console account (group_api), or throw. */
export async function logonConsole(
  app: FastifyInstance,
  url: string,
  session: Session,
  extra: Record<string, unknown> = {},
): Promise<LoggedOn> {
  const account = await groupApiOf(app, session);
  const client = await ConsoleClient.open(url);
  const rsp = await client.request('req_logon', {
    logon_name: account.username,
    passwd: account.djpwd,
    orgid: account.orgid,
    clientid: String(Date.now()),
    ...extra,
  });
  if (rsp.cmd_status !== 0)
    throw new Error(`console logon failed: ${String(rsp.cmd_status)} ${String(rsp.error_reason)}`);
  return { client, rsp, uid: rsp.uid as number, token: rsp.token as string };
}

/** Open a connection and log on as a terminal with its device credentials, or throw. */
export async function logonTerminal(
  url: string,
  device: { hostbody: string; secret: string },
  extra: Record<string, unknown> = {},
): Promise<LoggedOn> {
  const client = await ConsoleClient.open(url);
  const rsp = await client.request('req_logon', {
    logon_name: device.hostbody,
    passwd: device.secret,
    user_type: 0,
    clientid: String(Date.now()),
    ...extra,
  });
  if (rsp.cmd_status !== 0)
    throw new Error(`terminal logon failed: ${String(rsp.cmd_status)} ${String(rsp.error_reason)}`);
  return { client, rsp, uid: rsp.uid as number, token: rsp.token as string };
}
