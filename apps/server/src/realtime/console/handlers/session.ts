import { defineHandler, type ConsoleHandler } from '../handler';

/**
 * Session family: heartbeat (logon, logout and the password come with the accounts).
 */
export const sessionHandlers: ConsoleHandler[] = [
  defineHandler({
    code: 'heartbeat',
    handler: async ({ conn }) => ({
      logged_on: conn.login ? 1 : 0,
      ...(conn.login ? { uid: conn.login.uid } : {}),
      time: Date.now(),
    }),
  }),
];
