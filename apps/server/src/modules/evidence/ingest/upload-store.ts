import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DataStore, ERRORS, Upload } from '@tus/utils';
import type { FastifyBaseLogger } from 'fastify';
import { now, type Db } from '../../../db/connection';
import type { EvidenceUploadTable } from '../evidence.tables';
import '../evidence.tables';
import { BodyOverLength, directWritesWork, SlabPool, writeDirect } from './direct-write';
import { HashThread, type StreamHash } from './hash-thread';

/** What a new upload's row holds besides its id, length and times (set by the route before tus creates it). */
export type NewUpload = Pick<EvidenceUploadTable, 'owner_kind' | 'owner_id' | 'origin_key' | 'metadata'>;

/**
 * The tus DataStore of evidence uploads: bytes in DATA_DIR/evidence/uploads/<id>, the upload
 * itself in evidence_uploads (owner, validated metadata, length, state). Every PATCH streams
 * through a SHA-256 kept per upload on a worker thread (hash-thread.ts), so the hash is ready
 * when the last byte lands. Where the folder's file system takes O_DIRECT, the bytes go to the
 * disk past the page cache from slabs the hash thread reads too (direct-write.ts; in
 * bench/evidence-upload.ts the server's CPU seconds fell by about a quarter); elsewhere (tmpfs),
 * or while every slab is taken, through the page cache.
 * After a restart (or any write whose bytes did not all reach the file) the state is rebuilt
 * once by hashing the partial file, then it follows the stream again.
 *
 * Expiration counts from the last byte: `creation_date` of the Upload is the row's `updated`,
 * which every write moves, so tus's own check (PATCH after expiry -> 410) and Upload-Expires agree
 * with the sweep (`deleteExpired`).
 */
export class EvidenceUploadStore extends DataStore {
  override extensions = ['creation', 'creation-with-upload', 'termination', 'expiration'];
  private readonly hashes = new Map<string, StreamHash>();
  private readonly hashing = new HashThread();
  /** rows of uploads being created, by id (the route puts them here, `create` takes them) */
  readonly pending = new Map<string, NewUpload>();
  /** how many times a partial file was hashed again (diagnostics, tests) */
  rehashes = 0;
  /** bodies written with O_DIRECT and through the page cache (diagnostics, tests) */
  readonly bodies = { direct: 0, cached: 0 };
  /** the slabs of direct writes and whether the folder takes them; decided at the first write */
  private direct: Promise<SlabPool | null> | null = null;

  constructor(
    private readonly db: Db,
    readonly dir: string,
    private readonly expiryMs: number,
    private readonly log: FastifyBaseLogger,
    /** false: always through the page cache */
    private readonly directIo = true,
  ) {
    super();
  }

  /** The slab pool when direct writes work in the uploads folder, else null (probed once). */
  private directPool(): Promise<SlabPool | null> {
    this.direct ??= (async () => {
      if (!this.directIo) return null;
      await mkdir(this.dir, { recursive: true });
      const pool = new SlabPool();
      const works = await directWritesWork(this.dir, pool);
      this.log.info({ dir: this.dir, direct: works }, 'evidence uploads: O_DIRECT writes %s', works ? 'on' : 'off');
      return works ? pool : null;
    })();
    return this.direct;
  }

  path(id: string): string {
    if (!/^[0-9a-f]{32}$/.test(id)) throw ERRORS.FILE_NOT_FOUND;
    return join(this.dir, id);
  }

  override async create(upload: Upload): Promise<Upload> {
    const row = this.pending.get(upload.id);
    if (!row || upload.size === undefined) throw ERRORS.FILE_WRITE_ERROR;
    this.pending.delete(upload.id);
    await mkdir(this.dir, { recursive: true });
    await writeFile(this.path(upload.id), '', { flag: 'wx' });
    const at = now();
    await this.db
      .insertInto('evidence_uploads')
      .values({
        id: upload.id,
        ...row,
        length: upload.size,
        created: at,
        updated: at,
        state: 'open',
        item_id: null,
        error: '',
      })
      .execute();
    this.forget(upload.id);
    this.hashes.set(upload.id, this.hashing.start());
    upload.creation_date = at;
    return upload;
  }

  async row(id: string) {
    return this.db.selectFrom('evidence_uploads').selectAll().where('id', '=', id).executeTakeFirst();
  }

  override async getUpload(id: string): Promise<Upload> {
    const row = await this.row(id);
    if (!row || row.state === 'failed') throw ERRORS.FILE_NOT_FOUND;
    const length = Number(row.length);
    const metadata = Object.fromEntries(
      Object.entries(JSON.parse(row.metadata) as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
    );
    let offset = length;
    if (row.state === 'open') {
      const file = await stat(this.path(id)).catch(() => null);
      if (!file) throw ERRORS.FILE_NOT_FOUND;
      offset = file.size;
    }
    return new Upload({ id, size: length, offset, metadata, creation_date: row.updated });
  }

  /**
   * Append a PATCH body at `offset`. A body that stops early (the client went away, or a newer
   * request for the upload stopped it) keeps what arrived, as tus asks; more than `limit` bytes
   * fail with 413 and the hash state is rebuilt on the next write.
   */
  override async write(
    stream: Readable,
    id: string,
    offset: number,
    limit = Number.POSITIVE_INFINITY,
  ): Promise<number> {
    const file = this.path(id);
    let state = this.hashes.get(id);
    if (!state || state.bytes !== offset) state = await this.rehash(id, offset);
    const hashing = state;
    this.hashes.delete(id);
    const pool = await this.directPool();
    const first = pool?.tryTake();
    let size: number;
    try {
      if (pool && first) {
        this.bodies.direct += 1;
        await writeDirect({ body: untilEnd(stream), file, offset, limit, hash: hashing, pool, first });
      } else {
        this.bodies.cached += 1;
        await this.writeCached(stream, file, offset, limit, hashing);
      }
      size = (await stat(file)).size;
    } catch (err) {
      hashing.drop();
      throw err;
    }
    // the state is only kept when it covers exactly the bytes in the file
    if (size === hashing.bytes) this.hashes.set(id, hashing);
    else hashing.drop();
    await this.db.updateTable('evidence_uploads').set({ updated: now() }).where('id', '=', id).execute();
    return size;
  }

  /** A PATCH body through the page cache, hashed on its way. */
  private async writeCached(
    stream: Readable,
    file: string,
    offset: number,
    limit: number,
    hashing: StreamHash,
  ): Promise<void> {
    let received = 0;
    const tee = new Transform({
      transform(chunk: Buffer, _enc, done) {
        received += chunk.length;
        if (received > limit) return done(new BodyOverLength(limit));
        const behind = hashing.update(chunk);
        if (behind) void behind.then(() => done(null, chunk));
        else done(null, chunk);
      },
    });
    await pipeline(untilEnd(stream), tee, createWriteStream(file, { flags: 'r+', start: offset }));
  }

  /** The hash state over the file's first `offset` bytes, read from disk. */
  private async rehash(id: string, offset: number): Promise<StreamHash> {
    this.forget(id);
    const hash = this.hashing.start();
    if (offset > 0) {
      this.rehashes += 1;
      this.log.info({ upload: id, offset }, 'evidence upload: hash state rebuilt from the partial file');
      try {
        for await (const chunk of createReadStream(this.path(id), { start: 0, end: offset - 1 }))
          await hash.update(chunk as Buffer);
      } catch (err) {
        hash.drop();
        throw err;
      }
    }
    return hash;
  }

  /** SHA-256 of the finished file: the streamed state when it covers it, else read again. */
  async digest(id: string, size: number): Promise<string> {
    const state = this.hashes.get(id);
    this.hashes.delete(id);
    if (state && state.bytes === size) return state.digest();
    state?.drop();
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(this.path(id))) hash.update(chunk as Buffer);
    return hash.digest('hex');
  }

  private forget(id: string) {
    this.hashes.get(id)?.drop();
    this.hashes.delete(id);
  }

  /** Ends the hash thread (app close). */
  close(): Promise<void> {
    return this.hashing.close();
  }

  /** Forget an upload's bytes and hash state (the row stays, with its final state). */
  async discard(id: string): Promise<void> {
    this.forget(id);
    await rm(this.path(id), { force: true });
  }

  /** tus termination (DELETE): the bytes go, the row is kept as failed. */
  override async remove(id: string): Promise<void> {
    const row = await this.row(id);
    if (!row || row.state !== 'open') throw ERRORS.FILE_NOT_FOUND;
    await this.discard(id);
    await this.fail(id, 'terminated');
  }

  async fail(id: string, error: string): Promise<void> {
    await this.db
      .updateTable('evidence_uploads')
      .set({ state: 'failed', error: error.slice(0, 200), updated: now() })
      .where('id', '=', id)
      .where('state', '=', 'open')
      .execute();
  }

  override getExpiration(): number {
    return this.expiryMs;
  }

  /** Remove the open uploads whose last byte is older than the expiry; answers how many. */
  override async deleteExpired(): Promise<number> {
    const before = new Date(Date.now() - this.expiryMs).toISOString();
    const rows = await this.db
      .selectFrom('evidence_uploads')
      .select('id')
      .where('state', '=', 'open')
      .where('updated', '<', before)
      .execute();
    for (const { id } of rows) {
      await this.discard(id);
      await this.fail(id, 'expired');
    }
    return rows.length;
  }
}

/** A request body that ends cleanly where its client stopped sending (disconnect, timeout, stop). */
async function* untilEnd(stream: Readable): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } catch {
    // the bytes that arrived are kept; the client asks for the offset and resumes
  }
}
