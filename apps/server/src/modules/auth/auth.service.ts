import { randomBytes } from 'node:crypto';
import type { ServerDeps } from '../../deps';
import {
  decodeLoginInfo,
  LOGIN_SOURCE_WINDOW_MS,
  ResultCode,
  SIGNATURE_MAX_SKEW_MS,
  verifySignature,
  type LoginRequest,
  type LoginResult,
} from '@bwc/protocol';
import type { FastifyRequest } from 'fastify';
import type { LicenceService } from '../licence/licence.service';
import { readSettings } from '../../db/settings';
import { hashToken } from '../../http/auth';
import { AppError, Errors } from '../../http/errors';
import { workstationsInUse } from '../licence/licence.routes';
import { consumeCaptcha } from './captcha';
import { clearAccountFailures, recentFailures, recordFailure } from './login-failure.repository';
import { accountLock, minutesUntil, secondsUntil, sourceWaitUntil } from './lockout';
import { verifyAgainstDummy, verifyLoginDigest } from './password';
import { createSession, kickOtherSessions } from './session.repository';
import { findUserForLogin } from './user.repository';

/** A sha256 hex digest, as login_info carries the password. */
const DIGEST = /^[0-9a-f]{64}$/;

/** The signature covers the fields as sent; pe_signals may have been omitted (schema default ''). */
function signatureValid(body: LoginRequest): boolean {
  const fields: Record<string, unknown> = { ...body };
  if (verifySignature(fields)) return true;
  return body.pe_signals === '' && verifySignature({ ...fields, pe_signals: undefined });
}

/** The account's own lock state (normalset limit and lock minutes); other accounts' failures never count. */
async function accountLockState(deps: ServerDeps, username: string) {
  const { login_fail_limit, login_lock_minutes } = await readSettings(deps.db, 'normalset');
  const now = Date.now();
  const since = new Date(now - 2 * login_lock_minutes * 60_000).toISOString();
  return accountLock(await recentFailures(deps.db, since, { username }), now, login_fail_limit, login_lock_minutes);
}

/** Refuses an attempt from an address that must still wait after its recent failures (never a lock). */
async function checkSourceThrottle(deps: ServerDeps, ip: string): Promise<void> {
  const now = Date.now();
  const since = new Date(now - LOGIN_SOURCE_WINDOW_MS).toISOString();
  const until = sourceWaitUntil(await recentFailures(deps.db, since, { ip }), now);
  if (until) throw Errors.throttled(secondsUntil(until, now));
}

/**
 * The login flow: signature and freshness, the source address's throttle (before the captcha, so a
 * waiting console keeps its captcha), one-time captcha, login_info, the account's lock, licence,
 * credentials, account status, workstation limit; then a new session that forces the user's other
 * sessions offline. `req.ip` is the client's address: X-Forwarded-For counts only from the
 * configured TRUSTED_PROXIES (app.ts).
 */
export async function login(
  deps: ServerDeps,
  licenceService: LicenceService,
  req: FastifyRequest,
  body: LoginRequest,
): Promise<LoginResult & { sessionToken: string }> {
  if (!signatureValid(body) || Math.abs(Date.now() - body.timestamp) > SIGNATURE_MAX_SKEW_MS) throw Errors.signature();
  await checkSourceThrottle(deps, req.ip);

  const captcha = await consumeCaptcha(deps.db, body.token, body.captcha_code);
  if (captcha !== 'ok') throw Errors.captcha(captcha === 'wrong' ? 'errors.captcha.wrong' : 'errors.captcha.expired');

  const info = decodeLoginInfo(body.login_info);
  if (!info || !info.username.trim() || info.username.length > 64 || !DIGEST.test(info.password)) {
    throw new AppError(ResultCode.INVALID, 'errors.login.badInfo');
  }
  const username = info.username.trim();
  req.audit.actor = { username };

  const lock = await accountLockState(deps, username);
  if (lock.locked) throw Errors.locked(minutesUntil(lock.unlockAt, Date.now()));

  const licence = await licenceService.status();
  if (licence.state !== 'valid')
    throw Errors.licence(licence.state === 'expired' ? 'errors.licence.expired' : 'errors.licence.unregistered');

  const user = await findUserForLogin(deps.db, username);
  // unknown user and wrong password get the same answer and both count as failures
  const passwordOk = user
    ? await verifyLoginDigest(user.password_hash, info.password)
    : await verifyAgainstDummy(info.password);
  if (!user || !passwordOk) {
    await recordFailure(deps.db, username, req.ip);
    const after = await accountLockState(deps, username);
    if (after.locked) throw Errors.locked(minutesUntil(after.unlockAt, Date.now()));
    // 400, not 401: a 401 would send the console to the login screen it is already on
    throw new AppError(ResultCode.INVALID, 'errors.login.failed', { left: after.left });
  }
  req.audit.actor = { id: user.id, username: user.username, unit_id: user.unit_id, unit_name: user.unit_name };
  if (user.status !== 'enabled') throw new AppError(ResultCode.FORBIDDEN, 'errors.login.disabled');

  const inUse = await workstationsInUse(deps, user.id);
  if (inUse >= licence.payload.workstations)
    throw Errors.licence('errors.licence.workstations', { limit: licence.payload.workstations });

  await clearAccountFailures(deps.db, username);
  const sessionToken = randomBytes(32).toString('base64url');
  const userAgent = String(req.headers['user-agent'] ?? '').slice(0, 512);
  const sessionId = await deps.db.transaction().execute(async (trx) => {
    const id = await createSession(trx, {
      token_hash: hashToken(sessionToken),
      user_id: user.id,
      ip: req.ip,
      user_agent: userAgent,
      pe_signals: body.pe_signals,
      logincode: randomBytes(12).toString('hex'),
    });
    await kickOtherSessions(trx, user.id, id);
    return id;
  });
  req.audit.target = sessionId;
  return { token: sessionToken, username: user.username, ifadmin: user.ifadmin, sessionToken };
}
