import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { DEVICE_UPLOAD_PATH } from '@bwc/protocol';
import * as tus from 'tus-js-client';
import { afterAll, describe, expect, it } from 'vitest';
import { addDevice, unitIdOf } from '../../../../test/devices';
import { DEMO, login, TEST_CAPTCHA } from '../../../../test/helpers';
import { freePort, until } from '../../../../test/wait';
import { buildApp } from '../../../app';
import type { Config } from '../../../config';
import { FFMPEG } from './media-tools';

/**
 * kill -9 of the server in the middle of an upload: after a restart on the same DATA_DIR the
 * client resumes at the offset the server kept, the hash state is rebuilt from the partial file,
 * and the stored item's SHA-256 is the file's. A real server child on a temp SQLite file.
 */

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../../../..');
const dataDir = mkdtempSync(join(tmpdir(), 'bwc-ingest-crash-'));
const dbFile = join(dataDir, 'bwc.db');
let child: ChildProcess | null = null;
/** the server's log (pino JSON lines on stdout) */
let serverLog = '';
afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function startServer(port: number): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DEMO: '1',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: `sqlite:${dbFile}`,
    OSMAND_PORT: '0',
    RTMP_PORT: '0',
    LOG_LEVEL: 'info',
    NODE_ENV: 'production',
  };
  delete env.TEST_CAPTCHA;
  delete env.TEST_DATABASE_URL;
  delete env.VITEST;
  const proc = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  await new Promise<void>((res, rej) => {
    proc.stdout!.on('data', (chunk: Buffer) => {
      serverLog += chunk.toString();
      if (chunk.toString().includes('bwc console server')) res();
    });
    proc.once('exit', (code) => rej(new Error(`server exited with ${code}: ${stderr.slice(-2000)}`)));
  });
  return proc;
}

describe('evidence upload across a server crash', () => {
  it('kill -9 mid-upload, restart, resume: the stored hash is the file hash', { timeout: 180_000 }, async () => {
    const file = join(dataDir, 'long.mp4');
    execFileSync(FFMPEG, [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'testsrc=duration=8:size=640x480:rate=25',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-b:v',
      '4M',
      '-pix_fmt',
      'yuv420p',
      file,
    ]);
    const data = readFileSync(file);
    const expected = createHash('sha256').update(data).digest('hex');

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
    const cam = await addDevice(prep, admin, await unitIdOf(prep.db, '440304000000'));
    await prep.close();
    // HTTP Basic with the device's own credentials (the device API's second scheme)
    const headers = { authorization: `Basic ${Buffer.from(`${cam.hostbody}:${cam.secret}`).toString('base64')}` };

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    child = await startServer(port);
    const endpoint = `${base}${DEVICE_UPLOAD_PATH}`;
    const metadata = { filename: 'long.mp4', fileid: 'crash-1' };

    // creation, then one PATCH for the whole file of which only a third is sent: the server is
    // killed while that request is open and its bytes are reaching the disk
    const b64 = (v: string) => Buffer.from(v).toString('base64');
    const created = await fetch(endpoint, {
      method: 'POST',
      headers: {
        ...headers,
        'tus-resumable': '1.0.0',
        'upload-length': String(data.length),
        'upload-metadata': `filename ${b64(metadata.filename)},fileid ${b64(metadata.fileid)}`,
      },
    });
    expect(created.status).toBe(201);
    const url = new URL(created.headers.get('location')!, base).toString();
    const partial = join(dataDir, 'evidence', 'uploads', url.split('/').pop()!);
    const patch = request(url, {
      method: 'PATCH',
      headers: {
        ...headers,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
        'content-length': String(data.length),
      },
    });
    patch.on('error', () => {}); // the server goes away
    const third = Math.floor(data.length / 3);
    patch.write(data.subarray(0, third));
    await until('bytes of the open PATCH on disk', () => (statSync(partial, { throwIfNoEntry: false })?.size ?? 0) > 0);
    child.kill('SIGKILL');
    await new Promise((r) => (child!.exitCode !== null || child!.signalCode ? r(null) : child!.once('exit', r)));
    patch.destroy();

    child = await startServer(port);
    const head = await fetch(new URL(url, base), { method: 'HEAD', headers: { ...headers, 'tus-resumable': '1.0.0' } });
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(third);

    const patches: number[] = [];
    let itemId = 0;
    await new Promise<void>((res, rej) => {
      const upload = new tus.Upload(data, {
        endpoint,
        uploadUrl: url,
        metadata,
        headers,
        chunkSize: 512 * 1024,
        retryDelays: [0, 500],
        storeFingerprintForResuming: false,
        onBeforeRequest: (req) => {
          if (req.getMethod() === 'PATCH') patches.push(Number(req.getHeader('Upload-Offset')));
        },
        onAfterResponse: (_req, r) => {
          if (r.getHeader('Evidence-Item')) itemId = Number(r.getHeader('Evidence-Item'));
        },
        onError: rej,
        onSuccess: () => res(),
      });
      upload.start();
    });
    expect(patches[0]).toBe(offset);
    // the restarted server rebuilt the hash state from the partial file once
    expect(serverLog.match(/hash state rebuilt from the partial file/g)).toHaveLength(1);
    expect(itemId).toBeGreaterThan(0);
    child.kill('SIGTERM');
    await new Promise((r) => (child!.exitCode !== null ? r(null) : child!.once('exit', r)));
    child = null;

    const db = new SQLite(dbFile, { readonly: true });
    try {
      const item = db.prepare('select sha256, size from evidence_items where id = ?').get(itemId) as {
        sha256: string;
        size: number;
      };
      expect(item).toEqual({ sha256: expected, size: data.length });
      const stored = join(dataDir, 'evidence', 'objects', expected.slice(0, 2), expected.slice(2, 4), expected);
      expect(createHash('sha256').update(readFileSync(stored)).digest('hex')).toBe(expected);
    } finally {
      db.close();
    }
  });
});
