import type { Language } from '@bwc/protocol';
import type { Login } from './login';

/** The members of a `ws` socket the service uses. */
export interface WsSocket {
  readyState: number;
  send(data: string | Buffer, options?: { binary?: boolean }): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  on(event: string, fn: (...args: never[]) => void): unknown;
}

const OPEN = 1;
/** Close code when the service ends a login (taken over, invalidated, logged out by the server). */
export const CLOSE_LOGIN_ENDED = 4401;
/** Close code for a connection silent past CONSOLE_SILENCE_LIMIT_MS. */
export const CLOSE_SILENT = 4408;

let serial = 0;

/**
 * One websocket connection to the console service: its language (from the upgrade's `?lang=`,
 * `x-lang` or Accept-Language), the login bound to it (after req_logon or a resume), and a queue
 * that runs its messages one after the other, so that answers and stored effects keep the order
 * in which the client sent them.
 */
export class Connection {
  readonly id = ++serial;
  login: Login | null = null;
  lastHeard = Date.now();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly socket: WsSocket,
    readonly lang: Language,
    /** the client's address, for the log */
    readonly remote: string,
  ) {}

  get open(): boolean {
    return this.socket.readyState === OPEN;
  }

  /** Send one serialised message; false when the socket is no longer open. */
  send(frame: string): boolean {
    if (!this.open) return false;
    this.socket.send(frame, { binary: false });
    return true;
  }

  /** Send one binary frame (group talk audio); false when the socket is no longer open. */
  sendBinary(frame: Buffer | Uint8Array): boolean {
    if (!this.open) return false;
    this.socket.send(frame as Buffer, { binary: true });
    return true;
  }

  /** Run `task` after every task queued before it (a failing task does not stop the queue). */
  enqueue(task: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(task, task);
    return this.queue;
  }

  close(code: number, reason: string): void {
    if (this.open) this.socket.close(code, reason);
  }
}
