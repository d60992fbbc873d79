import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../../../test/helpers';
import { loadConfig } from '../../config';
import { osmandTime, parseOsmand } from './osmand';

describe('OsmAnd parameters', () => {
  it('reads times as epoch seconds, epoch ms, ISO or "yyyy-MM-dd HH:mm:ss" (UTC)', () => {
    expect(osmandTime('1767225600')).toBe(1767225600000);
    expect(osmandTime(1767225600123)).toBe(1767225600123);
    expect(osmandTime('2026-01-01 08:00:00')).toBe('2026-01-01T08:00:00Z');
    expect(osmandTime('2026-01-01T08:00:00+08:00')).toBe('2026-01-01T08:00:00+08:00');
    expect(osmandTime('')).toBeUndefined();
  });

  it('maps query parameters (speed in knots) and leaves bad numbers for validation', () => {
    expect(
      parseOsmand(
        { id: '123456', lat: '22.5', lon: '114.1', timestamp: '1767225600', speed: '1', bearing: '90', batt: '50' },
        null,
      ),
    ).toEqual({
      id: '123456',
      item: { time: 1767225600000, lat: 22.5, lng: 114.1, speed: 1.852, course: 90, battery: 50 },
    });
    expect(parseOsmand({ deviceid: 'X1', lat: 'abc', lon: '1' }, null)?.item.lat).toBeNaN();
    expect(parseOsmand({ lat: '1', lon: '1' }, null)).toBeNull();
    // form bodies count too
    expect(parseOsmand({}, { id: 'F1', lat: '1', lon: '2' })?.id).toBe('F1');
  });

  it('maps the Traccar Client JSON (speed m/s, battery 0..1)', () => {
    const fix = parseOsmand(
      {},
      {
        device_id: 'J1',
        location: {
          timestamp: '2026-01-01T00:00:00Z',
          coords: { latitude: 1, longitude: 2, speed: 10, heading: -1 },
          battery: { level: 0.25 },
        },
      },
    );
    expect(fix).toEqual({ id: 'J1', item: { time: '2026-01-01T00:00:00Z', lat: 1, lng: 2, speed: 36, battery: 25 } });
  });
});

describe('config', () => {
  it('OSMAND_PORT defaults to 5055, 0 disables, other values are refused with a message', () => {
    expect(loadConfig({ DATA_DIR: '/tmp/x' }).osmandPort).toBe(5055);
    expect(loadConfig({ DATA_DIR: '/tmp/x', OSMAND_PORT: '0' }).osmandPort).toBe(0);
    expect(() => loadConfig({ OSMAND_PORT: '70000' })).toThrow(
      /OSMAND_PORT: must be a port number from 0 to 65535 \(0 disables\)/,
    );
    expect(() => loadConfig({ DEVICE_PROVISION_KEY: 'short' })).toThrow(
      /DEVICE_PROVISION_KEY: must be at least 16 characters/,
    );
  });
});

describe('OsmAnd port taken', () => {
  it('tells the operator on stderr (the terminal of npm start) and the server goes on', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const t = await createTestApp({ osmandPort: port });
    try {
      const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
      await expect
        .poll(() => written.join(''), { timeout: 30_000 })
        .toContain(`OsmAnd (Traccar Client) ingest cannot listen on port ${port} (EADDRINUSE)`);
      expect((await fetch(`${address}/rest/index/index/get`)).status).toBe(200);
    } finally {
      spy.mockRestore();
      await t.close();
      blocker.close();
    }
  });
});
