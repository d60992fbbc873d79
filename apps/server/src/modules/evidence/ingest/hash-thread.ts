import { Worker } from 'node:worker_threads';

const HASHER = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const hashes = new Map();
parentPort.on('message', (m) => {
  if (m.op === 'start') hashes.set(m.key, createHash('sha256'));
  else if (m.op === 'update') {
    hashes.get(m.key)?.update(new Uint8Array(m.bytes, 0, m.length));
    parentPort.postMessage({ op: 'hashed', length: m.length });
  } else if (m.op === 'view') {
    hashes.get(m.key)?.update(new Uint8Array(m.memory, m.at, m.length));
    parentPort.postMessage({ op: 'viewed', id: m.id });
  } else if (m.op === 'digest') {
    const hash = hashes.get(m.key);
    hashes.delete(m.key);
    parentPort.postMessage({ op: 'digest', seq: m.seq, hex: hash ? hash.digest('hex') : null });
  } else if (m.op === 'drop') hashes.delete(m.key);
  else if (m.op === 'close') parentPort.close();
});
`;

/** bytes copied into one message to the thread */
const BATCH = 1024 * 1024;
/** bytes handed to the thread and not hashed yet above which `update` waits */
const MAX_BEHIND = 64 * 1024 * 1024;

/**
 * SHA-256 of upload streams on a worker thread. Measured in bench/evidence-upload.ts, hashing on
 * the event loop took about a fifth of the server's main thread during 10 parallel uploads; here the
 * loop only copies each chunk into 1 MB batches (transferred, not cloned) and the thread hashes
 * them in order; bytes already in shared memory (the slabs of direct-write.ts) are hashed where
 * they are (`updateShared`). Messages to one worker keep their order, so a digest follows every
 * update posted before it. The thread is started on first use and ended by `close`.
 */
export class HashThread {
  private worker: Worker | null = null;
  private seq = 0;
  private keys = 0;
  private behind = 0;
  private readonly digests = new Map<number, { resolve: (hex: string) => void; reject: (err: Error) => void }>();
  /** views of shared memory handed to the thread and not hashed yet, by message id */
  private readonly views = new Map<number, { resolve: () => void; reject: (err: Error) => void }>();
  private waiting: Array<() => void> = [];

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(HASHER, { eval: true });
    worker.unref();
    type Answer =
      | { op: 'hashed'; length: number }
      | { op: 'viewed'; id: number }
      | { op: 'digest'; seq: number; hex: string | null };
    worker.on('message', (m: Answer) => {
      if (m.op === 'viewed') {
        this.views.get(m.id)?.resolve();
        this.views.delete(m.id);
        return;
      }
      if (m.op === 'hashed') {
        this.behind -= m.length;
        if (this.behind <= MAX_BEHIND / 2) this.release();
        return;
      }
      const pending = this.digests.get(m.seq);
      this.digests.delete(m.seq);
      if (m.hex) pending?.resolve(m.hex);
      else pending?.reject(new Error('hash thread: unknown hash'));
    });
    const fail = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.behind = 0;
      this.release();
      for (const pending of this.digests.values()) pending.reject(err);
      this.digests.clear();
      for (const pending of this.views.values()) pending.reject(err);
      this.views.clear();
    };
    worker.on('error', fail);
    worker.on('exit', () => fail(new Error('hash thread ended')));
    this.worker = worker;
    return worker;
  }

  private release() {
    const waiting = this.waiting;
    this.waiting = [];
    for (const go of waiting) go();
  }

  /** A new running hash. */
  start(): StreamHash {
    const key = `h${++this.keys}`;
    this.thread().postMessage({ op: 'start', key });
    return new StreamHash(this, key);
  }

  /** @internal */
  post(key: string, bytes: ArrayBuffer, length: number): Promise<void> | null {
    this.behind += length;
    this.thread().postMessage({ op: 'update', key, bytes, length }, [bytes]);
    return this.behind > MAX_BEHIND ? new Promise((resolve) => this.waiting.push(resolve)) : null;
  }

  /** @internal */
  postView(key: string, view: Uint8Array): Promise<void> {
    const id = ++this.seq;
    const hashed = new Promise<void>((resolve, reject) => this.views.set(id, { resolve, reject }));
    this.thread().postMessage({ op: 'view', key, id, memory: view.buffer, at: view.byteOffset, length: view.length });
    return hashed;
  }

  /** @internal */
  digest(key: string): Promise<string> {
    const seq = ++this.seq;
    const done = new Promise<string>((resolve, reject) => this.digests.set(seq, { resolve, reject }));
    this.thread().postMessage({ op: 'digest', key, seq });
    return done;
  }

  /** @internal */
  drop(key: string) {
    this.worker?.postMessage({ op: 'drop', key });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    await worker.terminate();
  }
}

/** One running SHA-256 on a HashThread; `bytes` counts what was given to it. */
export class StreamHash {
  bytes = 0;
  private batch: Buffer | null = null;
  private fill = 0;

  constructor(
    private readonly thread: HashThread,
    readonly key: string,
  ) {}

  /** Adds `chunk` (copied; the caller may reuse it); resolves when the thread is not too far behind. */
  update(chunk: Uint8Array): Promise<void> | null {
    this.bytes += chunk.length;
    let wait: Promise<void> | null = null;
    let at = 0;
    while (at < chunk.length) {
      this.batch ??= Buffer.allocUnsafeSlow(BATCH);
      const n = Math.min(chunk.length - at, BATCH - this.fill);
      this.batch.set(chunk.subarray(at, at + n), this.fill);
      this.fill += n;
      at += n;
      if (this.fill === BATCH) wait = this.flush() ?? wait;
    }
    return wait;
  }

  /**
   * Adds the bytes of `view`, a view of a SharedArrayBuffer, without copying them: the thread
   * reads them where they are. Resolves once they are hashed; until then the caller must not
   * change them.
   */
  updateShared(view: Uint8Array): Promise<void> {
    if (!(view.buffer instanceof SharedArrayBuffer)) throw new TypeError('updateShared takes a view of shared memory');
    void this.flush();
    this.bytes += view.length;
    return this.thread.postView(this.key, view);
  }

  private flush(): Promise<void> | null {
    if (!this.batch || this.fill === 0) return null;
    const { buffer } = this.batch;
    const length = this.fill;
    this.batch = null;
    this.fill = 0;
    return this.thread.post(this.key, buffer as ArrayBuffer, length);
  }

  /** The hex digest of everything given; the hash cannot be used after. */
  digest(): Promise<string> {
    void this.flush();
    return this.thread.digest(this.key);
  }

  /** Forget the hash without a digest. */
  drop() {
    this.batch = null;
    this.thread.drop(this.key);
  }
}
