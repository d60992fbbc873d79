import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConsoleTerminal } from './terminal';

/**
 * The terminal against a small websocket server standing in for the console service (the real
 * service: apps/server/src/realtime/console/simulated-terminals.test.ts): what it sends at open,
 * how it resumes and re-logs on after the connection is lost, how it answers messages.
 */

type Msg = Record<string, unknown>;
interface FakeSocket {
  send(data: string): void;
  close(): void;
  terminate(): void;
  on(event: 'message', fn: (data: Buffer) => void): void;
}
interface FakeServer {
  on(event: 'connection', fn: (socket: FakeSocket) => void): void;
  address(): AddressInfo;
  close(cb: () => void): void;
  clients: Set<FakeSocket>;
}
const { WebSocketServer } = createRequire(import.meta.url)('ws') as {
  WebSocketServer: new (o: { port: number; host: string }, cb: () => void) => FakeServer;
};

/** A service that logs everything received and answers heartbeats, logons and messages. */
class FakeService {
  readonly received: Msg[] = [];
  /** tokens it still knows (a restart with its logins kept: resumable) */
  tokens = new Set<string>();
  private server!: FakeServer;
  private logons = 0;

  static async start(): Promise<FakeService> {
    const s = new FakeService();
    await new Promise<void>((resolve) => {
      s.server = new WebSocketServer({ port: 0, host: '127.0.0.1' }, resolve);
    });
    s.server.on('connection', (socket) => {
      socket.on('message', (data) => s.answer(socket, JSON.parse(data.toString()) as Msg));
    });
    return s;
  }

  get url(): string {
    return `ws://127.0.0.1:${this.server.address().port}/`;
  }

  private answer(socket: FakeSocket, m: Msg): void {
    this.received.push(m);
    const reply = (code: string, payload: Msg) =>
      socket.send(
        JSON.stringify({ msg_code: code, cmd_type: 1, cbid: m.cbid, cmd_status: 0, error_reason: '', ...payload }),
      );
    switch (m.msg_code) {
      case 'heartbeat': {
        const resumed = typeof m.token === 'string' && this.tokens.has(m.token);
        reply('heartbeat', { logged_on: resumed ? 1 : 0, ...(resumed ? { uid: 7 } : {}), time: Date.now() });
        break;
      }
      case 'req_logon': {
        const token = `tok${++this.logons}`;
        this.tokens.add(token);
        reply('rsp_logon', { uid: 7, token });
        break;
      }
      case 'req_grp_profile':
        reply('rsp_grp_profile', { groups: [{ tgid: 31 }] });
        break;
      case 'req_send_im':
        reply('rsp_send_im', { im: { msg_id: 1, content: m.content } });
        break;
      default:
        reply(String(m.msg_code).replace(/^req_/, 'rsp_'), { accepted: 1, rejected: [] });
    }
  }

  /** A notice to every connection. */
  push(m: Msg): void {
    for (const c of this.server.clients) c.send(JSON.stringify({ cmd_type: 2, ...m }));
  }

  /** Drop every connection (as a stopping server does). */
  dropAll(): void {
    for (const c of this.server.clients) c.terminate();
  }

  of(code: string): Msg[] {
    return this.received.filter((m) => m.msg_code === code);
  }

  close(): Promise<void> {
    this.dropAll();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function until(what: string, check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

let service: FakeService;
let terminal: ConsoleTerminal | null = null;
afterEach(async () => {
  terminal?.stop();
  terminal = null;
  await service?.close();
});

function makeTerminal(extra: Partial<ConstructorParameters<typeof ConsoleTerminal>[0]> = {}): ConsoleTerminal {
  terminal = new ConsoleTerminal({
    url: service.url,
    logonName: 'SIM00001',
    passwd: 'secret-1',
    clientid: 'cid-1',
    heartbeatMs: 100,
    reconnectMs: 50,
    replyDelayMs: [0, 10],
    ...extra,
  });
  return terminal;
}

describe('ConsoleTerminal', () => {
  it('logs on as a terminal with its device credentials and heartbeats three times at open, then on its period', async () => {
    service = await FakeService.start();
    const t = makeTerminal();
    t.start();
    await t.whenLoggedOn();
    expect(service.of('req_logon')).toEqual([
      expect.objectContaining({
        logon_name: 'SIM00001',
        passwd: 'secret-1',
        user_type: 0,
        clientid: 'cid-1',
        cmd_type: 0,
      }),
    ]);
    // the first heartbeat (before the logon) had no login to resume; three at open in all
    const codes = service.received.map((m) => m.msg_code);
    expect(codes.slice(0, 4)).toEqual(['heartbeat', 'req_logon', 'heartbeat', 'heartbeat']);
    expect(service.of('heartbeat').every((m) => m.clientid === 'cid-1')).toBe(true);
    expect(t.uid).toBe(7);
    await until('its groups', () => t.groups.length === 1);
    expect(t.groups).toEqual([31]);
    await until('periodic heartbeats', () => service.of('heartbeat').length >= 5);
  });

  it('after the connection is lost, comes back and resumes its login with the token; logs on again when the service forgot it', async () => {
    service = await FakeService.start();
    const t = makeTerminal();
    t.start();
    await t.whenLoggedOn();
    expect(t.token).toBe('tok1');

    service.dropAll();
    await until('reconnected and resumed', () => t.stats.resumes === 1 && t.loggedOn);
    expect(service.of('req_logon')).toHaveLength(1);
    expect(service.of('heartbeat').some((m) => m.token === 'tok1')).toBe(true);

    service.tokens.clear();
    service.dropAll();
    await until('logged on afresh', () => t.stats.logons === 2 && t.loggedOn);
    expect(t.token).toBe('tok2');
    expect(t.stats.reconnects).toBe(2);
  });

  it('reports positions, raises emergencies and writes to its group through the service', async () => {
    service = await FakeService.start();
    const t = makeTerminal({ random: () => 0 });
    t.start();
    await t.whenLoggedOn();
    await until('its groups', () => t.groups.length === 1);
    const at = Date.UTC(2026, 10, 24, 8, 0, 0);
    expect(await t.reportGps([{ time: at, lat: 22.5, lng: 114.1, battery: 80 }])).toMatchObject({ accepted: 1 });
    expect(service.of('req_report_gps')[0]).toMatchObject({
      gps: [{ time: new Date(at).toISOString(), lat: 22.5, lng: 114.1, battery: 80 }],
    });
    await t.emergency({ lat: 22.5, lng: 114.1 }, 'help');
    expect(service.of('req_emergency')[0]).toMatchObject({ lat: 22.5, lng: 114.1, message: 'help' });
    expect(await t.writeToGroup()).toBe(true);
    expect(service.of('req_send_im')[0]).toMatchObject({ target: 31, target_type: 1, im_type: 1 });
    expect(t.stats).toMatchObject({ gpsReports: 1, emergencies: 1, imSent: 1 });
  });

  it('answers a text written to it, not group chatter; reports at once when asked where it is', async () => {
    service = await FakeService.start();
    let asked = 0;
    const t = makeTerminal({ random: () => 0, onQueryGps: () => (asked += 1) });
    t.start();
    await t.whenLoggedOn();
    const im = { msg_id: 5, from: 100000001, target: 7, target_type: 0, im_type: 1, content: 'where are you?' };
    service.push({ msg_code: 'notice_im', im: { ...im, target_type: 1, target: 31 } });
    service.push({ msg_code: 'notice_im', im });
    await until('the answer', () => t.stats.imAnswered === 1);
    expect(service.of('req_send_im')).toEqual([
      expect.objectContaining({ target: 100000001, target_type: 0, im_type: 1, content: '收到' }),
    ]);
    expect(t.stats.imReceived).toBe(2);
    service.push({ msg_code: 'notice_query_gps', demander: 100000001 });
    await until('asked for its position', () => asked === 1);
  });

  it('a request without a login fails at once, naming the code', async () => {
    service = await FakeService.start();
    const t = makeTerminal();
    await expect(t.reportGps([])).rejects.toThrow('req_report_gps: not logged on');
  });
});
