import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  CALL_RING_TIMEOUT_S_MAX,
  CALL_RING_TIMEOUT_S_MIN,
  CONSOLE_PORT_DEFAULT,
  PTT_MAX_HOLD_S_MAX,
  PTT_MAX_HOLD_S_MIN,
} from '@bwc/protocol';
import { z } from 'zod';

/** Repository root (apps/server/src -> ../../..). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const flag01 = z.enum(['0', '1'], { error: 'must be 0 or 1' }).transform((v) => v === '1');

/** Names proxy-addr (Fastify's trustProxy) understands besides addresses and CIDR ranges. */
const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** An IPv4 / IPv6 address, a CIDR range of one, or a proxy-addr name. */
function isProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

const trustedProxies = z
  .string()
  .transform((v) =>
    v
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean),
  )
  .refine((list) => list.every(isProxyEntry), {
    error:
      'must be a comma-separated list of proxy addresses or CIDR ranges (e.g. 127.0.0.1,10.0.0.0/8) or loopback / linklocal / uniquelocal',
  });

/** A TCP port setting; `zeroDisables`: 0 turns the listener off (and the message says so). */
function port(zeroDisables: boolean) {
  const error = `must be a port number from 0 to 65535${zeroDisables ? ' (0 disables)' : ''}`;
  return z.coerce.number({ error }).int({ error }).min(0, { error }).max(65535, { error });
}

const EnvSchema = z
  .object({
    PORT: port(false).default(8080),
    HOST: z.string().min(1).default('0.0.0.0'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^(sqlite:.+|postgres(ql)?:\/\/.+)$/, 'must be sqlite:<path> or postgres://user:pass@host:port/db')
      .optional(),
    NODE_ENV: z
      .enum(['development', 'production', 'test'], { error: 'must be development, production or test' })
      .default('development'),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'must be fatal, error, warn, info, debug, trace or silent',
      })
      .optional(),
    TEST_CAPTCHA: z.string().min(1).max(16).optional(),
    LICENCE_PUBLIC_KEY: z.string().min(1).optional(),
    DEMO: flag01.default(false),
    GB_MODE: flag01.default(false),
    WEB_DIST: z.string().min(1).optional(),
    SEED: flag01.default(false),
    DEMO_FENCES: flag01.optional(),
    BASEMAP_PACK: flag01.optional(),
    OSMAND_PORT: port(true).default(5055),
    CONSOLE_PORT: port(true).default(CONSOLE_PORT_DEFAULT),
    RTMP_PORT: port(true).default(1935),
    HTTPS_PORT: port(true).default(8443),
    TLS_CERT_FILE: z.string().min(1).optional(),
    TLS_KEY_FILE: z.string().min(1).optional(),
    PTT_MAX_HOLD_S: z.coerce
      .number({ error: 'must be a number of seconds' })
      .int({ error: 'must be a whole number of seconds' })
      .min(PTT_MAX_HOLD_S_MIN, { error: `must be ${PTT_MAX_HOLD_S_MIN} to ${PTT_MAX_HOLD_S_MAX} seconds` })
      .max(PTT_MAX_HOLD_S_MAX, { error: `must be ${PTT_MAX_HOLD_S_MIN} to ${PTT_MAX_HOLD_S_MAX} seconds` })
      .optional(),
    CALL_RING_TIMEOUT_S: z.coerce
      .number({ error: 'must be a number of seconds' })
      .int({ error: 'must be a whole number of seconds' })
      .min(CALL_RING_TIMEOUT_S_MIN, {
        error: `must be ${CALL_RING_TIMEOUT_S_MIN} to ${CALL_RING_TIMEOUT_S_MAX} seconds`,
      })
      .max(CALL_RING_TIMEOUT_S_MAX, {
        error: `must be ${CALL_RING_TIMEOUT_S_MIN} to ${CALL_RING_TIMEOUT_S_MAX} seconds`,
      })
      .optional(),
    LIVE_IDLE_S: z.coerce
      .number({ error: 'must be a number of seconds' })
      .int({ error: 'must be a whole number of seconds' })
      .min(1, { error: 'must be 1 to 3600 seconds' })
      .max(3600, { error: 'must be 1 to 3600 seconds' })
      .optional(),
    DEVICE_PROVISION_KEY: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
    TRUSTED_PROXIES: trustedProxies.optional(),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\/.+/, 'must be redis://[user:pass@]host:port[/db] (or rediss:// for TLS)')
      .optional(),
    NODE_ID: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,64}$/, 'must be 1 to 64 letters, digits or . _ : -')
      .optional(),
  })
  .superRefine((env, ctx) => {
    if (env.REDIS_URL !== undefined && !/^postgres(ql)?:/.test(env.DATABASE_URL ?? '')) {
      ctx.addIssue({
        code: 'custom',
        path: ['REDIS_URL'],
        message:
          'several nodes share one PostgreSQL database: set DATABASE_URL=postgres://... as well (SQLite is one process only)',
      });
    }
    if ((env.TLS_CERT_FILE === undefined) !== (env.TLS_KEY_FILE === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.TLS_CERT_FILE === undefined ? 'TLS_CERT_FILE' : 'TLS_KEY_FILE'],
        message:
          'TLS_CERT_FILE and TLS_KEY_FILE go together (PEM files); set both, or neither for a generated certificate',
      });
    }
    for (const key of ['TLS_CERT_FILE', 'TLS_KEY_FILE'] as const) {
      const file = env[key];
      if (file !== undefined && !existsSync(file))
        ctx.addIssue({ code: 'custom', path: [key], message: `${file} does not exist` });
    }
    if (env.TEST_CAPTCHA !== undefined && env.NODE_ENV !== 'test') {
      ctx.addIssue({
        code: 'custom',
        path: ['TEST_CAPTCHA'],
        message: 'is only allowed with NODE_ENV=test; remove it in any other configuration',
      });
    }
  });

export interface Config {
  port: number;
  host: string;
  /** absolute path */
  dataDir: string;
  database: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };
  nodeEnv: 'development' | 'production' | 'test';
  logLevel: string;
  /** fixed captcha text; only ever set when nodeEnv is test */
  testCaptcha: string | undefined;
  licencePublicKey: string | undefined;
  demo: boolean;
  /** application-wide mode flag: true GB (GB/T 28181 monitoring), false GIS dispatch */
  gbMode: boolean;
  /** absolute path of the built console, or null when there is none */
  webDist: string | null;
  /** run the idempotent demo seed at start (DEMO=1 implies it) */
  seed: boolean;
  /** OsmAnd (Traccar Client) HTTP ingest port; 0 or absent: off (modules/devices/osmand.ts) */
  osmandPort?: number;
  /**
   * websocket port of the console service (realtime/console; default 9080, 0 or absent: only the
   * path CONSOLE_WS_PATH of the main port)
   */
  consolePort?: number;
  /** RTMP ingest port of the media gateway (src/media; default 1935, 0 or absent: off) */
  rtmpPort?: number;
  /**
   * HTTPS port of the console (http/https.ts; default 8443, 0 or absent: off), with the certificate
   * tlsCertFile / tlsKeyFile (TLS_CERT_FILE, TLS_KEY_FILE) or one generated in DATA_DIR/tls
   */
  httpsPort?: number;
  tlsCertFile?: string;
  tlsKeyFile?: string;
  /** a talker holds a group's floor at most this long (PTT_MAX_HOLD_S; default 60 s) */
  pttMaxHoldMs?: number;
  /** a call rings at most this long before it times out (CALL_RING_TIMEOUT_S; default 30 s) */
  callRingTimeoutMs?: number;
  /** a live stream with no viewer for this long is stopped (LIVE_IDLE_S; default LIVE_IDLE_MS) */
  liveIdleMs?: number;
  /** key of the device provisioning call; demo mode generates one in DATA_DIR when absent */
  deviceProvisionKey?: string;
  /**
   * reverse proxies whose X-Forwarded-For gives the client's address (TRUSTED_PROXIES: addresses,
   * CIDR ranges, loopback / linklocal / uniquelocal); empty: the socket's peer is the client and
   * X-Forwarded-For is ignored, so no client can choose the address its login failures count on
   */
  trustedProxies?: string[];
  /**
   * Redis shared by the nodes of a cluster (REDIS_URL, issue 12): the bus goes through it and the
   * scheduled work runs on one node; absent: one process, nothing shared
   */
  redisUrl?: string;
  /** this node's name in the cluster (NODE_ID; default host:port:pid) */
  nodeId?: string;
  /**
   * seed the demo's electronic fences around the map centre, so the simulated fleet crosses them
   * (DEMO_FENCES; default on in demo mode outside NODE_ENV=test)
   */
  demoFences?: boolean;
  /**
   * build the built-in basemap's tile pack (DATA_DIR/basemap) in a child process after start and
   * serve it (BASEMAP_PACK; default on outside NODE_ENV=test); off: tiles are cut in the server
   */
  basemapPack?: boolean;
}

export class ConfigError extends Error {}

/** Command-line flags override the environment: --port 18081 --data-dir /tmp/x --database-url ... --demo --seed --gb. */
function flagsToEnv(argv: string[]): Record<string, string> {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      'database-url': { type: 'string' },
      'log-level': { type: 'string' },
      'web-dist': { type: 'string' },
      'licence-public-key': { type: 'string' },
      demo: { type: 'boolean' },
      seed: { type: 'boolean' },
      gb: { type: 'boolean' },
    },
  });
  const out: Record<string, string> = {};
  if (values.port !== undefined) out.PORT = values.port;
  if (values.host !== undefined) out.HOST = values.host;
  if (values['data-dir'] !== undefined) out.DATA_DIR = values['data-dir'];
  if (values['database-url'] !== undefined) out.DATABASE_URL = values['database-url'];
  if (values['log-level'] !== undefined) out.LOG_LEVEL = values['log-level'];
  if (values['web-dist'] !== undefined) out.WEB_DIST = values['web-dist'];
  if (values['licence-public-key'] !== undefined) out.LICENCE_PUBLIC_KEY = values['licence-public-key'];
  if (values.demo) out.DEMO = '1';
  if (values.seed) out.SEED = '1';
  if (values.gb) out.GB_MODE = '1';
  return out;
}

/** Parse environment and flags; throws ConfigError with a readable message naming each bad setting. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, argv: string[] = []): Config {
  let flags: Record<string, string>;
  try {
    flags = flagsToEnv(argv);
  } catch (err) {
    throw new ConfigError(`bad command-line flag: ${(err as Error).message}`);
  }
  const raw: Record<string, string | undefined> = {};
  for (const key of Object.keys(EnvSchema.shape)) {
    const value = flags[key] ?? env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const parsed = EnvSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(config)'}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  const url = e.DATABASE_URL ?? `sqlite:${resolve(dataDir, 'bwc.db')}`;
  const database: Config['database'] = url.startsWith('sqlite:')
    ? {
        kind: 'sqlite',
        path: url.slice('sqlite:'.length) === ':memory:' ? ':memory:' : resolve(url.slice('sqlite:'.length)),
      }
    : { kind: 'postgres', url };
  const defaultDist = resolve(REPO_ROOT, 'apps/web/dist');
  const webDist = e.WEB_DIST
    ? resolve(e.WEB_DIST)
    : existsSync(resolve(defaultDist, 'index.html'))
      ? defaultDist
      : null;
  if (e.WEB_DIST && !existsSync(resolve(webDist!, 'index.html'))) {
    throw new ConfigError(
      `invalid configuration:\n  WEB_DIST: ${webDist} has no index.html (build the console with npm run build)`,
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database,
    nodeEnv: e.NODE_ENV,
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'silent' : 'info'),
    testCaptcha: e.TEST_CAPTCHA,
    licencePublicKey: e.LICENCE_PUBLIC_KEY,
    demo: e.DEMO,
    gbMode: e.GB_MODE,
    webDist,
    seed: e.SEED || e.DEMO,
    osmandPort: e.OSMAND_PORT,
    consolePort: e.CONSOLE_PORT,
    rtmpPort: e.RTMP_PORT,
    httpsPort: e.HTTPS_PORT,
    tlsCertFile: e.TLS_CERT_FILE && resolve(e.TLS_CERT_FILE),
    tlsKeyFile: e.TLS_KEY_FILE && resolve(e.TLS_KEY_FILE),
    pttMaxHoldMs: e.PTT_MAX_HOLD_S === undefined ? undefined : e.PTT_MAX_HOLD_S * 1000,
    callRingTimeoutMs: e.CALL_RING_TIMEOUT_S === undefined ? undefined : e.CALL_RING_TIMEOUT_S * 1000,
    liveIdleMs: e.LIVE_IDLE_S === undefined ? undefined : e.LIVE_IDLE_S * 1000,
    deviceProvisionKey: e.DEVICE_PROVISION_KEY,
    trustedProxies: e.TRUSTED_PROXIES ?? [],
    redisUrl: e.REDIS_URL,
    nodeId: e.NODE_ID,
    demoFences: e.DEMO_FENCES ?? (e.DEMO && e.NODE_ENV !== 'test'),
    basemapPack: e.BASEMAP_PACK ?? e.NODE_ENV !== 'test',
  };
}
