import { createHash, type Hash } from 'node:crypto';
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

/** What a new upload's row holds besides its id, length and times (set by the route before tus creates it). */
export type NewUpload = Pick<EvidenceUploadTable, 'owner_kind' | 'owner_id' | 'origin_key' | 'metadata'>;

interface HashState {
  hash: Hash;
  /** bytes hashed so far: the file's length when the state is current */
  bytes: number;
}

/**
 * The tus DataStore of evidence uploads: bytes in DATA_DIR/evidence/uploads/<id>, the upload
 * itself in evidence_uploads (owner, validated metadata, length, state). Every PATCH streams
 * through a SHA-256 kept in memory per upload, so the hash is ready when the last byte lands.
 * After a restart (or any write whose bytes did not all reach the file) the state is rebuilt
 * once by hashing the partial file, then it follows the stream again.
 *
 * Expiration counts from the last byte: `creation_date` of the Upload is the row's `updated`,
 * which every write moves, so tus's own check (PATCH after expiry -> 410) and Upload-Expires agree
 * with the sweep (`deleteExpired`).
 */
export class EvidenceUploadStore extends DataStore {
  override extensions = ['creation', 'creation-with-upload', 'termination', 'expiration'];
  private readonly hashes = new Map<string, HashState>();
  /** rows of uploads being created, by id (the route puts them here, `create` takes them) */
  readonly pending = new Map<string, NewUpload>();
  /** how many times a partial file was hashed again (diagnostics, tests) */
  rehashes = 0;

  constructor(
    private readonly db: Db,
    readonly dir: string,
    private readonly expiryMs: number,
    private readonly log: FastifyBaseLogger,
  ) {
    super();
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
    this.hashes.set(upload.id, { hash: createHash('sha256'), bytes: 0 });
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

  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    const file = this.path(id);
    let state = this.hashes.get(id);
    if (!state || state.bytes !== offset) state = await this.rehash(id, offset);
    const hashing = state;
    const tee = new Transform({
      transform(chunk: Buffer, _enc, done) {
        hashing.hash.update(chunk);
        hashing.bytes += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(stream, tee, createWriteStream(file, { flags: 'r+', start: offset }));
    } catch (err) {
      this.hashes.delete(id);
      throw err;
    }
    const size = (await stat(file)).size;
    // the state is only kept when it covers exactly the bytes in the file
    if (size === hashing.bytes) this.hashes.set(id, hashing);
    else this.hashes.delete(id);
    await this.db.updateTable('evidence_uploads').set({ updated: now() }).where('id', '=', id).execute();
    return size;
  }

  /** The hash state over the file's first `offset` bytes, read from disk. */
  private async rehash(id: string, offset: number): Promise<HashState> {
    const hash = createHash('sha256');
    if (offset > 0) {
      this.rehashes += 1;
      this.log.info({ upload: id, offset }, 'evidence upload: hash state rebuilt from the partial file');
      for await (const chunk of createReadStream(this.path(id), { start: 0, end: offset - 1 }))
        hash.update(chunk as Buffer);
    }
    return { hash, bytes: offset };
  }

  /** SHA-256 of the finished file: the streamed state when it covers it, else read again. */
  async digest(id: string, size: number): Promise<string> {
    const state = this.hashes.get(id);
    this.hashes.delete(id);
    if (state && state.bytes === size) return state.hash.digest('hex');
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(this.path(id))) hash.update(chunk as Buffer);
    return hash.digest('hex');
  }

  /** Forget an upload's bytes and hash state (the row stays, with its final state). */
  async discard(id: string): Promise<void> {
    this.hashes.delete(id);
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
