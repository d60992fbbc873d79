import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { hostname, networkInterfaces } from 'node:os';
import { dirname, resolve } from 'node:path';
import { createServer, type Server as TlsServer } from 'node:tls';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import selfsigned from 'selfsigned';
import { sendError } from './envelope';
import { Errors } from './errors';

/**
 * The console on HTTPS, a second port beside the plain one (HTTPS_PORT, default 8443): browsers
 * give the microphone (push-to-talk) only to a secure context, and http://localhost is one but
 * http://<server address> is not. The same application answers both ports, websockets and live
 * video included: each TLS connection is handed to the HTTP server as if it had arrived there.
 *
 * The certificate is TLS_CERT_FILE / TLS_KEY_FILE when both are set; otherwise one the server
 * made itself on its first start (DATA_DIR/tls/console.crt and console.key, valid 825 days for the
 * host's name, localhost and every address of the machine), kept and used again. Its public part
 * is served at CERT_PATH so that a dispatcher can download it and trust it (README).
 */

export const CERT_PATH = '/tls/console.crt';
const VALID_DAYS = 825;

export interface TlsMaterial {
  cert: string;
  key: string;
  certFile: string;
  /** made by this server (self-signed), not configured */
  generated: boolean;
}

/** The machine's names and addresses, for the generated certificate's subject alternative names. */
function localNames(): { dns: string[]; ips: string[] } {
  const ips = new Set(['127.0.0.1', '::1']);
  for (const list of Object.values(networkInterfaces()))
    for (const nic of list ?? []) if (!nic.address.startsWith('fe80')) ips.add(nic.address);
  return { dns: [...new Set(['localhost', hostname()])], ips: [...ips] };
}

/** Read a configured or earlier generated certificate, or make one and keep it under dataDir. */
export async function loadTlsMaterial(options: {
  dataDir: string;
  certFile?: string;
  keyFile?: string;
}): Promise<TlsMaterial> {
  if (options.certFile && options.keyFile) {
    const [cert, key] = await Promise.all([readFile(options.certFile, 'utf8'), readFile(options.keyFile, 'utf8')]);
    return { cert, key, certFile: options.certFile, generated: false };
  }
  const certFile = resolve(options.dataDir, 'tls', 'console.crt');
  const keyFile = resolve(options.dataDir, 'tls', 'console.key');
  if (existsSync(certFile) && existsSync(keyFile)) {
    const [cert, key] = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8')]);
    // an expired one is made again
    if (new Date(new X509Certificate(cert).validTo).getTime() > Date.now() + 86_400_000)
      return { cert, key, certFile, generated: true };
  }
  const { dns, ips } = localNames();
  const made = await selfsigned.generate([{ name: 'commonName', value: `bwc console ${hostname()}` }], {
    notAfterDate: new Date(Date.now() + VALID_DAYS * 86_400_000),
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          ...dns.map((value) => ({ type: 2 as const, value })),
          ...ips.map((ip) => ({ type: 7 as const, ip })),
        ],
      },
    ],
  });
  await mkdir(dirname(certFile), { recursive: true });
  await writeFile(keyFile, made.private, { mode: 0o600 });
  await writeFile(certFile, made.cert);
  return { cert: made.cert, key: made.private, certFile, generated: true };
}

export interface HttpsListener {
  /** the HTTPS port once the start that listening began is over, null when off or it failed */
  started(): Promise<number | null>;
  port(): number | null;
}

/**
 * Serve `app` on HTTPS port `port` once the plain port listens; the public certificate at
 * CERT_PATH on both. A port already taken is logged, not fatal: the plain port works on.
 */
export function registerHttps(
  app: FastifyInstance,
  options: { port: number; certFile?: string; keyFile?: string },
): HttpsListener {
  let server: TlsServer | null = null;
  let material: TlsMaterial | null = null;

  app.get(CERT_PATH, { schema: { hide: true } }, async (_req, reply) => {
    if (!material) return sendError(reply, Errors.routeNotFound(CERT_PATH));
    return reply
      .type('application/x-x509-ca-cert')
      .header('content-disposition', 'attachment; filename="bwc-console.crt"')
      .send(material.cert);
  });

  let starting: Promise<number | null> | null = null;
  const start = async (): Promise<number | null> => {
    if (options.port <= 0) return null;
    try {
      material = await loadTlsMaterial({ dataDir: app.config.dataDir, ...options });
    } catch (err) {
      app.log.error({ err }, 'HTTPS off: the certificate could not be read or made');
      return null;
    }
    const tls = createServer({ cert: material.cert, key: material.key, ALPNProtocols: ['http/1.1'] }, (socket) =>
      app.server.emit('connection', socket),
    );
    tls.on('tlsClientError', () => {}); // a browser refusing the certificate: its own business
    try {
      await new Promise<void>((resolveListen, reject) => {
        tls.once('error', reject);
        tls.listen(options.port, app.config.host, () => {
          tls.off('error', reject);
          resolveListen();
        });
      });
    } catch (err) {
      app.log.warn({ err: (err as Error).message, port: options.port }, 'HTTPS off: cannot listen');
      return null;
    }
    server = tls;
    const port = (tls.address() as AddressInfo).port;
    app.log.info({ port, certificate: material.certFile, generated: material.generated }, 'HTTPS listening');
    return port;
  };
  // once the plain port listens (Fastify may resolve listen() before this hook runs: started() starts it then)
  app.addHook('onListen', async () => {
    starting ??= start();
  });
  app.addHook('onClose', async () => {
    if (!server) return;
    // stops accepting; the connections it handed over close with the HTTP server's
    server.close();
    server = null;
  });
  return {
    started: () => {
      if (!starting && app.server.listening) starting = start();
      return starting ?? Promise.resolve(null);
    },
    port: () => (server ? (server.address() as AddressInfo).port : null),
  };
}
