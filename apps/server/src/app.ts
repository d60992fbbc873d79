import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { MB, UPLOAD_LIMIT_MB } from '@bwc/protocol';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { jsonSchemaTransform, serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import { hostname } from 'node:os';
import { join, sep } from 'node:path';
import { EventBus } from './bus';
import { LocalCluster, type Cluster } from './cluster/cluster';
import { RedisCluster } from './cluster/redis';
import { createDb, type Db } from './db/connection';
import { migrateToLatest } from './db/migrate';
import { seedDemo, seedDemoFences } from './db/seed/demo';
import { syncModules } from './db/seed/modules';
import { installAuditHook } from './http/audit';
import { registerHttps, type HttpsListener } from './http/https';
import type { SessionGate } from './http/auth';
import { sendError } from './http/envelope';
import { clientErrorHandler, installErrorHandler } from './http/error-handler';
import { Errors } from './http/errors';
import { zodValidatorCompiler } from './http/validation';
import { registerModules } from './modules/registry';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    config: Config;
    /** the other nodes: the bus between them, the lease of the scheduled work (src/cluster) */
    cluster: Cluster;
    /** the second, HTTPS port (http/https.ts) */
    https: HttpsListener;
  }
}

const API_PREFIX = '/rest';

/** Key of the PostgreSQL advisory lock held while a node migrates and seeds. */
const STARTUP_LOCK = 0x62776301;

/** Run `work` holding a PostgreSQL advisory lock (SQLite: one process, no lock needed). */
async function oneNodeAtATime(db: Db, config: Config, work: () => Promise<void>): Promise<void> {
  if (config.database.kind !== 'postgres') return work();
  await db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${STARTUP_LOCK})`.execute(conn);
    try {
      await work();
    } finally {
      await sql`select pg_advisory_unlock(${STARTUP_LOCK})`.execute(conn);
    }
  });
}

/** Build the server (database migrated, demo seeded when asked, every route declared), not listening. */
export async function buildApp(config: Config): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel },
    genReqId: () => randomUUID(),
    // req.ip is the client: X-Forwarded-For counts only when the connection comes from a trusted proxy
    trustProxy: config.trustedProxies?.length ? config.trustedProxies : false,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();

  const db = createDb(config.database, (err) =>
    app.log.warn({ err: err.message }, 'a PostgreSQL connection broke while idle (the pool opens another)'),
  );
  app.decorate('db', db);
  const bus = new EventBus((err, event) => app.log.error({ err, event }, 'domain event listener failed'));
  app.decorate('bus', bus);
  const nodeId = config.nodeId ?? `${hostname()}:${config.port}:${process.pid}`;
  const cluster: Cluster = config.redisUrl
    ? new RedisCluster(nodeId, config.redisUrl, app.log)
    : new LocalCluster(nodeId);
  app.decorate('cluster', cluster);
  app.decorate('config', config);
  app.decorate('sessionGates', [] as SessionGate[]);
  app.decorateRequest('auth', null);
  app.decorateRequest('result', null);
  app.addHook('onClose', async () => {
    await cluster.close();
    await db.destroy();
  });

  try {
    await cluster.start();
    bus.link(cluster);
    // nodes starting together on one PostgreSQL database migrate and seed one after the other
    await oneNodeAtATime(db, config, async () => {
      await migrateToLatest(db);
      await syncModules(db);
      if (config.seed) await seedDemo(db);
      if (config.demoFences) await seedDemoFences(db);
    });
  } catch (err) {
    await cluster.close();
    await db.destroy();
    throw err;
  }

  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  installAuditHook(app);

  // change_password and other form posts are x-www-form-urlencoded
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  await app.register(fastifyCookie);
  await app.register(fastifyMultipart, { limits: { fileSize: UPLOAD_LIMIT_MB.download * MB, files: 1, fields: 50 } });

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'bwc console API',
        description: 'REST envelope {code, msg, data}; see packages/protocol',
        version: '1',
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs' });

  await registerModules(app);
  const https = registerHttps(app, {
    port: config.httpsPort ?? 0,
    certFile: config.tlsCertFile,
    keyFile: config.tlsKeyFile,
  });
  app.decorate('https', https);

  if (config.webDist) {
    const assets = join(config.webDist, 'assets') + sep;
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: true,
      // the build's compressed copies (apps/web/precompress.ts) for a client that accepts them
      preCompressed: true,
      cacheControl: false,
      // Vite names every file under assets/ by its content's hash: a browser keeps it for good and
      // does not ask again on each page load; index.html (which names them) is asked every time
      setHeaders: (reply, path) =>
        void reply.header(
          'cache-control',
          path.startsWith(assets) ? 'public, max-age=31536000, immutable' : 'no-cache',
        ),
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '/';
    const isApi = path === API_PREFIX || path.startsWith(`${API_PREFIX}/`) || path.startsWith('/docs');
    const looksLikeFile = /\.[a-z0-9]+$/i.test(path);
    if (config.webDist && req.method === 'GET' && !isApi && !looksLikeFile) return reply.sendFile('index.html');
    return sendError(reply, Errors.routeNotFound(path));
  });

  await app.ready();
  return app;
}
