import { X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { CONSOLE_WS_PATH } from '@bwc/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from '@bwc/simulator/ws';
import { createTestApp, type TestApp } from '../../test/helpers';
import { freePort } from '../../test/wait';
import { CERT_PATH, loadTlsMaterial } from './https';

/** GET over HTTPS trusting only `ca` (so that the certificate's names are checked too). */
function get(url: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { ca }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('HTTPS port', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const t of apps) await t.close();
  });

  it('serves the same console with a certificate it made, valid for 127.0.0.1 and localhost', async () => {
    const port = await freePort();
    const t = await createTestApp({ httpsPort: port });
    apps.push(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    expect(await t.app.https.started()).toBe(port);

    const cert = readFileSync(join(t.config.dataDir, 'tls', 'console.crt'), 'utf8');
    const x509 = new X509Certificate(cert);
    expect(x509.subjectAltName).toContain('DNS:localhost');
    expect(x509.subjectAltName).toContain('IP Address:127.0.0.1');

    // an API call and the certificate itself over HTTPS, checked against that certificate
    const api = await get(`https://127.0.0.1:${port}/rest/index/login/get`, cert);
    expect(api.status).toBe(200);
    expect(JSON.parse(api.body)).toMatchObject({ code: 200 });
    expect((await get(`https://localhost:${port}${CERT_PATH}`, cert)).body).toBe(cert);
    // and the plain port hands out the same certificate to download
    const plain = await t.app.inject({ method: 'GET', url: CERT_PATH });
    expect(plain.headers['content-disposition']).toContain('bwc-console.crt');
    expect(plain.body).toBe(cert);

    // the console service's websocket on the same port (wss)
    const ws = new WebSocket(`wss://127.0.0.1:${port}${CONSOLE_WS_PATH}`, { ca: cert });
    const opened = await new Promise<boolean>((resolve) => {
      ws.on('open', () => resolve(true));
      ws.on('error', () => resolve(false));
    });
    expect(opened).toBe(true);
    ws.close();
  });

  it('keeps the certificate it made, and uses configured files instead when given', async () => {
    const port = await freePort();
    const t = await createTestApp({ httpsPort: port });
    apps.push(t);
    const first = await loadTlsMaterial({ dataDir: t.config.dataDir });
    const again = await loadTlsMaterial({ dataDir: t.config.dataDir });
    expect(again.cert).toBe(first.cert);
    expect(again.generated).toBe(true);

    const certFile = join(t.config.dataDir, 'mine.crt');
    const keyFile = join(t.config.dataDir, 'mine.key');
    writeFileSync(certFile, first.cert);
    writeFileSync(keyFile, first.key);
    const configured = await loadTlsMaterial({ dataDir: '/nonexistent', certFile, keyFile });
    expect(configured).toMatchObject({ cert: first.cert, generated: false, certFile });
  });

  it('does not stop the server when its HTTPS port is taken, and says the certificate is not served', async () => {
    const port = await freePort();
    const a = await createTestApp({ httpsPort: port });
    const b = await createTestApp({ httpsPort: port });
    apps.push(a, b);
    await a.app.listen({ port: 0, host: '127.0.0.1' });
    expect(await a.app.https.started()).toBe(port);
    await b.app.listen({ port: 0, host: '127.0.0.1' });
    expect(await b.app.https.started()).toBeNull();
    const off = await createTestApp({});
    apps.push(off);
    const res = await off.app.inject({ method: 'GET', url: CERT_PATH });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 404 });
  });
});
