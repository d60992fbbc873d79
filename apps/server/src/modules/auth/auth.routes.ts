import { type HeartbeatResult, HeartbeatState, hashPasswordForLogin } from '@bwc/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, Errors } from '../../http/errors';
import { lookupSession, requireLiveSession, SESSION_COOKIE } from '../../http/auth';
import { defineRoute } from '../../http/route';
import { ResultCode } from '@bwc/protocol';
import type { LicenceService } from '../licence/licence.service';
import { createCaptcha } from './captcha';
import { presentContext, presentUserInfo } from './auth.presenter';
import { login } from './auth.service';
import { hashLoginDigest, verifyLoginDigest } from './password';
import { endSession } from './session.repository';
import { allModuleCodes, getPasswordHash, roleModules, setPasswordHash } from './user.repository';
import { readGbSettings } from '../gb28181/gb28181.repository';

function sessionPushUrl(req: FastifyRequest): string {
  return `${req.protocol === 'https' ? 'wss' : 'ws'}://${req.host}/ws/session`;
}

/** Heartbeat state of the caller's session: success (alive), fail (forced off or ended), error (anything else). */
async function heartbeat(app: FastifyInstance, req: FastifyRequest): Promise<HeartbeatResult> {
  const found = await lookupSession(app, req);
  // no session (cookie gone, unknown token): it will not come back by retrying, so 'fail' stops
  // the console's heartbeat; 'error' (retry) is left to transient failures
  if (!found) return { state: HeartbeatState.FAIL };
  if (found.session.status !== 'active') return { state: HeartbeatState.FAIL };
  try {
    req.auth = await requireLiveSession(app, req, found);
    return { state: HeartbeatState.SUCCESS };
  } catch (err) {
    // licence expired: let the 406 through so that the console goes to /406
    if (err instanceof AppError && err.httpStatus !== 200) throw err;
    return {
      state:
        err instanceof AppError && err.code === ResultCode.UNAUTHENTICATED ? HeartbeatState.FAIL : HeartbeatState.ERROR,
    };
  }
}

/** Login, captcha, heartbeat, logout, session context and password change. */
export async function registerAuthRoutes(app: FastifyInstance, licence: LicenceService): Promise<void> {
  defineRoute(app, {
    api: 'loginGet',
    handler: async ({ db }) => ({
      ...(await createCaptcha(db, app.config.testCaptcha)),
      registered: (await licence.status()).state === 'valid',
    }),
  });

  defineRoute(app, {
    api: 'login',
    msg: 'success.login',
    handler: async ({ req, reply, body }) => {
      const { sessionToken, ...result } = await login(app, licence, req, body);
      reply.setCookie(SESSION_COOKIE, sessionToken, {
        httpOnly: true,
        sameSite: 'lax',
        path: '/',
        secure: req.protocol === 'https',
      });
      return result;
    },
  });

  defineRoute(app, {
    api: 'logout',
    msg: 'success.logout',
    handler: async ({ req, reply }) => {
      const found = await lookupSession(app, req);
      if (found) {
        req.audit.actor = {
          id: found.user.id,
          username: found.user.username,
          unit_id: found.user.unit_id,
          unit_name: found.user.unit_name,
        };
        req.audit.target = found.session.id;
        await endSession(app.db, found.session.id);
      }
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
      return null;
    },
  });

  defineRoute(app, {
    api: 'heartbeatCreate',
    selfAuth: true,
    handler: async ({ req }) => heartbeat(app, req),
  });
  defineRoute(app, {
    api: 'heartbeatCheck',
    selfAuth: true,
    handler: async ({ req }) => heartbeat(app, req),
  });

  defineRoute(app, {
    api: 'userInfo',
    handler: async ({ req }) => presentUserInfo(req.auth!, sessionPushUrl(req)),
  });

  defineRoute(app, {
    api: 'userContext',
    handler: async ({ db, user }) =>
      presentContext(
        await roleModules(db, user.role_id),
        await allModuleCodes(db),
        (await readGbSettings(db)).gb_mode === 1,
      ),
  });

  defineRoute(app, {
    api: 'changePassword',
    msg: 'success.passwordChanged',
    handler: async ({ db, user, body, req }) => {
      req.audit.target = user.id;
      const stored = await getPasswordHash(db, user.id);
      if (!stored || !(await verifyLoginDigest(stored, hashPasswordForLogin(body.old_password))))
        throw Errors.invalid('errors.password.oldWrong');
      if (body.new_password === body.old_password) throw Errors.invalid('errors.password.same');
      await setPasswordHash(db, user.id, await hashLoginDigest(hashPasswordForLogin(body.new_password)));
      return null;
    },
  });
}
