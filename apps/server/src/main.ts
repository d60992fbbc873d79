import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { CERT_PATH } from './http/https';

let config: Config;
try {
  config = loadConfig(process.env, process.argv.slice(2));
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}

const app = await buildApp(config).catch((err: unknown) => {
  console.error('server failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const timer = setTimeout(() => process.exit(1), 10_000);
  timer.unref();
  await app.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

try {
  await app.listen({ port: config.port, host: config.host });
} catch (err) {
  const code = (err as NodeJS.ErrnoException).code;
  console.error(
    code === 'EADDRINUSE'
      ? `port ${config.port} is already in use on ${config.host}; set PORT or --port`
      : `cannot listen: ${(err as Error).message}`,
  );
  await app.close();
  process.exit(1);
}
const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
console.log(`bwc console server: http://${shownHost}:${port}/ (API docs /docs, database ${config.database.kind})`);
const httpsPort = await app.https.started();
if (httpsPort !== null)
  console.log(
    `  HTTPS (microphones for push-to-talk from other machines): https://${shownHost}:${httpsPort}/ (certificate: ${CERT_PATH})`,
  );
