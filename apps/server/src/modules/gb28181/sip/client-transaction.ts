/**
 * Client transactions (RFC 3261 17.1) for the requests the platform sends. Over UDP a request is
 * sent again after T1, 2xT1, ... (Timer A for INVITE, until a 1xx; Timer E capped at T2 for the
 * others, T2 apart after a 1xx). No final answer within the timeout (Timer B/F, 64xT1) rejects with
 * GbRequestError 'timeout'. Responses are matched by the top Via branch and the CSeq method.
 * A non-2xx final answer to INVITE is ACKed here (same branch) and again when it is retransmitted;
 * the ACK of a 2xx belongs to the dialog (platform side).
 */
import type { SipMessage } from '@bwc/gb28181/sip';
import { GbRequestError } from './requests';
import type { SipLog, SipRemote } from './transport';

export interface ClientTimers {
  /** RTT estimate, first retransmission. Default 500 ms. */
  t1Ms: number;
  /** Cap of the non-INVITE retransmission interval. Default 4,000 ms. */
  t2Ms: number;
  /** Timer B/F. Default 64 x T1 = 32 s. */
  timeoutMs: number;
}

export type SendFn = (remote: SipRemote, text: string, connectTo?: { address: string; port: number }) => Promise<void>;

export interface ClientRequest {
  method: string;
  branch: string;
  text: string;
  remote: SipRemote;
  /** where to open a TCP connection when the one the device registered over is gone */
  connectTo?: { address: string; port: number };
  onProvisional?(response: SipMessage): void;
  /** INVITE: the ACK for a non-2xx final answer */
  ackFor?(response: SipMessage): string;
}

export interface ClientTransaction {
  /** The final answer (any status >= 200); rejects with GbRequestError 'timeout' | 'transport' | 'stopped'. */
  response: Promise<SipMessage>;
  /** Stops retransmitting and rejects `response` with `error` (no effect once answered). */
  abandon(error: GbRequestError): void;
}

interface Live {
  req: ClientRequest;
  resolve(m: SipMessage): void;
  reject(err: GbRequestError): void;
  retransmit?: NodeJS.Timeout;
  timeout?: NodeJS.Timeout;
  interval: number;
}

interface Completed {
  ack: string;
  req: ClientRequest;
  timer: NodeJS.Timeout;
}

const MAX_LIVE = 10_000;

export class ClientTransactions {
  private readonly live = new Map<string, Live>();
  /** INVITEs answered non-2xx, kept for Timer D to ACK retransmitted answers. */
  private readonly completed = new Map<string, Completed>();

  constructor(
    private readonly send: SendFn,
    private readonly timers: ClientTimers,
    private readonly log: SipLog,
  ) {}

  get size(): number {
    return this.live.size;
  }

  start(req: ClientRequest): ClientTransaction {
    const key = `${req.branch}|${req.method}`;
    let tx!: Live;
    const response = new Promise<SipMessage>((resolve, reject) => {
      tx = { req, resolve, reject, interval: this.timers.t1Ms };
    });
    if (this.live.size >= MAX_LIVE) {
      tx.reject(new GbRequestError('transport', 'too many requests in progress'));
      return { response, abandon: () => {} };
    }
    this.live.set(key, tx);
    const transmit = () =>
      this.send(req.remote, req.text, req.connectTo).catch((err: unknown) => {
        this.log.warn({ err, remote: req.remote, method: req.method }, 'gb28181 sip: send failed');
        this.finish(key, new GbRequestError('transport', `${req.method} not sent: ${(err as Error).message}`));
      });
    void transmit();
    if (req.remote.transport === 'udp') this.scheduleRetransmit(key, tx, this.timers.t1Ms, transmit);
    tx.timeout = setTimeout(
      () =>
        this.finish(key, new GbRequestError('timeout', `no answer to ${req.method} in ${this.timers.timeoutMs} ms`)),
      this.timers.timeoutMs,
    );
    return { response, abandon: (error) => this.finish(key, error) };
  }

  private scheduleRetransmit(key: string, tx: Live, delay: number, transmit: () => void): void {
    clearTimeout(tx.retransmit);
    tx.interval = delay;
    tx.retransmit = setTimeout(() => {
      if (this.live.get(key) !== tx) return;
      transmit();
      const next = tx.req.method === 'INVITE' ? tx.interval * 2 : Math.min(tx.interval * 2, this.timers.t2Ms);
      this.scheduleRetransmit(key, tx, next, transmit);
    }, delay);
  }

  /** A response from the transport: true when it belonged to one of our transactions. */
  onResponse(m: SipMessage): boolean {
    const branch = m.headers.via?.[0]?.params.branch;
    const method = m.headers.cseq?.method?.toUpperCase();
    if (!branch || !method || m.status === undefined) return false;
    const key = `${branch}|${method}`;
    const tx = this.live.get(key);
    if (!tx) {
      const done = this.completed.get(key);
      if (!done) return false;
      if (m.status >= 300) this.sendAck(done.req, done.ack);
      return true;
    }
    if (m.status < 200) {
      if (method === 'INVITE') {
        // Proceeding: no more retransmissions; the caller's own timer decides (CANCEL).
        clearTimeout(tx.retransmit);
        clearTimeout(tx.timeout);
      } else if (tx.req.remote.transport === 'udp') {
        this.scheduleRetransmit(key, tx, this.timers.t2Ms, () => {
          void this.send(tx.req.remote, tx.req.text, tx.req.connectTo).catch(() => {});
        });
      }
      try {
        tx.req.onProvisional?.(m);
      } catch (err) {
        this.log.warn({ err }, 'gb28181 sip: provisional handler failed');
      }
      return true;
    }
    this.clear(key, tx);
    if (method === 'INVITE' && m.status >= 300 && tx.req.ackFor) {
      const ack = tx.req.ackFor(m);
      this.sendAck(tx.req, ack);
      if (tx.req.remote.transport === 'udp') {
        const timer = setTimeout(() => this.completed.delete(key), this.timers.timeoutMs);
        timer.unref();
        this.completed.set(key, { ack, req: tx.req, timer });
      }
    }
    tx.resolve(m);
    return true;
  }

  /** Rejects everything in progress with 'stopped'. */
  stop(): void {
    for (const key of [...this.live.keys()]) this.finish(key, new GbRequestError('stopped', 'platform stopped'));
    for (const c of this.completed.values()) clearTimeout(c.timer);
    this.completed.clear();
  }

  private sendAck(req: ClientRequest, ack: string): void {
    this.send(req.remote, ack, req.connectTo).catch((err: unknown) =>
      this.log.warn({ err, remote: req.remote }, 'gb28181 sip: ACK not sent'),
    );
  }

  private finish(key: string, error: GbRequestError): void {
    const tx = this.live.get(key);
    if (!tx) return;
    this.clear(key, tx);
    tx.reject(error);
  }

  private clear(key: string, tx: Live): void {
    clearTimeout(tx.retransmit);
    clearTimeout(tx.timeout);
    this.live.delete(key);
  }
}
