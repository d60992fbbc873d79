import { createHash } from 'node:crypto';
import type { EndpointAuth } from '@bwc/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readSettings } from '../db/settings';
import { roleCan } from '../modules/auth/permission.repository';
import {
  endSession,
  findSessionByTokenHash,
  touchSession,
  type SessionWithUser,
} from '../modules/auth/session.repository';
import { Errors } from './errors';

export const SESSION_COOKIE = 'bwc_sid';
/** last_seen is written at most this often per session */
const TOUCH_INTERVAL_MS = 15_000;

export type AuthUser = SessionWithUser['user'];
export type AuthContext = SessionWithUser;

/**
 * Checks that run after a session was found, before the permission check (the licence module
 * adds "licence expired -> 406" here). A gate throws an AppError to refuse.
 */
export type SessionGate = (req: FastifyRequest, auth: AuthContext) => Promise<void>;

declare module 'fastify' {
  interface FastifyRequest {
    /** the caller's session and user; set by the guard, null on public routes without a session */
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    sessionGates: SessionGate[];
  }
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Session token from `Authorization: Bearer <token>` or the `bwc_sid` cookie. */
export function readToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  return req.cookies?.[SESSION_COOKIE] || undefined;
}

/** The session behind the request's token, whatever its status (heartbeat needs kicked ones too). */
export async function lookupSession(app: FastifyInstance, req: FastifyRequest): Promise<AuthContext | undefined> {
  const token = readToken(req);
  return token ? findSessionByTokenHash(app.db, hashToken(token)) : undefined;
}

/**
 * Turn a looked-up session into a live one or throw 401 with the reason: none, forced offline,
 * ended or idle past normalset.session_timeout_minutes, account disabled.
 */
export async function requireLiveSession(
  app: FastifyInstance,
  req: FastifyRequest,
  found: AuthContext | undefined,
): Promise<AuthContext> {
  if (!found) throw Errors.unauthenticated();
  if (found.session.status === 'kicked') throw Errors.forcedOffline();
  if (found.session.status !== 'active') throw Errors.sessionExpired();
  if (found.user.status !== 'enabled') {
    await endSession(app.db, found.session.id);
    throw Errors.unauthenticated();
  }
  const { session_timeout_minutes } = await readSettings(app.db, 'normalset');
  const idleMs = Date.now() - Date.parse(found.session.last_seen);
  if (idleMs > session_timeout_minutes * 60_000) {
    await endSession(app.db, found.session.id);
    throw Errors.sessionExpired();
  }
  for (const gate of app.sessionGates) await gate(req, found);
  if (idleMs > TOUCH_INTERVAL_MS) await touchSession(app.db, found.session.id);
  return found;
}

/** Enforce an endpoint's auth rule of the protocol `Api` registry; sets `req.auth`. */
export async function authorize(app: FastifyInstance, req: FastifyRequest, rule: EndpointAuth): Promise<void> {
  if (rule.kind === 'public') {
    const found = await lookupSession(app, req);
    req.auth = found && found.session.status === 'active' && found.user.status === 'enabled' ? found : null;
    return;
  }
  const auth = await requireLiveSession(app, req, await lookupSession(app, req));
  req.auth = auth;
  if (rule.kind === 'admin' && auth.user.ifadmin !== 1) throw Errors.adminOnly();
  if (rule.kind === 'menu' && !(await roleCan(app.db, auth.user.role_id, rule.menu, rule.action))) {
    throw Errors.forbidden(rule.menu, rule.action);
  }
  if (rule.kind === 'anyMenu') {
    for (const menu of rule.menus) if (await roleCan(app.db, auth.user.role_id, menu, rule.action)) return;
    throw Errors.forbidden(rule.menus[0], rule.action);
  }
}
