import type { ConsoleCode, ConsoleNoticeCode } from '@bwc/protocol';
import { TestConsole } from './ws-client';

export type Message = Record<string, unknown> & { msg_code: string; cmd_type: number };

/**
 * A plain websocket client of the console service for tests: requests by code with a fresh cbid,
 * answered by the response carrying that cbid; notices waited for by code and content.
 */
export class ConsoleClient {
  private serial = 0;

  private constructor(readonly ws: TestConsole) {}

  static async open(url: string, headers: Record<string, string> = {}): Promise<ConsoleClient> {
    return new ConsoleClient(await TestConsole.open(url, headers));
  }

  /** Send a request and wait for its response (same cbid). */
  async request(
    code: ConsoleCode | string,
    payload: Record<string, unknown> = {},
    timeoutMs = 10_000,
  ): Promise<Message> {
    const cbid = `t${++this.serial}`;
    this.ws.send({ msg_code: code, cmd_type: 0, cbid, ...payload });
    return (await this.ws.next((m) => m.cbid === cbid && m.cmd_type === 1, timeoutMs)) as Message;
  }

  /** Send text as is; answers the next response without a cbid. */
  async raw(data: string): Promise<Message> {
    const before = this.ws.messages.length;
    this.ws.ws.send(data);
    return (await this.ws.next(
      (m) => m.cmd_type === 1 && m.cbid === undefined && this.ws.messages.indexOf(m) >= before,
    )) as Message;
  }

  /** The next (or an already received, not yet taken) notice of `code` matching `test`. */
  async notice(
    code: ConsoleNoticeCode,
    test: (m: Message) => boolean = () => true,
    timeoutMs = 10_000,
  ): Promise<Message> {
    const m = (await this.ws.next(
      (x) => x.cmd_type === 2 && x.msg_code === code && !this.taken.has(x) && test(x as Message),
      timeoutMs,
    )) as Message;
    this.taken.add(m);
    return m;
  }
  private readonly taken = new Set<Record<string, unknown>>();

  /** Notices of `code` received so far. */
  notices(code: ConsoleNoticeCode): Message[] {
    return this.ws.messages.filter((m) => m.cmd_type === 2 && m.msg_code === code) as Message[];
  }

  waitClose(timeoutMs?: number) {
    return this.ws.waitClose(timeoutMs);
  }

  get closed() {
    return this.ws.closed;
  }

  close(): void {
    this.ws.close();
  }
}
