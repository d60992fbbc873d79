import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import {
  ResultCode,
  SHARE_FILE_PATH,
  SHARE_LOCK_MS,
  SHARE_PASSWORD_TRIES,
  SHARE_PAGE_PATH,
  SHARE_URL_TTL_MS,
  type ShareAddRequest,
  type ShareLink,
  type ShareListRequest,
  type ShareOpenAnswer,
  type SharedItem,
} from '@bwc/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { firstMark, type SharedState } from '../../../cluster/cluster';
import type { Db } from '../../../db/connection';
import type { AuthUser } from '../../../http/auth';
import { AppError } from '../../../http/errors';
import { requestLanguage, t } from '../../../http/i18n';
import { inScope, type UnitScope } from '../../../http/scope';
import { parseRange } from '../../download/range';
import { contentDisposition } from '../../system/file-store';
import { appendCustody, type CustodyActor } from '../custody';
import { tokenMark } from '../library/files';
import * as libraryRepo from '../library/library.repository';
import type { LibraryService } from '../library/library.service';
import './access.tables';

const DAY_MS = 86_400_000;

/** What a share address serves: the playable file, the original as an attachment, the thumbnail. */
export const SHARE_KINDS = ['play', 'download', 'thumb'] as const;
export type ShareKind = (typeof SHARE_KINDS)[number];

export const linkNotFound = () =>
  new AppError(ResultCode.NOT_FOUND, 'errors.notFound', { what: 'errors.what.shareLink' });

/** Tokens are 256 random bits; the database keeps their SHA-256 only. */
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

const mac = (key: Buffer, kind: ShareKind, id: number, link: number, expires: number) =>
  createHmac('sha256', key).update(`share|${kind}|${id}|${link}|${expires}`).digest('base64url');

function shareUrl(key: Buffer, kind: ShareKind, id: number, link: number, expires: number) {
  return `${SHARE_FILE_PATH}/${kind}/${id}?token=${link}.${expires}.${mac(key, kind, id, link, expires)}`;
}

/** The link a share address names, or why it is refused. */
export function checkShareToken(
  key: Buffer,
  kind: ShareKind,
  id: number,
  token: unknown,
  nowMs: number,
): { link: number } | { refused: 'token' | 'expired' } {
  const [linkText, expiresText, sig, ...rest] = typeof token === 'string' ? token.split('.') : [];
  if (
    !linkText ||
    !expiresText ||
    !sig ||
    rest.length ||
    !/^\d{1,12}$/.test(linkText) ||
    !/^\d{1,15}$/.test(expiresText)
  )
    return { refused: 'token' };
  const want = Buffer.from(mac(key, kind, id, Number(linkText), Number(expiresText)));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return { refused: 'token' };
  if (Number(expiresText) < nowMs) return { refused: 'expired' };
  return { link: Number(linkText) };
}

type AddInput = z.output<typeof ShareAddRequest>;
type ListInput = z.output<typeof ShareListRequest>;

function linksQuery(db: Db) {
  return db
    .selectFrom('evidence_share_links as l')
    .leftJoin('users as u', 'u.id', 'l.created_by')
    .leftJoin('units as un', 'un.id', 'l.unit_id')
    .selectAll('l')
    .select(['u.hostname as creator_hostname', 'u.username as creator_username', 'un.name as unit_name']);
}
type LinkRow = Awaited<ReturnType<ReturnType<typeof linksQuery>['executeTakeFirstOrThrow']>>;

/** The custody actor of a share visitor: `share:<recipient>` and the visitor's address. */
export const shareActor = (link: Pick<LinkRow, 'recipient'>, ip: string): CustodyActor => ({
  user_id: null,
  actor: `share:${link.recipient}`,
  unit_id: null,
  ip,
});

/**
 * External share links (for prosecutors): a random token of 256 bits (kept as its SHA-256), an
 * expiry of at most SHARE_MAX_DAYS, an optional argon2id password, a recipient. The page opened
 * with the link lists the items with addresses signed for SHARE_URL_TTL_MS; every visit, play and
 * download is on the item's custody chain with actor `share:<recipient>` and the visitor's address.
 */
export class ShareService {
  constructor(
    readonly db: Db,
    readonly library: LibraryService,
    private readonly shared: SharedState,
  ) {}

  private nowMs() {
    return this.library.clock();
  }

  state(l: Pick<LinkRow, 'revoked_at' | 'expires_at'>): ShareLink['state'] {
    if (l.revoked_at) return 'revoked';
    return Date.parse(l.expires_at) <= this.nowMs() ? 'expired' : 'active';
  }

  private async present(rows: LinkRow[]): Promise<ShareLink[]> {
    const items = rows.length
      ? await this.db
          .selectFrom('evidence_share_items')
          .select(['link_id', 'media_id'])
          .where(
            'link_id',
            'in',
            rows.map((r) => r.id),
          )
          .orderBy('media_id')
          .execute()
      : [];
    return rows.map((l) => ({
      id: l.id,
      recipient: l.recipient,
      note: l.note,
      media_ids: items.filter((i) => i.link_id === l.id).map((i) => i.media_id),
      has_password: l.password_hash ? 1 : 0,
      created_by_name: l.creator_hostname || l.creator_username || '',
      unit_name: l.unit_name ?? '',
      created_at: l.created_at,
      expires_at: l.expires_at,
      revoked_at: l.revoked_at,
      state: this.state(l),
      visits: l.visits,
      last_visit_at: l.last_visit_at,
    }));
  }

  private async one(id: number): Promise<ShareLink> {
    return (await this.present([await linksQuery(this.db).where('l.id', '=', id).executeTakeFirstOrThrow()]))[0]!;
  }

  /** A new link over items of the caller's own units (not granted ones); custody 'shared' on each. */
  async add(user: AuthUser, scope: UnitScope, who: CustodyActor, body: AddInput) {
    const ids = [...new Set(body.media_ids)];
    const rows = await libraryRepo.findItems(this.db, ids);
    const ok = new Set(
      rows.filter((r) => inScope(scope, r.unit_id) && r.deleted_at === null && r.purged_at === null).map((r) => r.id),
    );
    const missing = ids.filter((id) => !ok.has(id));
    if (missing.length)
      throw new AppError(ResultCode.NOT_FOUND, 'errors.share.mediaNotFound', { ids: missing.join(', ') });
    const token = randomBytes(32).toString('base64url');
    const nowMs = this.nowMs();
    const at = new Date(nowMs).toISOString();
    const expires = new Date(nowMs + body.days * DAY_MS).toISOString();
    const passwordHash = body.password ? await hash(body.password) : '';
    const id = await this.db.transaction().execute(async (trx) => {
      const link = await trx
        .insertInto('evidence_share_links')
        .values({
          token_hash: tokenHash(token),
          password_hash: passwordHash,
          recipient: body.recipient,
          note: body.note,
          created_by: user.id,
          unit_id: user.unit_id,
          created_at: at,
          expires_at: expires,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('evidence_share_items')
        .values(ids.map((media_id) => ({ link_id: link.id, media_id })))
        .execute();
      for (const mediaId of ids)
        await appendCustody(
          trx,
          mediaId,
          'shared',
          who,
          { share_link: link.id, recipient: body.recipient, expires_at: expires, password: passwordHash ? 1 : 0 },
          new Date(at),
        );
      return link.id;
    });
    return { link: await this.one(id), token, path: `${SHARE_PAGE_PATH}/${token}` };
  }

  /** Links created in the caller's units, newest first, with their visit counts. */
  async list(scope: UnitScope, body: ListInput) {
    let q = this.db.selectFrom('evidence_share_links as l');
    if (!scope.all) q = q.where('l.unit_id', 'in', scope.ids.length ? scope.ids : [-1]);
    const at = new Date(this.nowMs()).toISOString();
    if (body.state === 'revoked') q = q.where('l.revoked_at', 'is not', null);
    if (body.state === 'active') q = q.where('l.revoked_at', 'is', null).where('l.expires_at', '>', at);
    if (body.state === 'expired') q = q.where('l.revoked_at', 'is', null).where('l.expires_at', '<=', at);
    const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const ids = (
      await q
        .select('l.id')
        .orderBy('l.id', 'desc')
        .limit(body.limit)
        .offset((body.page - 1) * body.limit)
        .execute()
    ).map((r) => r.id);
    const rows = ids.length ? await linksQuery(this.db).where('l.id', 'in', ids).orderBy('l.id', 'desc').execute() : [];
    return { total: Number(n), page: body.page, limit: body.limit, list: await this.present(rows) };
  }

  /** Revoke at once, with a 'shared' entry {share_link, ended} on each item in the same transaction. */
  async revoke(user: AuthUser, scope: UnitScope, who: CustodyActor, id: number): Promise<ShareLink> {
    const row = await linksQuery(this.db).where('l.id', '=', id).executeTakeFirst();
    if (!row || !inScope(scope, row.unit_id)) throw linkNotFound();
    if (!row.revoked_at) {
      const at = new Date(this.nowMs());
      await this.db.transaction().execute(async (trx) => {
        const moved = await trx
          .updateTable('evidence_share_links')
          .set({ revoked_at: at.toISOString(), revoked_by: user.id })
          .where('id', '=', id)
          .where('revoked_at', 'is', null)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) !== 1) return;
        const items = await trx
          .selectFrom('evidence_share_items')
          .select('media_id')
          .where('link_id', '=', id)
          .execute();
        for (const { media_id } of items)
          await appendCustody(
            trx,
            media_id,
            'shared',
            who,
            { share_link: id, recipient: row.recipient, ended: 'revoked' },
            at,
          );
      });
    }
    return this.one(id);
  }

  /** A live link by id (file addresses): not revoked, not expired. */
  async live(id: number): Promise<LinkRow | undefined> {
    const row = await linksQuery(this.db).where('l.id', '=', id).executeTakeFirst();
    return row && this.state(row) === 'active' ? row : undefined;
  }

  async holds(linkId: number, mediaId: number): Promise<boolean> {
    return (
      (await this.db
        .selectFrom('evidence_share_items')
        .select('media_id')
        .where('link_id', '=', linkId)
        .where('media_id', '=', mediaId)
        .executeTakeFirst()) !== undefined
    );
  }

  /** The public page's call: the link's state, and when it may be used its items with fresh addresses. */
  async open(token: string, password: string, ip: string): Promise<ShareOpenAnswer> {
    const empty = { recipient: '', unit_name: '', expires_at: '', urls_expire: 0, items: [] };
    const row = await linksQuery(this.db).where('l.token_hash', '=', tokenHash(token)).executeTakeFirst();
    if (!row) return { status: 'unknown', ...empty };
    const state = this.state(row);
    if (state !== 'active') return { status: state, ...empty };
    if (row.password_hash) {
      if (!password) return { status: 'password', ...empty };
      const nowMs = this.nowMs();
      const failed = await this.failures(row.id, nowMs);
      if (failed && failed.count >= SHARE_PASSWORD_TRIES) return { status: 'locked', ...empty };
      let ok = false;
      try {
        ok = await verify(row.password_hash, password);
      } catch {
        ok = false;
      }
      if (!ok) {
        await this.failed(row.id, nowMs);
        return { status: 'wrongPassword', ...empty };
      }
      const tries = await this.shared.get(failuresKey(row.id));
      if (tries) await this.shared.compareAndSet(failuresKey(row.id), tries, null, 0);
    }
    const nowMs = this.nowMs();
    const at = new Date(nowMs).toISOString();
    const ids = (
      await this.db
        .selectFrom('evidence_share_items')
        .select('media_id')
        .where('link_id', '=', row.id)
        .orderBy('media_id')
        .execute()
    ).map((r) => r.media_id);
    const items = (await libraryRepo.findItems(this.db, ids))
      .filter((r) => r.deleted_at === null && r.purged_at === null)
      .sort((a, b) => a.id - b.id);
    const who = shareActor(row, ip);
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('evidence_share_links')
        .set((eb) => ({ visits: eb('visits', '+', 1), last_visit_at: at }))
        .where('id', '=', row.id)
        .execute();
      for (const item of items)
        await appendCustody(trx, item.id, 'viewed', who, { share_link: row.id }, new Date(nowMs));
    });
    const key = await this.library.key();
    const expires = nowMs + SHARE_URL_TTL_MS;
    return {
      status: 'ok',
      recipient: row.recipient,
      unit_name: row.unit_name ?? '',
      expires_at: row.expires_at,
      urls_expire: expires,
      items: items.map((r): SharedItem => ({
        id: r.id,
        media_type: r.media_type as 1 | 2 | 3,
        title: r.title,
        file_name: r.file_name,
        size: Number(r.size),
        sha256: r.sha256,
        duration: r.duration === null ? null : Number(r.duration),
        recorded_at: r.recorded_at,
        play_url: shareUrl(key, 'play', r.id, row.id, expires),
        play_mime: r.derivative_sha256 ? (r.media_type === 2 ? 'audio/mp4' : 'video/mp4') : r.mime,
        download_url: shareUrl(key, 'download', r.id, row.id, expires),
        thumb_url: r.thumb_sha256 ? shareUrl(key, 'thumb', r.id, row.id, expires) : '',
      })),
    };
  }

  /**
   * GET /media/share/<kind>/<id>?token=: the link must still be live and hold the item; `download`
   * hashes the original again (a mismatch is refused, custody 'tamper' and an alarm, as in the
   * library). The first request of a play/download token appends 'streamed' / 'downloaded'.
   */
  async serve(
    req: FastifyRequest<{ Params: { kind: string; id: string }; Querystring: { token?: string } }>,
    reply: FastifyReply,
  ) {
    const refuse = (status: number, key: string, params = {}) =>
      reply.code(status).send({
        code: status === 404 ? ResultCode.NOT_FOUND : status === 409 ? ResultCode.CONFLICT : ResultCode.FORBIDDEN,
        msg: t(requestLanguage(req), key, params),
      });
    const notFound = () => refuse(404, 'errors.notFound', { what: 'errors.what.media' });
    const kind = req.params.kind as ShareKind;
    if (!SHARE_KINDS.includes(kind) || !/^\d{1,12}$/.test(req.params.id)) return notFound();
    const id = Number(req.params.id);
    const nowMs = this.nowMs();
    const checked = checkShareToken(await this.library.key(), kind, id, req.query.token, nowMs);
    if ('refused' in checked)
      return refuse(403, checked.refused === 'expired' ? 'errors.share.urlExpired' : 'errors.library.urlToken');
    const link = await this.live(checked.link);
    if (!link) return refuse(403, 'errors.share.gone');
    const row = (await this.holds(link.id, id)) ? await libraryRepo.findItem(this.db, id) : undefined;
    if (!row || row.deleted_at !== null || row.purged_at !== null) return notFound();

    let sha = row.sha256;
    let mime = row.mime;
    if (kind === 'play' && row.derivative_sha256) {
      sha = row.derivative_sha256;
      mime = row.media_type === 2 ? 'audio/mp4' : 'video/mp4';
    } else if (kind === 'thumb') {
      if (!row.thumb_sha256) return notFound();
      sha = row.thumb_sha256;
      mime = 'image/jpeg';
    }
    const who = shareActor(link, req.ip);
    const store = this.library.store;
    const size = await store.size(sha);
    if (kind === 'download') {
      const actual = size === null ? 'missing' : await store.rehash(sha);
      if (actual !== row.sha256) {
        await this.library.tampered(row, who, actual);
        req.log.error(
          { media: row.id, expected: row.sha256, actual },
          'shared evidence original failed its hash check',
        );
        return refuse(409, 'errors.library.tampered', { id: row.id });
      }
    }
    if (size === null) return notFound();
    const range = parseRange(req.headers.range, size);
    if (
      kind !== 'thumb' &&
      range !== 'unsatisfiable' &&
      (await this.firstUse(`${kind}|${id}|${String(req.query.token)}`))
    )
      await this.db
        .transaction()
        .execute((trx) =>
          appendCustody(
            trx,
            row.id,
            kind === 'download' ? 'downloaded' : 'streamed',
            who,
            { share_link: link.id, kind, sha256: sha, ...(range ? { range: `${range.start}-${range.end}` } : {}) },
            new Date(nowMs),
          ),
        );
    reply.header('content-type', mime).header('accept-ranges', 'bytes').header('cache-control', 'private, no-store');
    if (kind === 'download') reply.header('content-disposition', contentDisposition(row.file_name));
    if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${size}`).send();
    if (range)
      return reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
        .header('content-length', range.end - range.start + 1)
        .send(store.read(sha, range));
    return reply.header('content-length', size).send(store.read(sha));
  }

  /**
   * Wrong passwords per link since the first of them, `<count>:<first at>` in the cluster's shared
   * state, so every node counts the same tries. With 256-bit tokens only the password can be
   * guessed; argon2 makes each try slow. Null once SHARE_LOCK_MS have passed since the first.
   */
  private async failures(linkId: number, nowMs: number): Promise<{ count: number; since: number } | null> {
    const value = await this.shared.get(failuresKey(linkId));
    if (!value) return null;
    const [count, since] = value.split(':').map(Number) as [number, number];
    return nowMs - since >= SHARE_LOCK_MS ? null : { count, since };
  }

  private async failed(linkId: number, nowMs: number): Promise<void> {
    const key = failuresKey(linkId);
    // compare-and-set: two nodes counting at once retry, neither try is lost
    for (let attempt = 0; attempt < 20; attempt++) {
      const value = await this.shared.get(key);
      const current = await this.failures(linkId, nowMs);
      const next = current ? `${current.count + 1}:${current.since}` : `1:${nowMs}`;
      if (await this.shared.compareAndSet(key, value, next, SHARE_LOCK_MS)) return;
    }
  }

  /** The first request of a file token is recorded; the ranges of a seeking player are not. */
  private firstUse(key: string): Promise<boolean> {
    return firstMark(this.shared, tokenMark(`share|${key}`), SHARE_URL_TTL_MS);
  }
}

const failuresKey = (linkId: number) => `evidence:share-failures:${linkId}`;
