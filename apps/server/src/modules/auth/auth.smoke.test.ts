import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, envelope, login, type TestApp } from '../../../test/helpers';

describe('login smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());
  it('admin logs in and reads user info', async () => {
    const s = await login(t.app, DEMO.admin.username, DEMO.admin.password);
    const res = await t.app.inject({ method: 'GET', url: '/rest/user/user/get_info', headers: s.headers });
    expect(envelope(res)).toMatchObject({ code: 200, data: { username: 'admin', ifadmin: 1 } });
  });
});
