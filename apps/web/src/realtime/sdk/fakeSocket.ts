import type { SdkSocket } from './RealtimeSdk';

/** A websocket the test drives: it opens, fails, closes and answers when told. */
export class FakeSocket implements SdkSocket {
  readyState = 0;
  onopen: SdkSocket['onopen'] = null;
  onmessage: SdkSocket['onmessage'] = null;
  onclose: SdkSocket['onclose'] = null;
  onerror: SdkSocket['onerror'] = null;
  sent: Record<string, unknown>[] = [];
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  /** a connection refused: error in the closed state, then close (as browsers do) */
  fail() {
    this.readyState = 3;
    this.onerror?.({});
    this.onclose?.({ code: 1006 });
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({ code: 1006 });
  }
  receive(message: Record<string, unknown>) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  heartbeats() {
    return this.sent.filter((m) => m.msg_code === 'heartbeat');
  }
  last(code: string) {
    return [...this.sent].reverse().find((m) => m.msg_code === code);
  }
}
