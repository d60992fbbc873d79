import http from 'node:http';
import https from 'node:https';
import {
  Api,
  type AiAlarmRequest,
  type AiAlarmResponse,
  type DeviceApiConfig,
  type DeviceCommand,
  type DeviceLoginAnswer,
  type Envelope,
  type PositionBatchAnswer,
  type ProvisionAnswer,
  type ProvisionRequest,
} from '@bwc/protocol';

/**
 * HTTP client of the device API (packages/protocol `Api.device*`): what a body-worn camera says
 * to the server. Uses node:http with keep-alive agents (cheaper than fetch at thousands of
 * requests per second); long polls get their own agent so they never block position uploads.
 */

export class DeviceApiError extends Error {
  constructor(
    readonly code: number,
    msg: string,
    readonly path: string,
  ) {
    super(`${path}: ${code} ${msg}`);
    this.name = 'DeviceApiError';
  }
}

export interface TransportOptions {
  /** server base URL, e.g. http://127.0.0.1:8080 */
  server: string;
  /** sockets for normal calls (default 64) */
  maxSockets?: number;
  /** request timeout in ms (default 30 s; long polls add their wait) */
  timeoutMs?: number;
  lang?: 'zh-CN' | 'en-US';
}

export class Transport {
  readonly base: URL;
  private readonly mod: typeof http | typeof https;
  private readonly agent: http.Agent;
  private readonly pollAgent: http.Agent;
  private readonly timeoutMs: number;
  private readonly lang: string;
  /** requests sent, for stats */
  requests = 0;

  constructor(options: TransportOptions) {
    this.base = new URL(options.server);
    this.mod = this.base.protocol === 'https:' ? https : http;
    const Agent = this.base.protocol === 'https:' ? https.Agent : http.Agent;
    this.agent = new Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 64 });
    this.pollAgent = new Agent({ keepAlive: true });
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.lang = options.lang ?? 'en-US';
  }

  /** One call answering the envelope's data; throws DeviceApiError for a non-200 code. */
  request<T>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
    longPollS = 0,
  ): Promise<T> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise<T>((resolve, reject) => {
      this.requests += 1;
      const req = this.mod.request(
        {
          protocol: this.base.protocol,
          hostname: this.base.hostname,
          port: this.base.port,
          method,
          path,
          agent: longPollS > 0 ? this.pollAgent : this.agent,
          headers: {
            accept: 'application/json',
            'x-lang': this.lang,
            ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
            ...headers,
          },
          timeout: this.timeoutMs + longPollS * 1000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let env: Envelope<T>;
            try {
              env = JSON.parse(text) as Envelope<T>;
            } catch {
              reject(new DeviceApiError(res.statusCode ?? 0, `not JSON: ${text.slice(0, 200)}`, path));
              return;
            }
            if (env.code !== 200) reject(new DeviceApiError(env.code, env.msg, path));
            else resolve(env.data);
          });
          res.on('error', reject);
        },
      );
      req.on('socket', (socket) => socket.setNoDelay(true));
      req.on('timeout', () => req.destroy(new Error(`${path}: timeout`)));
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  }

  close(): void {
    this.agent.destroy();
    this.pollAgent.destroy();
  }
}

export interface Position {
  /** epoch ms */
  time: number;
  lat: number;
  lng: number;
  speed?: number;
  course?: number;
  accuracy?: number;
  battery?: number;
}

/** Create devices (or renew their secrets) with the provisioning key. */
export function provisionDevices(
  transport: Transport,
  key: string,
  devices: ProvisionRequest['devices'],
): Promise<ProvisionAnswer> {
  return transport.request<ProvisionAnswer>(
    'POST',
    Api.deviceProvision.path,
    { devices },
    { authorization: `Bearer ${key}` },
  );
}

/** Post a face or plate result as the AI engine (`Authorization: Bearer <AI engine token>`). */
export function postAiResult(transport: Transport, token: string, body: AiAlarmRequest): Promise<AiAlarmResponse> {
  return transport.request<AiAlarmResponse>('POST', Api.aiAlarm.path, body, { authorization: `Bearer ${token}` });
}

/** One camera speaking the device API. */
export class DeviceClient {
  private token: string | null = null;
  id = 0;

  constructor(
    private readonly transport: Transport,
    readonly hostbody: string,
    private readonly secret: string,
  ) {}

  get loggedIn(): boolean {
    return this.token !== null;
  }

  /** `Bearer <token>` of the logged-in device (evidence uploads set it on their own requests). */
  get bearer(): string {
    return this.auth().authorization!;
  }

  private auth(): Record<string, string> {
    if (!this.token) throw new Error(`${this.hostbody}: not logged in`);
    return { authorization: `Bearer ${this.token}` };
  }

  async login(): Promise<DeviceLoginAnswer> {
    const answer = await this.transport.request<DeviceLoginAnswer>('POST', Api.deviceLogin.path, {
      device: this.hostbody,
      secret: this.secret,
    });
    this.token = answer.token;
    this.id = answer.id;
    return answer;
  }

  config(): Promise<DeviceApiConfig> {
    return this.transport.request<DeviceApiConfig>('GET', Api.deviceConfig.path, undefined, this.auth());
  }

  sendPositions(positions: Position[]): Promise<PositionBatchAnswer> {
    return this.transport.request<PositionBatchAnswer>('POST', Api.devicePositions.path, { positions }, this.auth());
  }

  sos(input: { lat?: number; lng?: number; message?: string } = {}): Promise<{ event_id: number }> {
    return this.transport.request<{ event_id: number }>(
      'POST',
      Api.deviceSos.path,
      { time: Date.now(), ...input },
      this.auth(),
    );
  }

  status(state: 'online' | 'offline', battery?: number): Promise<null> {
    return this.transport.request<null>(
      'POST',
      Api.deviceState.path,
      battery === undefined ? { state } : { state, battery },
      this.auth(),
    );
  }

  /** Pending commands; with waitS > 0 a long poll. */
  commands(waitS = 0): Promise<DeviceCommand[]> {
    return this.transport.request<DeviceCommand[]>(
      'GET',
      `${Api.deviceCommands.path}?wait=${waitS}`,
      undefined,
      this.auth(),
      waitS,
    );
  }

  ack(id: number, result: 'ok' | 'failed' = 'ok', message = ''): Promise<null> {
    return this.transport.request<null>('POST', Api.deviceCommandAck.path, { id, result, message }, this.auth());
  }
}
