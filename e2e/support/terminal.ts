// protocol and simulator files directly: the packages' indexes import the protocol's JSON
// catalogues, which Node's ESM loader refuses without import attributes
import { CONSOLE_WS_PATH } from '../../packages/protocol/src/console/limits';
import { WebSocket, type WsClient as WsSocket } from '../../packages/simulator/src/ws';

type Message = Record<string, unknown> & { msg_code: string; cmd_type: number };


/**
 * A terminal of the console service as a body-worn camera with a cluster number speaks it: a plain
 * websocket on the main port's CONSOLE_WS_PATH, logged on with its device credentials (user_type
 * 0), heart-beating every 10 s. Every message it receives is kept, so that a spec can wait for a
 * notice by msg_code.
 */
export class Terminal {
  private readonly received: Message[] = [];
  private readonly waiters = new Set<() => void>();
  private heartbeat: NodeJS.Timeout | undefined;
  private cbid = 0;
  uid = 0;

  private constructor(private readonly ws: WsSocket) {
    ws.on('message', (data) => {
      this.received.push(JSON.parse(String(data)) as Message);
      for (const wake of this.waiters) wake();
    });
  }

  /** Connects and logs on; throws with the service's reason when the logon is refused. */
  static async logon(baseURL: string, hostbody: string, secret: string): Promise<Terminal> {
    const ws = new WebSocket(`${baseURL.replace(/^http/, 'ws')}${CONSOLE_WS_PATH}`);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const terminal = new Terminal(ws);
    const clientid = `e2e-${hostbody}`;
    const rsp = await terminal.request('req_logon', { logon_name: hostbody, passwd: secret, user_type: 0, clientid });
    if (rsp.cmd_status !== 0) throw new Error(`terminal logon refused: ${String(rsp.error_reason)}`);
    terminal.uid = Number(rsp.uid);
    terminal.heartbeat = setInterval(() => terminal.send({ msg_code: 'heartbeat', cmd_type: 0, clientid }), 10_000);
    return terminal;
  }

  private send(message: Record<string, unknown>): void {
    this.ws.send(JSON.stringify(message));
  }

  /** Resolves with the first message received (earlier ones included) that `test` accepts. */
  async next(test: (m: Message) => boolean, timeoutMs = 60_000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find(test);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('the terminal did not receive the awaited message in time');
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, left);
        this.waiters.add(wake);
      });
    }
  }

  /** A request and its response (matched by cbid). */
  async request(code: string, body: Record<string, unknown> = {}): Promise<Message> {
    const cbid = `t${++this.cbid}`;
    this.send({ msg_code: code, cmd_type: 0, cbid, ...body });
    return this.next((m) => m.cmd_type === 1 && m.cbid === cbid);
  }

  /** The notices of `code` received so far. */
  notices(code: string): Message[] {
    return this.received.filter((m) => m.cmd_type === 2 && m.msg_code === code);
  }

  close(): void {
    clearInterval(this.heartbeat);
    this.ws.close();
  }
}
