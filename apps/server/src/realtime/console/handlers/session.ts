import { hashPasswordForLogin, UserType } from '@bwc/protocol';
import { Errors } from '../../../http/errors';
import { hashLoginDigest, verifyLoginDigest } from '../../../modules/auth/password';
import { getPasswordHash, setPasswordHash } from '../../../modules/auth/user.repository';
import { ConsoleErrors } from '../errors';
import { defineHandler, type ConsoleHandler } from '../handler';

/**
 * Session family: heartbeat (and resume of a login on a new connection), logon, logout and the
 * console user's password (spec part 1 sections 3, 4 and 5).
 */
export const sessionHandlers: ConsoleHandler[] = [
  defineHandler({
    code: 'heartbeat',
    handler: async ({ conn, body, service, after }) => {
      if (!conn.login && body.clientid && body.token) {
        if (await service.logins.resume(conn, body.clientid, body.token)) after(() => service.loggedOn(conn));
      } else await service.logins.touch(conn);
      return {
        logged_on: conn.login ? 1 : 0,
        ...(conn.login ? { uid: conn.login.uid } : {}),
        time: Date.now(),
      };
    },
  }),

  defineHandler({
    code: 'req_logon',
    handler: async ({ conn, body, service, after }) => {
      const answer = await service.logins.logon(conn, body);
      after(() => service.loggedOn(conn));
      return answer;
    },
  }),

  // without a login there is nothing to end: the answer is still a success (the SDK clears its cache)
  defineHandler({
    code: 'req_logout',
    handler: async ({ conn, service }) => {
      await service.logins.logout(conn);
      return {};
    },
  }),

  defineHandler({
    code: 'req_change_passwd',
    handler: async ({ login, body, db }) => {
      if (login.user_type === UserType.TERMINAL || !login.user) throw ConsoleErrors.conflict('console.passwdTerminal');
      if (body.username !== login.username) throw ConsoleErrors.refused('console.passwdOwnOnly');
      const stored = await getPasswordHash(db, login.user.id);
      if (!stored || !(await verifyLoginDigest(stored, hashPasswordForLogin(body.oldpasswd))))
        throw Errors.invalid('errors.password.oldWrong');
      if (body.newpasswd === body.oldpasswd) throw Errors.invalid('errors.password.same');
      await setPasswordHash(db, login.user.id, await hashLoginDigest(hashPasswordForLogin(body.newpasswd)));
      return {};
    },
  }),
];
