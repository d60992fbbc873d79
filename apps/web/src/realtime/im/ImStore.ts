import {
  fileExtension,
  GFILE_CHUNK_MAX_BYTES,
  IM_FILE_KINDS,
  ImTargetType,
  ImType,
  type GfileUploadAnswer,
  type ImMessage,
  type ImSession,
} from '@bwc/protocol';
import type { RealtimeSdk } from '../sdk/RealtimeSdk';

/** Messages asked per req_im_list page. */
export const IM_PAGE_SIZE = 30;

/** The part of the SDK the messages use (tests fake it at this boundary). */
export type ImSdk = Pick<RealtimeSdk, 'on' | 'request' | 'login'>;

export interface Conversation {
  /** `u<uid>` or `g<tgid>` */
  key: string;
  target: number;
  target_type: ImTargetType;
  /** the user's or group's name as last known ('' when none yet) */
  name: string;
  unread: number;
  /** oldest first */
  messages: ImMessage[];
  /** messages the service holds (null: not listed yet) */
  total: number | null;
}

export interface ImSnapshot {
  conversations: Conversation[];
  open: Conversation | null;
  unread: number;
}

/** A message as the wire types carry it (the numeric fields accept strings on input). */
export type WireImMessage = Omit<ImMessage, 'target_type' | 'im_type'> & { target_type: unknown; im_type: unknown };

const normalise = (m: WireImMessage): ImMessage => ({
  ...m,
  target_type: Number(m.target_type) === ImTargetType.GROUP ? ImTargetType.GROUP : ImTargetType.USER,
  im_type: (Number(m.im_type) || ImType.TEXT) as ImType,
});

/** Why a file cannot be sent (its i18n key in the dispatch catalogue and the values). */
export class ImFileError extends Error {
  constructor(
    readonly key: 'im.badType' | 'im.tooLarge',
    readonly values: Record<string, string | number>,
  ) {
    super(key);
  }
}

/** Throws when `file` may not be sent as `kind` (extension, size: IM_FILE_KINDS). */
export function checkKind(file: { name: string; size: number }, kind: keyof typeof IM_FILE_KINDS): void {
  const { extensions, maxMb } = IM_FILE_KINDS[kind];
  if (!(extensions as readonly string[]).includes(fileExtension(file.name)))
    throw new ImFileError('im.badType', { name: file.name });
  if (file.size > maxMb * 1024 * 1024) throw new ImFileError('im.tooLarge', { name: file.name, max: maxMb });
}

/** The kind a file is sent as: images as images, anything else allowed as a file. */
export function fileKind(file: { name: string; size: number }): ImType {
  const image = IM_FILE_KINDS[ImType.IMAGE];
  const kind = (image.extensions as readonly string[]).includes(fileExtension(file.name)) ? ImType.IMAGE : ImType.FILE;
  checkKind(file, kind);
  return kind;
}

/** Tries of one chunk before an upload fails; between them a growing pause (ms) and a resume query. */
export const UPLOAD_ATTEMPTS = 5;
export const UPLOAD_RETRY_MS = 1_000;

/** The service refused a chunk (4xx with its reason: type, size, login): trying again would not help. */
export class UploadRefused extends Error {}

async function postChunk(url: URL, chunk: Blob): Promise<GfileUploadAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    body: chunk,
    headers: { 'content-type': 'application/octet-stream' },
  });
  const answer = (await response.json().catch(() => null)) as GfileUploadAnswer | null;
  if (answer && answer.cmd_status === 0) return answer;
  const reason = answer?.error_reason || `HTTP ${response.status}`;
  if (answer && response.status >= 400 && response.status < 500) throw new UploadRefused(reason);
  throw new Error(reason);
}

/** Bytes of upload `fid` the service holds (a GET of the upload address): 0 when it has none, null when unknown. */
async function heldBytes(base: URL, fid: string): Promise<number | null> {
  const url = new URL(base);
  url.searchParams.set('fid', fid);
  try {
    const response = await fetch(url);
    const answer = (await response.json().catch(() => null)) as GfileUploadAnswer | null;
    if (answer?.cmd_status === 0) return answer.received;
    return response.status === 404 ? 0 : null;
  } catch {
    return null;
  }
}

export const conversationKey = (target: number, targetType: number): string =>
  `${targetType === ImTargetType.GROUP ? 'g' : 'u'}${target}`;

/** A session of req_im_sessions as the wire types carry it. */
export type WireImSession = Omit<ImSession, 'target_type' | 'last'> & { target_type: unknown; last: WireImMessage };

/**
 * The dispatcher's instant messages on the console service: conversations per user (terminal)
 * and per group, listed by req_im_sessions once the login is known (after a logon, and on the
 * first heartbeat that reports the login resumed: a reloaded console finds its conversations and
 * unread messages again), filled by notice_im (messages arriving live and those kept while the
 * console was away, delivered at logon) and by req_im_list when one is opened (which marks its
 * messages read on the service). Messages arriving in a conversation that is not open count as
 * unread, each once, whether the list or a notice told of it first.
 */
export class ImStore {
  private readonly conversations = new Map<string, Conversation>();
  /** unread message ids per conversation key, and those the service counted beyond the ids it named */
  private readonly unread = new Map<string, { ids: Set<number>; beyond: number }>();
  private openKey: string | null = null;
  private snapshot: ImSnapshot = { conversations: [], open: null, unread: 0 };
  private readonly listeners = new Set<() => void>();
  /** uid whose conversations were listed (null: none yet) */
  private listedFor: number | null = null;
  private listing: Promise<void> | null = null;
  private listAgain = false;

  constructor(private readonly sdk: ImSdk) {
    sdk.on('notice_im', (notice) => this.receive(notice.im));
    sdk.on('heartbeat', (reply) => {
      const { logged_on, uid } = reply as { logged_on?: number; uid?: number };
      if (logged_on === 1 && uid !== undefined && uid !== this.listedFor) void this.sync().catch(() => undefined);
    });
  }

  /**
   * Lists the login's conversations (req_im_sessions): names, last messages and unread ones. A
   * login of another user first forgets the previous one's conversations.
   */
  sync(): Promise<void> {
    if (this.listing) {
      // asked while a list is under way (a new group, another login): once more after it
      this.listAgain = true;
      return this.listing;
    }
    this.listing = this.list().finally(() => {
      this.listing = null;
      if (this.listAgain) {
        this.listAgain = false;
        void this.sync().catch(() => undefined);
      }
    });
    return this.listing;
  }

  private async list(): Promise<void> {
    const uid = this.sdk.login?.login_uid;
    if (uid === undefined) return;
    if (this.listedFor !== null && this.listedFor !== uid) {
      this.conversations.clear();
      this.unread.clear();
      this.openKey = null;
    }
    const answer = (await this.sdk.request('req_im_sessions', {})) as { sessions: WireImSession[] };
    this.listedFor = uid;
    for (const session of answer.sessions) {
      const targetType = Number(session.target_type) === ImTargetType.GROUP ? ImTargetType.GROUP : ImTargetType.USER;
      const conversation = this.conversation(session.target, targetType, session.name);
      this.merge(conversation, [normalise(session.last)]);
      if (conversation.key === this.openKey) continue;
      const state = this.unreadOf(conversation.key);
      for (const id of session.unread_ids) state.ids.add(id);
      state.beyond = Math.max(0, session.unread - session.unread_ids.length);
      conversation.unread = state.ids.size + state.beyond;
    }
    this.changed();
  }

  private unreadOf(key: string): { ids: Set<number>; beyond: number } {
    let state = this.unread.get(key);
    if (!state) this.unread.set(key, (state = { ids: new Set(), beyond: 0 }));
    return state;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): ImSnapshot => this.snapshot;

  private get me(): number {
    return this.sdk.login?.login_uid ?? 0;
  }

  private changed(): void {
    const conversations = [...this.conversations.values()]
      .map((c) => ({ ...c }))
      .sort((a, b) => (b.messages.at(-1)?.msg_id ?? 0) - (a.messages.at(-1)?.msg_id ?? 0));
    this.snapshot = {
      conversations,
      open: conversations.find((c) => c.key === this.openKey) ?? null,
      unread: conversations.reduce((sum, c) => sum + c.unread, 0),
    };
    for (const listener of this.listeners) listener();
  }

  private conversation(target: number, targetType: ImTargetType, name = ''): Conversation {
    const key = conversationKey(target, targetType);
    let found = this.conversations.get(key);
    if (!found) {
      found = { key, target, target_type: targetType, name, unread: 0, messages: [], total: null };
      this.conversations.set(key, found);
    } else if (name) found.name = name;
    return found;
  }

  /** Adds messages (by msg_id, once each); answers how many were new. */
  private merge(conversation: Conversation, messages: ImMessage[]): number {
    const known = new Set(conversation.messages.map((m) => m.msg_id));
    const fresh = messages.filter((m) => !known.has(m.msg_id));
    if (fresh.length > 0)
      conversation.messages = [...conversation.messages, ...fresh].sort((a, b) => a.msg_id - b.msg_id);
    return fresh.length;
  }

  /**
   * The address of a message's file (ourl, surl: a path of the service): on the host of the
   * login's upload address, with the login's token and uid that the service asks for.
   */
  fileUrl(path: string): string {
    const login = this.sdk.login;
    if (!path || !login) return path;
    const page = globalThis.location?.href ?? 'http://localhost/';
    const url = new URL(path, login.upload_url_gfile ? new URL(login.upload_url_gfile, page) : page);
    url.searchParams.set('token', login.token);
    url.searchParams.set('uid', String(login.login_uid));
    return url.toString();
  }

  /** A message of notice_im (or the answer of our own req_send_im). */
  receive(wire: WireImMessage): void {
    const im = normalise(wire);
    const mine = im.from === this.me;
    const group = im.target_type === ImTargetType.GROUP;
    const target = group || mine ? im.target : im.from;
    const conversation = this.conversation(target, im.target_type, group ? '' : mine ? '' : im.from_name);
    if (!conversation.name && group) {
      // a group not listed yet: its ext id until the list names it
      conversation.name = im.exttarget;
      if (this.listedFor !== null) void this.sync().catch(() => undefined);
    }
    const added = this.merge(conversation, [im]);
    if (added === 0) return;
    if (conversation.total !== null) conversation.total += 1;
    if (!mine) {
      if (conversation.key === this.openKey) void this.markRead(conversation);
      else {
        const state = this.unreadOf(conversation.key);
        state.ids.add(im.msg_id);
        conversation.unread = state.ids.size + state.beyond;
      }
    }
    this.changed();
  }

  /** The newest message, listed again, is marked read on the service. */
  private async markRead(conversation: Conversation): Promise<void> {
    await this.sdk
      .request('req_im_list', {
        target: conversation.target,
        target_type: conversation.target_type,
        start: 0,
        count: 1,
      })
      .catch(() => undefined);
  }

  /** Opens the conversation with a user or group: its newest page, read. */
  async open(target: number, targetType: ImTargetType, name = ''): Promise<void> {
    const conversation = this.conversation(target, targetType, name);
    this.openKey = conversation.key;
    conversation.unread = 0;
    this.unread.delete(conversation.key);
    this.changed();
    await this.loadPage(conversation, 0);
  }

  /** Closes the open conversation (back to the list). */
  close(): void {
    this.openKey = null;
    this.changed();
  }

  /** The page of older messages of the open conversation. */
  async loadOlder(): Promise<void> {
    const conversation = this.openKey ? this.conversations.get(this.openKey) : undefined;
    if (conversation) await this.loadPage(conversation, conversation.messages.length);
  }

  private async loadPage(conversation: Conversation, start: number): Promise<void> {
    const page = await this.sdk.request('req_im_list', {
      target: conversation.target,
      target_type: conversation.target_type,
      start,
      count: IM_PAGE_SIZE,
    });
    this.merge(conversation, page.im.map(normalise));
    conversation.total = page.total;
    this.changed();
  }

  /**
   * Sends an image or a file to the open conversation: uploaded in chunks to the login's
   * upload_url_gfile (`onProgress` 0..1 after each; a chunk lost on the way, a service restart
   * included, is resumed from the bytes the service holds, up to UPLOAD_ATTEMPTS tries), completed with req_send_file_done, then
   * sent with req_send_im naming its fid. `kind` VOICE sends a recorded voice note.
   */
  async sendFile(
    file: Blob & { name: string },
    onProgress: (done: number) => void = () => undefined,
    kind?: typeof ImType.VOICE,
  ): Promise<void> {
    const conversation = this.openKey ? this.conversations.get(this.openKey) : undefined;
    const login = this.sdk.login;
    if (!conversation || !login) return;
    if (kind) checkKind(file, kind);
    const imType = kind ?? fileKind(file);
    const fid = `w${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
    const base = new URL(login.upload_url_gfile, globalThis.location?.href ?? 'http://localhost/');
    const at = (offset: number) => {
      const url = new URL(base);
      url.searchParams.set('fid', fid);
      url.searchParams.set('offset', String(offset));
      url.searchParams.set('size', String(file.size));
      url.searchParams.set('filename', file.name);
      url.searchParams.set('im_type', String(imType));
      return url;
    };
    let failures = 0;
    for (let offset = 0; offset === 0 || offset < file.size;) {
      let answer: GfileUploadAnswer;
      try {
        answer = await postChunk(at(offset), file.slice(offset, offset + GFILE_CHUNK_MAX_BYTES));
        failures = 0;
      } catch (error) {
        // refused (type, size, login): said at once; lost on the way: resumed from what the service holds
        if (error instanceof UploadRefused || ++failures >= UPLOAD_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, UPLOAD_RETRY_MS * 2 ** (failures - 1)));
        offset = (await heldBytes(base, fid)) ?? offset;
        continue;
      }
      if (file.size > 0 && answer.received <= offset) throw new Error(answer.error_reason || 'upload stalled');
      offset = answer.received;
      onProgress(file.size === 0 ? 1 : offset / file.size);
      if (file.size === 0) break;
    }
    await this.sdk.request('req_send_file_done', { fid });
    const answer = await this.sdk.request('req_send_im', {
      target: conversation.target,
      target_type: conversation.target_type,
      im_type: imType,
      fid,
      time: new Date().toISOString(),
    });
    this.receive(answer.im);
  }

  /** Sends a text to the open conversation. */
  async sendText(content: string): Promise<void> {
    const conversation = this.openKey ? this.conversations.get(this.openKey) : undefined;
    if (!conversation) return;
    const answer = await this.sdk.request('req_send_im', {
      target: conversation.target,
      target_type: conversation.target_type,
      im_type: ImType.TEXT,
      content,
      time: new Date().toISOString(),
    });
    this.receive(answer.im);
  }
}
