import { createRequire } from 'node:module';

/**
 * The one typing of the `ws` package's client (the package @fastify/websocket is built on; there is
 * no @types/ws in the tree): the members the simulator, the bench, the server's tests and the e2e
 * support use. Imports nothing else, so that e2e specs can load this file directly.
 */
export interface WsClient {
  readyState: number;
  send(data: string | Uint8Array, options?: { binary?: boolean }): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  on(event: 'open', fn: () => void): this;
  on(event: 'message', fn: (data: Buffer, isBinary: boolean) => void): this;
  on(event: 'close', fn: (code: number, reason: Buffer) => void): this;
  on(event: 'error', fn: (err: Error) => void): this;
  on(event: 'ping' | 'pong', fn: () => void): this;
  once(event: 'open', fn: () => void): this;
  once(event: 'error', fn: (err: Error) => void): this;
}

export interface WsClientOptions {
  headers?: Record<string, string>;
  skipUTF8Validation?: boolean;
  /** trusted certificate(s) for wss:// (PEM) */
  ca?: string;
}

/** `new WebSocket(url, options)` of the `ws` package. */
export const WebSocket = createRequire(import.meta.url)('ws') as new (
  url: string,
  options?: WsClientOptions,
) => WsClient;

/** `readyState` of an open socket. */
export const WS_OPEN = 1;
