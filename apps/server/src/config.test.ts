import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('config', () => {
  it('has defaults: port 8080, SQLite in DATA_DIR, dispatch mode', () => {
    const c = loadConfig({ DATA_DIR: '/tmp/bwc-cfg' }, []);
    expect(c).toMatchObject({
      port: 8080,
      database: { kind: 'sqlite', path: '/tmp/bwc-cfg/bwc.db' },
      gbMode: false,
      demo: false,
      seed: false,
      testCaptcha: undefined,
    });
  });

  it('takes flags over the environment', () => {
    const c = loadConfig({ PORT: '9000' }, [
      '--port',
      '18081',
      '--database-url',
      'postgres://bwc:bwc@127.0.0.1:5432/x',
      '--demo',
      '--gb',
    ]);
    expect(c).toMatchObject({
      port: 18081,
      database: { kind: 'postgres', url: 'postgres://bwc:bwc@127.0.0.1:5432/x' },
      demo: true,
      seed: true,
      gbMode: true,
    });
  });

  it('refuses TEST_CAPTCHA outside NODE_ENV=test', () => {
    expect(() => loadConfig({ TEST_CAPTCHA: '1234', NODE_ENV: 'production' })).toThrow(
      /TEST_CAPTCHA: is only allowed with NODE_ENV=test/,
    );
    expect(() => loadConfig({ TEST_CAPTCHA: '1234' })).toThrow(ConfigError);
    expect(loadConfig({ TEST_CAPTCHA: '1234', NODE_ENV: 'test' }).testCaptcha).toBe('1234');
  });

  it('names each bad setting', () => {
    expect(() => loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', DEMO: 'yes' })).toThrow(
      /PORT: must be a port number from 0 to 65535\n {2}DATABASE_URL: must be sqlite:<path> or postgres.*\n {2}DEMO: must be 0 or 1/,
    );
    expect(() => loadConfig({}, ['--bogus'])).toThrow(/bad command-line flag/);
    expect(() => loadConfig({ WEB_DIST: '/nonexistent-dir' })).toThrow(/WEB_DIST: .* has no index.html/);
  });

  it('reads TRUSTED_PROXIES as addresses, CIDR ranges and proxy-addr names; none by default', () => {
    expect(loadConfig({}).trustedProxies).toEqual([]);
    expect(loadConfig({ TRUSTED_PROXIES: ' 127.0.0.1, 10.0.0.0/8 ,::1,fd00::/8,loopback' }).trustedProxies).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    for (const bad of ['proxy.example', '10.0.0.0/33', '10.0.0.1/8/2', '10.0.0', '*'])
      expect(() => loadConfig({ TRUSTED_PROXIES: `127.0.0.1,${bad}` })).toThrow(
        /TRUSTED_PROXIES: must be a comma-separated list of proxy addresses or CIDR ranges/,
      );
  });
});
