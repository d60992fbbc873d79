import { Api, SETTINGS_DEFAULTS } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSettings } from '../../db/settings';
import { createTestApp, envelope, type TestApp } from '../../../test/helpers';
import { productVersion } from './version';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('GET /rest/index/index/get', () => {
  it('answers page info without login, defaults first', async () => {
    expect(envelope(await t.app.inject({ method: 'GET', url: Api.pageInfo.path }))).toEqual({
      code: 200,
      msg: '操作成功',
      data: {
        title: SETTINGS_DEFAULTS.titleset.title,
        support_text: '',
        logo_path: '',
        background_path: '',
        version: productVersion(),
      },
    });
  });

  it('takes title and support text from titleset and the background from backset', async () => {
    await writeSettings(t.db, 'titleset', { title: '测试标题', support_text: '技术支持：测试' });
    await writeSettings(t.db, 'backset', { background_path: '/rest/index/index/background' });
    const data = envelope<Record<string, string>>(
      await t.app.inject({ method: 'GET', url: Api.pageInfo.path, headers: { 'x-lang': 'en-US' } }),
    );
    expect(data).toMatchObject({
      msg: 'Done',
      data: { title: '测试标题', support_text: '技术支持：测试', background_path: '/rest/index/index/background' },
    });
  });
});

describe('GET /rest/index/index/version', () => {
  it('answers the version and build without login', async () => {
    const v = envelope<{ version: string; build: string }>(
      await t.app.inject({ method: 'GET', url: Api.serverVersion.path }),
    );
    expect(v).toEqual({ code: 200, msg: '操作成功', data: { version: '0.1.0', build: '0.1.0' } });
  });
});
