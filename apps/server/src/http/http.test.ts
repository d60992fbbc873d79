import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { Api, MenuId } from '@bwc/protocol';
import Fastify, { type FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRole, createTestApp, createUser, DEMO, envelope, login, type TestApp } from '../../test/helpers';
import { authorize } from './auth';
import { installErrorHandler } from './error-handler';
import { Errors } from './errors';
import { assertInScope, inScope, unitScope } from './scope';

let t: TestApp;
let webDist: string;
beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), 'bwc-dist-'));
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>console</title>');
  writeFileSync(join(webDist, 'assets', 'app.js'), 'console.log(1)');
  // the build's compressed copies (apps/web/precompress.ts)
  writeFileSync(join(webDist, 'assets', 'app.js.br'), brotliCompressSync('console.log(1)'));
  writeFileSync(join(webDist, 'assets', 'app.js.gz'), gzipSync('console.log(1)'));
  writeFileSync(join(webDist, 'index.html.gz'), gzipSync('<!doctype html><title>console</title>'));
  t = await createTestApp({ webDist });
});
afterAll(async () => {
  await t.close();
  rmSync(webDist, { recursive: true, force: true });
});

describe('envelope answers for transport errors', () => {
  it('unknown /rest routes: HTTP 404 with an envelope naming the path', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await t.app.inject({ method, url: '/rest/no/such/thing?x=1' });
      expect(res.statusCode).toBe(404);
      expect(envelope(res)).toEqual({ code: 404, msg: '接口不存在：/rest/no/such/thing', data: null });
    }
  });

  it('bad JSON: code 400 with a clear msg', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: Api.login.path,
      headers: { 'content-type': 'application/json' },
      payload: '{"login_info": ',
    });
    expect(envelope(res)).toEqual({ code: 400, msg: '请求内容不是有效的 JSON', data: null });
    const en = await t.app.inject({
      method: 'POST',
      url: Api.login.path,
      headers: { 'content-type': 'application/json', 'x-lang': 'en-US' },
      payload: '[',
    });
    expect(envelope(en).msg).toBe('The request body is not valid JSON');
  });

  it("a 100,000-character query string: the envelope naming the problem, not the parser's own body", async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${address}${Api.announceList.path}?keyword=${'x'.repeat(100_000)}`);
    expect(res.status).toBe(431);
    expect(await res.json()).toEqual({ code: 400, msg: '请求地址或请求头过长，请缩短查询条件', data: null });
    // the server still answers
    expect((await fetch(`${address}${Api.pageInfo.path}`)).status).toBe(200);
  });

  it('too-large body: code 400 "too large"', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: Api.login.path,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ login_info: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(envelope(res)).toEqual({ code: 400, msg: '请求内容过大', data: null });
  });

  it('unsupported body type: code 400 "wrong format"', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: Api.login.path,
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(envelope(res)).toEqual({ code: 400, msg: '请求内容格式不正确', data: null });
  });

  it('a body that is not an object names the body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: Api.register.path,
      headers: { 'content-type': 'application/json' },
      payload: '"text"',
    });
    expect(envelope(res)).toEqual({ code: 400, msg: '字段 body：类型不正确', data: null });
  });
});

describe('unexpected errors', () => {
  it('are logged with the request id and answered errors.server with the id, never a stack', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const bare = Fastify({ logger: { level: 'error', stream }, genReqId: () => 'req-42' });
    bare.decorateRequest('result', null);
    installErrorHandler(bare);
    bare.get('/rest/boom', async () => {
      throw new Error('database exploded at /secret/path');
    });
    const res = await bare.inject({ method: 'GET', url: '/rest/boom' });
    expect(envelope(res)).toEqual({ code: 500, msg: '服务器内部错误（请求编号 req-42），请联系管理员', data: null });
    expect(res.body).not.toContain('exploded');
    expect(res.body).not.toContain('at ');
    const logged = lines.map((l) => JSON.parse(l) as { reqId: string; err: { message: string } });
    expect(logged[0]).toMatchObject({ reqId: 'req-42', err: { message: 'database exploded at /secret/path' } });
    await bare.close();
  });

  it('AppErrors keep their code and translate catalogue params', async () => {
    const bare = Fastify();
    bare.decorateRequest('result', null);
    installErrorHandler(bare);
    bare.get('/a', async () => {
      throw Errors.notFound('announcement');
    });
    bare.get('/b', async () => {
      throw Errors.forbidden(MenuId.SYSTEM_SETTINGS, 'edit');
    });
    expect(envelope(await bare.inject({ url: '/a' }))).toEqual({ code: 404, msg: '公告不存在', data: null });
    expect(envelope(await bare.inject({ url: '/b', headers: { 'x-lang': 'en-US' } })).msg).toBe(
      'Permission denied: this needs "edit" on menu 10002',
    );
    await bare.close();
  });
});

describe('console and docs', () => {
  it('serves the built console with an SPA fallback, never for /rest or missing files', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/system/systemset/titleset' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>console</title>');
    expect((await t.app.inject({ method: 'GET', url: '/' })).body).toContain('<title>console</title>');
    expect((await t.app.inject({ method: 'GET', url: '/assets/app.js' })).body).toBe('console.log(1)');
    expect((await t.app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
    expect(envelope(await t.app.inject({ method: 'GET', url: '/rest/unknown' })).code).toBe(404);
  });

  it('hashed assets are kept by the browser for good, the page is asked every time; both compressed when accepted', async () => {
    const asset = await t.app.inject({
      method: 'GET',
      url: '/assets/app.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.headers['content-type']).toMatch(/^application\/javascript/);
    expect(brotliDecompressSync(asset.rawPayload).toString()).toBe('console.log(1)');
    const gzipped = await t.app.inject({
      method: 'GET',
      url: '/assets/app.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe('console.log(1)');
    const plain = await t.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
    // the page names the current build's assets: never kept without asking; the SPA fallback too
    for (const url of ['/', '/index.html', '/data/manage/law']) {
      const page = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['cache-control'], url).toBe('no-cache');
      expect(page.headers['content-encoding'], url).toBe('gzip');
      expect(gunzipSync(page.rawPayload).toString(), url).toContain('<title>console</title>');
    }
  });

  it('publishes the OpenAPI document and the UI at /docs', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json() as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([Api.login.path, Api.userInfo.path, Api.register.path]),
    );
    expect((await t.app.inject({ method: 'GET', url: '/docs' })).statusCode).toBeLessThan(400);
  });
});

describe('guard and unit scope', () => {
  const fakeRequest = (token: string) =>
    ({ headers: { authorization: `Bearer ${token}` }, cookies: {}, auth: null }) as unknown as FastifyRequest;

  it('menu rules read the role from the database at each request', async () => {
    const roleId = await createRole(t.db, 'guard-test');
    const user = await createUser(t.db, { roleId });
    const s = await login(t.app, user.username, user.password);
    const rule = { kind: 'menu', menu: MenuId.ANNOUNCEMENTS, action: 'add' } as const;
    await expect(authorize(t.app, fakeRequest(s.token), rule)).rejects.toMatchObject({
      code: 403,
      key: 'errors.forbidden',
    });
    await t.db
      .insertInto('role_permissions')
      .values({ role_id: roleId, module_id: MenuId.ANNOUNCEMENTS, view: 1, edit: 0, add: 1 })
      .execute();
    const req = fakeRequest(s.token);
    await authorize(t.app, req, rule);
    expect(req.auth?.user.username).toBe(user.username);
    await expect(
      authorize(t.app, fakeRequest(s.token), { kind: 'menu', menu: MenuId.ANNOUNCEMENTS, action: 'edit' }),
    ).rejects.toMatchObject({ code: 403 });
  });

  it('admin rules need ifadmin 1; session rules need a live session', async () => {
    const d = await login(t.app, DEMO.dispatcher.username, DEMO.dispatcher.password);
    await expect(authorize(t.app, fakeRequest(d.token), { kind: 'admin' })).rejects.toMatchObject({
      code: 403,
      key: 'errors.adminOnly',
    });
    await expect(authorize(t.app, fakeRequest('bogus'), { kind: 'session' })).rejects.toMatchObject({
      code: 401,
      key: 'errors.unauthenticated',
    });
    const a = await login(t.app, DEMO.admin.username, DEMO.admin.password);
    await authorize(t.app, fakeRequest(a.token), { kind: 'admin' });
  });

  it('refuses a caller without the right before looking at his input (401/403, not a validation msg)', async () => {
    const badTitle = { type: 'titleset', title: 'a/b', support_text: '' };
    const anonymous = await t.app.inject({ method: 'POST', url: Api.settingsUpdate.path, payload: badTitle });
    expect(anonymous.json()).toMatchObject({ code: 401 });
    const notJson = await t.app.inject({
      method: 'POST',
      url: Api.announceAdd.path,
      headers: { 'content-type': 'application/json' },
      payload: '{broken',
    });
    expect(notJson.json()).toMatchObject({ code: 401 });
    const d = await login(t.app, DEMO.dispatcher.username, DEMO.dispatcher.password);
    const forbidden = await t.app.inject({
      method: 'POST',
      url: Api.announceAdd.path,
      headers: d.headers,
      payload: { title: '' },
    });
    expect(forbidden.json()).toMatchObject({ code: 403 });
  });

  it('unit scope: the unit admin sees his branch and its stations, an admin everything', async () => {
    const unitadmin = await t.db
      .selectFrom('users')
      .select(['ifadmin', 'unit_id'])
      .where('username', '=', 'unitadmin')
      .executeTakeFirstOrThrow();
    const scope = await unitScope(t.db, unitadmin);
    const branch = await t.db.selectFrom('units').select(['id', 'name']).where('pid', '=', unitadmin.unit_id).execute();
    expect(branch.map((u) => u.name).sort()).toEqual(['华富派出所', '莲花派出所', '香蜜湖派出所'].sort());
    expect(scope).toEqual({ all: false, ids: expect.arrayContaining([unitadmin.unit_id, ...branch.map((u) => u.id)]) });
    expect(scope.all === false && scope.ids.length).toBe(4);
    const root = await t.db.selectFrom('units').select('id').where('pid', '=', 0).executeTakeFirstOrThrow();
    expect(inScope(scope, root.id)).toBe(false);
    expect(() => assertInScope(scope, unitadmin.unit_id, root.id)).toThrow(
      expect.objectContaining({ code: 403, key: 'errors.outOfScope' }),
    );
    expect(await unitScope(t.db, { ifadmin: 1, unit_id: unitadmin.unit_id })).toEqual({ all: true });
  });
});

describe('demo seed', () => {
  it('has a 3-level tree of about 20 units, the 4 roles and the 3 accounts, and is idempotent', async () => {
    const { seedDemo } = await import('../db/seed/demo');
    await seedDemo(t.db);
    const units = await t.db.selectFrom('units').selectAll().execute();
    expect(units.length).toBe(21);
    expect(units.filter((u) => u.pid === 0)).toHaveLength(1);
    expect((await t.db.selectFrom('roles').select('name').execute()).map((r) => r.name)).toEqual(
      expect.arrayContaining(['管理员', '调度员', '单位管理员', '审计员']),
    );
    const users = await t.db
      .selectFrom('users')
      .select(['username', 'ifadmin'])
      .where('username', 'in', ['admin', 'dispatcher', 'unitadmin'])
      .execute();
    expect(users).toHaveLength(3);
    const auditor = await t.db.selectFrom('roles').select('id').where('name', '=', '审计员').executeTakeFirstOrThrow();
    const perms = await t.db
      .selectFrom('role_permissions')
      .selectAll()
      .where('role_id', '=', auditor.id)
      .where('module_id', '=', MenuId.OPERATION_LOG)
      .executeTakeFirstOrThrow();
    expect(perms).toMatchObject({ view: 1, edit: 0, add: 0 });
  });
});
