import { AudioKind } from '@bwc/protocol';
import { WebSocket, type WsClient } from '@bwc/simulator/ws';

export type { WsClient };

const AUDIO_KINDS: number[] = Object.values(AudioKind);

/** A client with every received JSON message kept in order, and waiters on them. */
export class TestConsole {
  readonly messages: Record<string, unknown>[] = [];
  closed: { code: number; reason: string } | null = null;
  private waiters: { test: (m: Record<string, unknown>) => boolean; resolve: (m: Record<string, unknown>) => void }[] =
    [];
  private closeWaiters: ((c: { code: number; reason: string }) => void)[] = [];
  /** ms timestamps (performance.now) of each received message, same index as messages */
  readonly received: number[] = [];
  /** messages that came as BINARY websocket frames (browsers hand those over as Blobs, not text) */
  binaryFrames = 0;
  /** audio frames received (binary, first byte one of AudioKind), with their arrival (performance.now) */
  readonly audio: { data: Buffer; at: number }[] = [];

  private constructor(readonly ws: WsClient) {
    ws.on('message', (data, isBinary) => {
      if (isBinary && Buffer.isBuffer(data) && AUDIO_KINDS.includes(data[0]!)) {
        this.audio.push({ data, at: performance.now() });
        return;
      }
      if (isBinary) this.binaryFrames += 1;
      const m = JSON.parse(data.toString()) as Record<string, unknown>;
      this.messages.push(m);
      this.received.push(performance.now());
      this.waiters = this.waiters.filter((w) => {
        if (!w.test(m)) return true;
        w.resolve(m);
        return false;
      });
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      for (const w of this.closeWaiters) w(this.closed);
    });
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<TestConsole> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers });
      const c = new TestConsole(ws);
      ws.on('open', () => resolve(c));
      ws.on('error', reject);
    });
  }

  /** Send a binary frame (talk audio). */
  sendBinary(data: Uint8Array): void {
    this.ws.send(data, { binary: true });
  }

  send(m: unknown): void {
    this.ws.send(JSON.stringify(m));
  }

  /** the next (or an already received) message matching `test` */
  next(test: (m: Record<string, unknown>) => boolean, timeoutMs = 5_000): Promise<Record<string, unknown>> {
    const seen = this.messages.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no matching websocket message in time')), timeoutMs);
      this.waiters.push({
        test,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  waitClose(timeoutMs = 5_000): Promise<{ code: number; reason: string }> {
    if (this.closed) return Promise.resolve(this.closed);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('socket not closed in time')), timeoutMs);
      this.closeWaiters.push((c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
  }

  close(): void {
    this.ws.close();
  }
}
