import { constants } from 'node:fs';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { StreamHash } from './hash-thread';

/**
 * Upload bytes written to disk with O_DIRECT, past the page cache.
 *
 * Measured on the 2-core machine of bench/evidence-upload.ts, 10 parallel 500 MB bodies: a bare
 * HTTP server writing through the page cache spent 6.1-6.6 CPU s (3.8-4.1 of them in the kernel),
 * one writing the same bodies with O_DIRECT from page-aligned memory 2.9-3.9 s, and was faster. An
 * upload's bytes are hashed on their way in; once it ends, only what the type check, ffprobe and
 * the thumbnail read is read again (from the disk now), so the cache gains little by holding them.
 *
 * O_DIRECT asks for the memory, the file offset and the length of each write to be aligned to the
 * disk's logical block. The bytes of a body are copied into slabs of a page-aligned pool (the
 * memory of a shared WebAssembly.Memory, whose start is a page), so that every write but the last
 * starts at an aligned offset with whole blocks; the SHA-256 thread reads the same slab where it
 * is (StreamHash.updateShared), so the bytes are copied once on the way. The last bytes of a body
 * that do not fill a block go through an ordinary descriptor; a body that starts inside a block
 * (a resumed upload) rewrites that block from its start, with the bytes the file already has.
 *
 * One write per upload is in flight at a time, so after a kill the file is always a prefix of what
 * arrived, as through the page cache; tus then resumes at its size.
 */

/** the alignment of offsets, lengths and memory: a page covers every logical block size in use (512, 4096) */
export const ALIGN = 4096;
/** bytes per slab: the size of each direct write */
export const SLAB_BYTES = 4 * 1024 * 1024;
/** slabs in the pool: 10 uploads at once keep one filling and one writing each, and the hash may lag */
export const SLABS = 24;

/** The WebAssembly.Memory constructor (the server's TypeScript libraries do not declare WebAssembly). */
const WasmMemory = (
  globalThis as unknown as {
    WebAssembly: {
      Memory: new (d: { initial: number; maximum: number; shared: true }) => { buffer: SharedArrayBuffer };
    };
  }
).WebAssembly.Memory;

/** a body whose client sent nothing for this long has what arrived written (flushPaused) */
export const PAUSE_MS = 200;

/** Page-aligned slabs of shared memory, handed out in turn; `take` waits while all are in use. */
export class SlabPool {
  private readonly free: Uint8Array[] = [];
  private readonly waiting: Array<(slab: Uint8Array) => void> = [];

  constructor(
    readonly slabBytes = SLAB_BYTES,
    count = SLABS,
  ) {
    if (slabBytes % 65536 !== 0) throw new RangeError('a slab is a whole number of 64 KiB pages');
    const pages = (slabBytes * count) / 65536;
    // shared, so that the hash thread reads the slabs without a copy; pages are touched only when used
    const memory = new WasmMemory({ initial: pages, maximum: pages, shared: true });
    // the most recently freed slab is taken first, so a light load touches few pages
    for (let i = count - 1; i >= 0; i--) this.free.push(new Uint8Array(memory.buffer, i * slabBytes, slabBytes));
  }

  /** A slab, when one is in use by every other body: once a body's written slab is released. */
  take(): Promise<Uint8Array> | Uint8Array {
    return this.free.pop() ?? new Promise((resolve) => this.waiting.push(resolve));
  }

  /**
   * A slab if one is free now. A body starts only with one: clients that stopped sending in the
   * middle of a body each keep a slab until their request ends, and new bodies must not wait for
   * them (they are written the ordinary way instead).
   */
  tryTake(): Uint8Array | null {
    return this.free.pop() ?? null;
  }

  release(slab: Uint8Array) {
    const next = this.waiting.shift();
    if (next) next(slab);
    else this.free.push(slab);
  }

  /** slabs not in use (tests) */
  get idle(): number {
    return this.free.length;
  }
}

/**
 * Whether files in `dir` can be opened with O_DIRECT and written from the pool's memory (not on
 * tmpfs, for one, which refuses the flag): a probe file is written once and removed.
 */
export async function directWritesWork(dir: string, pool: SlabPool): Promise<boolean> {
  if (!('O_DIRECT' in constants)) return false;
  const probe = join(dir, `.direct-probe-${process.pid}`);
  let handle: FileHandle | null = null;
  const slab = pool.tryTake();
  if (!slab) return false;
  try {
    handle = await open(probe, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_DIRECT);
    const { bytesWritten } = await handle.write(slab, 0, ALIGN, 0);
    return bytesWritten === ALIGN;
  } catch {
    return false;
  } finally {
    pool.release(slab);
    await handle?.close().catch(() => undefined);
    await rm(probe, { force: true });
  }
}

/** A body longer than what is left of its upload. */
export class BodyOverLength extends Error {
  constructor(readonly left: number) {
    super(`upload body over the ${left} bytes left`);
  }
}

/**
 * Write `body` into `file` from `offset` (the file's size: tus appends), at most
 * `limit` bytes, giving every new byte to `hash`, starting with the pool's slab `first` (from
 * `tryTake`). A body that stops early keeps what arrived, as
 * tus asks (the caller passes a stream that ends where its client stopped). More than `limit`
 * bytes fail with BodyOverLength after the bytes before are written; any failure leaves the file
 * a prefix of the body and `hash` unusable (the caller drops it).
 */
export async function writeDirect({
  body,
  file,
  offset,
  limit,
  hash,
  pool,
  first,
  flags = constants.O_DIRECT,
}: {
  body: AsyncIterable<Buffer> | Readable;
  file: string;
  offset: number;
  limit: number;
  hash: StreamHash;
  pool: SlabPool;
  first: Uint8Array;
  /** O_DIRECT, or 0 where the file system refuses it (tests of the rest on such a machine) */
  flags?: number;
}): Promise<void> {
  let slab: Uint8Array | null = first;
  let direct: FileHandle;
  try {
    direct = await open(file, constants.O_WRONLY | flags);
  } catch (err) {
    pool.release(first);
    throw err;
  }
  let buffered: FileHandle | null = null;
  /** the write in flight, if any, and the first failure of any */
  let inFlight: Promise<void> | null = null;
  let failure: unknown = null;
  /** where the slab being filled starts in the file */
  let position = offset - (offset % ALIGN);
  let fill = 0;
  /** bytes at the slab's start already in the file and in the hash (a resumed body inside a block) */
  let known = offset % ALIGN;

  const writeAll = async (handle: FileHandle, bytes: Uint8Array, at: number) => {
    let done = 0;
    while (done < bytes.length) {
      const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, at + done);
      if (bytesWritten === 0) throw new Error('upload write: the disk took no bytes');
      done += bytesWritten;
      // a short direct write that ends inside a block: the rest goes the ordinary way
      if (handle === direct && done < bytes.length && (at + done) % ALIGN !== 0) {
        buffered ??= await open(file, constants.O_WRONLY);
        return writeAll(buffered, bytes.subarray(done), at + done);
      }
    }
  };

  /** Hand the slab's first `length` bytes to the hash (the new ones) and to the disk, in order. */
  const handOff = async (bytes: Uint8Array, length: number, last: boolean) => {
    if (inFlight) await inFlight;
    if (failure) {
      pool.release(bytes);
      throw failure;
    }
    const hashed = hash.updateShared(bytes.subarray(known, length));
    known = 0;
    const at = position;
    position += length;
    const whole = last ? length - (length % ALIGN) : length;
    inFlight = (async () => {
      try {
        if (whole > 0) await writeAll(direct, bytes.subarray(0, whole), at);
        if (length > whole) {
          buffered ??= await open(file, constants.O_WRONLY);
          await writeAll(buffered, bytes.subarray(whole, length), at + whole);
        }
      } catch (err) {
        failure ??= err;
      } finally {
        // the slab is free again once both the disk and the hash have read it
        void hashed.then(
          () => pool.release(bytes),
          (err: unknown) => {
            failure ??= err;
            pool.release(bytes);
          },
        );
      }
    })();
  };

  let received = 0;
  /** Take in a chunk of the body: into slabs, each full one handed off. */
  const take = async (chunk: Buffer) => {
    received += chunk.length;
    if (received > limit) throw new BodyOverLength(limit);
    let at = 0;
    while (at < chunk.length) {
      if (!slab) {
        slab = await pool.take();
        fill = 0;
      }
      const n = Math.min(chunk.length - at, slab.length - fill);
      slab.set(chunk.subarray(at, at + n), fill);
      fill += n;
      at += n;
      if (fill === slab.length) {
        const full = slab;
        slab = null;
        await handOff(full, full.length, false);
      }
    }
  };
  /**
   * The client paused: what arrived goes to the disk now (as it would through the page cache), so
   * that a HEAD, or a restart after a kill, sees it. The partial block at the end is written the
   * ordinary way and copied to the start of a new slab as bytes the file already has.
   */
  const flushPaused = async () => {
    if (!slab || fill <= known) return;
    const paused = slab;
    const length = fill;
    const whole = length - (length % ALIGN);
    const tail = Buffer.from(paused.subarray(whole, length));
    slab = null;
    await handOff(paused, length, true);
    position -= tail.length;
    slab = await pool.take();
    slab.set(tail, 0);
    fill = known = tail.length;
  };

  let lastChunk = Date.now();
  /** true while the loop below waits for the client's next chunk: the slab is then the ticker's to flush */
  let waiting = false;
  let flushing: Promise<void> | null = null;
  const ticker = setInterval(() => {
    if (!waiting || flushing || Date.now() - lastChunk < PAUSE_MS) return;
    flushing = flushPaused()
      .catch((err: unknown) => {
        failure ??= err;
      })
      .finally(() => (flushing = null));
  }, PAUSE_MS);
  try {
    if (known > 0) {
      // the block the body starts in, from its start: rewritten whole by the first direct write
      const reader = await open(file, 'r');
      try {
        const { bytesRead } = await reader.read(first, 0, known, position);
        if (bytesRead !== known) throw new Error('upload write: the file is shorter than its offset');
      } finally {
        await reader.close();
      }
      fill = known;
    }
    const chunks = (body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
    for (;;) {
      waiting = true;
      const got = await chunks.next();
      waiting = false;
      if (flushing) await flushing;
      if (failure) throw failure;
      if (got.done) break;
      await take(got.value);
      // counted from when this side is ready again: a wait for the disk or a slab is not a pause
      lastChunk = Date.now();
    }
    const rest = slab as Uint8Array | null;
    if (rest && fill > known) {
      slab = null;
      await handOff(rest, fill, true);
    }
    if (inFlight) await inFlight;
    if (failure) throw failure;
  } finally {
    clearInterval(ticker);
    // a flush the ticker started when the body failed: its new slab is released here too
    if (flushing) await flushing;
    if (slab) pool.release(slab);
    if (inFlight) await inFlight;
    await direct.close().catch(() => undefined);
    await (buffered as FileHandle | null)?.close().catch(() => undefined);
  }
}
