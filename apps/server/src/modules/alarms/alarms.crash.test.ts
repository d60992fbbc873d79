import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO, login, TEST_CAPTCHA } from '../../../test/helpers';
import { buildApp } from '../../app';
import type { Config } from '../../config';
import { addDevice, unitIdOf, type CreatedDevice } from '../../../test/devices';

/**
 * Crash safety of the SOS path: kill -9 the server during an SOS storm; after a restart every SOS whose
 * ingest was answered has exactly one alarm. Always a temp SQLite file (a real server child).
 */

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../../..');
const dataDir = mkdtempSync(join(tmpdir(), 'bwc-crash-'));
const dbFile = join(dataDir, 'bwc.db');
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (typeof a === 'object' && a ? res(a.port) : rej(new Error('no port'))));
    });
  });
}

async function startServer(port: number): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DEMO: '1',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: `sqlite:${dbFile}`,
    OSMAND_PORT: '0',
    LOG_LEVEL: 'error',
    NODE_ENV: 'production',
  };
  delete env.TEST_CAPTCHA;
  delete env.TEST_DATABASE_URL;
  delete env.VITEST;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  await new Promise<void>((res, rej) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('bwc console server')) res();
    });
    child.once('exit', (code) => rej(new Error(`server exited with ${code}: ${stderr.slice(-2000)}`)));
  });
  return child;
}

async function post(base: string, path: string, body: unknown, token?: string) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { code: number; data: Record<string, unknown> };
}

describe('alarm reliability (kill -9 during an SOS storm)', () => {
  it('every answered SOS is stored as exactly one alarm after a restart', { timeout: 240_000 }, async () => {
    // prepare: migrations, demo seed, devices (in process, then closed)
    const config: Config = {
      port: 0,
      host: '127.0.0.1',
      dataDir,
      database: { kind: 'sqlite', path: dbFile },
      nodeEnv: 'test',
      logLevel: 'silent',
      testCaptcha: TEST_CAPTCHA,
      licencePublicKey: undefined,
      demo: true,
      gbMode: false,
      webDist: null,
      seed: true,
    };
    const prep = await buildApp(config);
    const admin = await login(prep, DEMO.admin.username, DEMO.admin.password);
    const unit = await unitIdOf(prep.db, '440304000000');
    const devices: CreatedDevice[] = [];
    for (let i = 0; i < 20; i++) devices.push(await addDevice(prep, admin, unit));
    await prep.close();

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    let child = await startServer(port);
    const tokens: string[] = [];
    for (const d of devices) {
      const env = await post(base, '/rest/device/api/login', { device: d.hostbody, secret: d.secret });
      expect(env.code).toBe(200);
      tokens.push(String(env.data.token));
    }

    // storm: 20 devices, each sending SOS back to back; kill -9 mid-storm
    const answered: number[] = [];
    let stop = false;
    const loops = tokens.map(async (token, i) => {
      let n = 0;
      while (!stop) {
        try {
          const env = await post(base, '/rest/device/api/sos', { message: `storm ${i}-${n++}` }, token);
          if (env.code === 200) answered.push(Number(env.data.event_id));
        } catch {
          return; // connection refused / reset: the server is gone
        }
      }
    });
    await new Promise((r) => setTimeout(r, 1_500));
    child.kill('SIGKILL');
    stop = true;
    await Promise.all(loops);
    await new Promise<void>((r) => (child.exitCode !== null || child.signalCode ? r() : child.once('exit', () => r())));
    expect(answered.length).toBeGreaterThan(20);

    const count = (sqlText: string) => {
      const db = new SQLite(dbFile, { fileMustExist: true });
      try {
        return Number((db.prepare(sqlText).get() as { n: number }).n);
      } finally {
        db.close();
      }
    };
    const orphans =
      count("select count(*) as n from device_events where type = 'sos'") -
      count("select count(*) as n from alarms where eid like 'sos:%'");
    console.warn(`kill -9 storm: ${answered.length} SOS answered, ${orphans} without an alarm at the kill`);

    // restart: recovery runs before the server listens
    child = await startServer(port);
    child.kill('SIGTERM');
    await new Promise<void>((r) => child.once('exit', () => r()));

    const db = new SQLite(dbFile, { readonly: true, fileMustExist: true });
    try {
      const alarms = db.prepare("select eid from alarms where eid like 'sos:%'").all() as { eid: string }[];
      const eids = alarms.map((a) => a.eid);
      expect(new Set(eids).size).toBe(eids.length); // none twice
      const stored = new Set(eids);
      const missing = answered.filter((id) => !stored.has(`sos:${id}`));
      expect(missing).toEqual([]);
      // and no alarm without its source event
      const events = db.prepare("select count(*) as n from device_events where type = 'sos'").get() as { n: number };
      expect(eids.length).toBe(Number(events.n));
    } finally {
      db.close();
    }
  });
});
