import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  encodeLoginInfo,
  hashPasswordForLogin,
  MODULE_BY_ID,
  signPayload,
  type Action,
  type Envelope,
} from '@bwc/protocol';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app';
import type { Config } from '../src/config';
import { now, type Db } from '../src/db/connection';
import { expandGrants } from '../src/db/seed/demo';
import { hashPlainPassword } from '../src/modules/auth/password';

/** Captcha text of every test app (TEST_CAPTCHA). */
export const TEST_CAPTCHA = '1234';

export const DEMO = {
  admin: { username: 'admin', password: 'Admin@123' },
  dispatcher: { username: 'dispatcher', password: 'Dispatch@1' },
  unitadmin: { username: 'unitadmin', password: 'Unit@1234' },
} as const;

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: Config;
  /** close the app, drop the PostgreSQL database or delete the SQLite file */
  close: () => Promise<void>;
}

export const usingPostgres = (): boolean => /^postgres(ql)?:\/\//.test(process.env.TEST_DATABASE_URL ?? '');

async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = new URL(process.env.TEST_DATABASE_URL!);
  const name = `bwc_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: base.toString() });
      await client.connect();
      try {
        // an autovacuum worker (a superuser backend that FORCE may not end) can still be busy in
        // a database a test filled: wait for it rather than fail the suite
        for (let attempt = 1; ; attempt++) {
          try {
            await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            break;
          } catch (err) {
            if ((err as { code?: string }).code !== '42501' || attempt >= 20) throw err;
            await new Promise((r) => setTimeout(r, 250));
          }
        }
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * A ready app on a fresh database (SQLite file in a temp DATA_DIR, or a new PostgreSQL
 * database when TEST_DATABASE_URL is set), demo data seeded, demo licence registered,
 * captcha fixed to TEST_CAPTCHA. Override any config field (e.g. `{ demo: false }`).
 */
export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bwc-test-'));
  const pgDb = usingPostgres() ? await createPostgresDatabase() : null;
  const config: Config = {
    port: 0,
    host: '127.0.0.1',
    dataDir,
    database: pgDb ? { kind: 'postgres', url: pgDb.url } : { kind: 'sqlite', path: join(dataDir, 'bwc.db') },
    nodeEnv: 'test',
    logLevel: process.env.LOG_LEVEL ?? 'silent',
    testCaptcha: TEST_CAPTCHA,
    licencePublicKey: undefined,
    demo: true,
    gbMode: false,
    webDist: null,
    seed: true,
    ...overrides,
  };
  const app = await buildApp(config);
  return {
    app,
    db: app.db,
    config,
    close: async () => {
      await app.close();
      await pgDb?.drop();
      // a background writer of the closed app (pack build, checkpoint) may still finish a file: retry
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}

/** A signed login body as the console builds it; `overrides` replace fields after signing unless `resign`. */
export async function loginBody(
  app: FastifyInstance,
  username: string,
  password: string,
  options: { captcha?: string; timestamp?: number; overrides?: Record<string, unknown>; resign?: boolean } = {},
): Promise<Record<string, unknown>> {
  const page = await app.inject({ method: 'GET', url: '/rest/index/login/get' });
  const token = (page.json() as Envelope<{ token: string }>).data.token;
  const fields: Record<string, unknown> = {
    login_info: encodeLoginInfo(username, hashPasswordForLogin(password)),
    token,
    captcha_code: options.captcha ?? TEST_CAPTCHA,
    pe_signals: 'vitest',
    timestamp: options.timestamp ?? Date.now(),
  };
  if (options.resign) Object.assign(fields, options.overrides);
  const body: Record<string, unknown> = { ...fields, signature: signPayload(fields) };
  if (!options.resign) Object.assign(body, options.overrides);
  return body;
}

export interface Session {
  token: string;
  /** `Authorization: Bearer` header to pass to inject */
  headers: Record<string, string>;
  /** the Set-Cookie value of bwc_sid */
  cookie: string;
}

/** Log in through the real endpoint; throws with the envelope when it fails. */
export async function login(app: FastifyInstance, username: string, password: string, ip?: string): Promise<Session> {
  const res = await app.inject({
    method: 'POST',
    url: '/rest/index/login/login',
    payload: await loginBody(app, username, password),
    ...(ip ? { remoteAddress: ip } : {}),
  });
  const env = res.json() as Envelope<{ token: string }>;
  if (env.code !== 200) throw new Error(`login ${username} failed: ${env.code} ${env.msg}`);
  const cookie = res.cookies.find((c) => c.name === 'bwc_sid')?.value ?? '';
  return { token: env.data.token, headers: { authorization: `Bearer ${env.data.token}` }, cookie };
}

export function envelope<T = unknown>(res: LightMyRequestResponse): Envelope<T> {
  return res.json() as Envelope<T>;
}

/** Factory: a role with actions on menu ids (ancestors get view, like the demo roles). */
export async function createRole(
  db: Db,
  name: string,
  grants: { ids: number[]; actions: Action[] }[] = [],
): Promise<number> {
  for (const g of grants) for (const id of g.ids) if (!MODULE_BY_ID.has(id)) throw new Error(`unknown menu id ${id}`);
  const role = await db
    .insertInto('roles')
    .values({ name, weight: 0, remark: '', created: now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const [moduleId, actions] of expandGrants(grants)) {
    await db
      .insertInto('role_permissions')
      .values({
        role_id: role.id,
        module_id: moduleId,
        view: +actions.has('view'),
        edit: +actions.has('edit'),
        add: +actions.has('add'),
      })
      .execute();
  }
  return role.id;
}

/** Factory: a user; defaults to the root unit, a role without permissions, enabled, password Test@1234. */
export async function createUser(
  db: Db,
  values: {
    username?: string;
    password?: string;
    roleId?: number;
    unitBh?: string;
    ifadmin?: number;
    status?: 'enabled' | 'disabled';
    hostname?: string;
  } = {},
): Promise<{ id: number; username: string; password: string }> {
  const username = values.username ?? `u_${randomBytes(4).toString('hex')}`;
  const password = values.password ?? 'Test@1234';
  const unit = values.unitBh
    ? await db.selectFrom('units').select('id').where('bh', '=', values.unitBh).executeTakeFirstOrThrow()
    : await db.selectFrom('units').select('id').where('pid', '=', 0).orderBy('id').executeTakeFirstOrThrow();
  const roleId = values.roleId ?? (await createRole(db, `role_${randomBytes(4).toString('hex')}`));
  const ts = now();
  const row = await db
    .insertInto('users')
    .values({
      username,
      password_hash: await hashPlainPassword(password),
      hostname: values.hostname ?? username,
      unit_id: unit.id,
      role_id: roleId,
      ifadmin: values.ifadmin ?? 0,
      status: values.status ?? 'enabled',
      phone: '',
      created: ts,
      updated: ts,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, username, password };
}

/** Rows of operation_log for an endpoint, newest first. */
export async function auditRows(db: Db, action: string) {
  return db.selectFrom('operation_log').selectAll().where('action', '=', action).orderBy('id', 'desc').execute();
}
