import { randomBytes } from 'node:crypto';
import {
  AUDIO_HEADER_BYTES,
  decodeAudioFrame,
  PTT_MAX_HOLD_S_DEFAULT,
  TalkPriority,
  UserType,
  type FloorReason,
  type Talker,
} from '@bwc/protocol';
import type { GroupRow } from '../groups.repository';
import { attachedUids, memberIds } from '../groups.repository';
import type { Connection } from '../connection';
import { ConsoleErrors } from '../errors';
import type { Login } from '../login';
import type { ConsoleService } from '../service';
import { expire, forceRelease, release, request, type Clock, type FloorChange, type Party } from './floor';
import { FloorStore } from './floor-store';
import { BurstRecorder } from './recorder';
import { attachmentOf, insertRecord, listenerUids } from './talk.repository';

/** How often the node running the scheduled work looks for holds that passed. */
const EXPIRY_SWEEP_MS = 200;
/** A recorder with no frame for this long is closed (its talker went silent without a word). */
const RECORDER_IDLE_MS = 5_000;
/** Listener lists are read again at most this often (besides every enter, leave and membership change). */
const LISTENERS_TTL_MS = 30_000;

/** A floor as every node knows it (from the `talk.floor` events). */
interface KnownFloor {
  talker: Talker;
  unit_id: number;
  tg_name: string;
}

declare module '../../../bus' {
  interface DomainEvents {
    /** the floor of a group changed (issue 14): every node learns who may send audio */
    'talk.floor': {
      tgid: number;
      tg_name: string;
      unit_id: number;
      talker: Talker | null;
      previous: Talker | null;
      reason?: FloorReason;
      queue: number[];
    };
    /** an audio frame for listeners on other nodes (base64 of the binary frame) */
    'talk.audio': { tgid: number; frame: string };
  }
}

export interface TalkStats {
  /** frames accepted from floor holders */
  received: number;
  /** frames sent to listeners' connections (this node) */
  delivered: number;
  /** frames dropped: malformed, no login, or the sender does not hold the floor */
  dropped: number;
}

/**
 * Group talk on this node (issue 14): floor requests against the shared floor store, notices of
 * every change, the relay of the floor holder's audio frames to the group's listeners (on this
 * node directly, on the others through the bus), the recording of each burst, and the release of
 * the floor when a hold passes, a talker disconnects or leaves the group.
 */
export class TalkService {
  readonly store: FloorStore;
  readonly maxHoldMs: number;
  readonly stats: TalkStats = { received: 0, delivered: 0, dropped: 0 };
  private readonly floors = new Map<number, KnownFloor>();
  private readonly listeners = new Map<number, { uids: number[]; at: number }>();
  /** reads of a group's listeners under way; `again`: a change came meanwhile, read once more */
  private readonly loading = new Map<number, { promise: Promise<number[]>; again: boolean }>();
  private readonly recorders = new Map<string, BurstRecorder>();
  /** uid -> group it waits for, of requests made through this node */
  private readonly waiting = new Map<number, number>();
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly service: ConsoleService,
    options: { maxHoldMs?: number } = {},
  ) {
    this.store = new FloorStore(service.deps.cluster.shared);
    this.maxHoldMs = options.maxHoldMs ?? PTT_MAX_HOLD_S_DEFAULT * 1000;
    const { bus, log } = service.deps;
    bus.on('talk.floor', (e) => this.learn(e));
    bus.on('talk.audio', (e, from) => {
      if (from) this.relayLocal(e.tgid, Buffer.from(e.frame, 'base64'));
    });
    bus.on('console.notice', (e) => {
      const code = e.msg_code;
      if (
        code === 'notice_enter_group' ||
        code === 'notice_leave_group' ||
        code === 'notice_add_grp_mem' ||
        code === 'notice_rem_grp_mem' ||
        code === 'notice_delete_grp'
      ) {
        const { tgid, uids } = e.payload as { tgid: number; uids?: number[] };
        // who entered or left counts at once; the list is then read again to be sure
        if (uids && (code === 'notice_enter_group' || code === 'notice_leave_group'))
          this.adjustListeners(tgid, uids, code === 'notice_enter_group');
        this.forgetListeners(tgid);
      }
    });
    // who enters a group where somebody talks is told who (a console that reconnected missed it)
    bus.onOrigin('console.notice', (e) => {
      if (e.msg_code !== 'notice_enter_group') return;
      const { tgid, uids } = e.payload as { tgid: number; uids: number[] };
      const floor = this.floors.get(tgid);
      if (floor)
        this.service.notify({ uids }, 'notice_ptt_status', {
          tgid,
          state: 1,
          talker: floor.talker,
          previous: null,
          queue: [],
        });
    });
    // a talker who leaves the group lets go of its floor (once, where the leave happened)
    bus.onOrigin('console.notice', (e) => {
      if (e.msg_code !== 'notice_leave_group') return;
      const { tgid, uids } = e.payload as { tgid: number; uids: number[] };
      for (const uid of uids)
        if (this.floors.get(tgid)?.talker.uid === uid || this.waiting.get(uid) === tgid)
          this.letGo(tgid, uid, 'left').catch((err) => log.error({ err, tgid }, 'talk: release on leave'));
    });
    service.onUnbind((login) => this.disconnected(login.uid));
    this.timers.push(setInterval(() => this.sweep(), EXPIRY_SWEEP_MS).unref());
  }

  private clock(): Clock {
    return {
      now: Date.now(),
      maxHoldMs: this.maxHoldMs,
      refid: () => `${Date.now().toString(36)}${randomBytes(6).toString('hex')}`,
    };
  }

  private static party(login: Login, emergency: 0 | 1): Party {
    return {
      uid: login.uid,
      ext_id: login.ext_id,
      name: login.display_name,
      emergency,
      priority: emergency
        ? TalkPriority.EMERGENCY
        : login.user_type === UserType.CONSOLE
          ? TalkPriority.CONSOLE
          : TalkPriority.TERMINAL,
    };
  }

  /** req_ptt_on of `login` in `group` (the caller checked it may see it). */
  async request(login: Login, group: GroupRow, emergency: 0 | 1) {
    const { db } = this.service.deps;
    const attached = await attachmentOf(db, login.uid);
    const maxHold = Math.round(this.maxHoldMs / 1000);
    if (attached?.tgid !== group.id || !attached.speak) {
      const talker = this.floors.get(group.id)?.talker ?? null;
      // req_ptt_on is fire-and-forget for the SDK: the refusal also comes as a notice
      this.service.notify({ uids: [login.uid] }, 'notice_ptt_status', {
        tgid: group.id,
        state: talker ? 1 : 0,
        talker,
        previous: null,
        reason: 'not_attached',
        queue: [],
        result: 'denied',
      });
      return {
        tgid: group.id,
        result: 'denied' as const,
        reason: 'not_attached' as const,
        talker,
        max_hold_s: maxHold,
      };
    }
    const out = await this.store.update(group.id, (s) => request(s, TalkService.party(login, emergency), this.clock()));
    if (out.result === 'queued') this.waiting.set(login.uid, group.id);
    else this.waiting.delete(login.uid);
    await this.announce(
      group,
      out.changes,
      out.state.queue.map((w) => w.uid),
    );
    if (out.result !== 'granted')
      this.service.notify({ uids: [login.uid] }, 'notice_ptt_status', {
        tgid: group.id,
        state: out.state.talker ? 1 : 0,
        talker: out.state.talker,
        previous: null,
        reason: out.reason,
        queue: out.state.queue.map((w) => w.uid),
        result: out.result,
      });
    return {
      tgid: group.id,
      result: out.result,
      reason: out.reason,
      position: out.position,
      talker: out.state.talker,
      max_hold_s: maxHold,
    };
  }

  /** req_ptt_off: the caller gives the floor back or leaves the queue. */
  async release(login: Login, group: GroupRow): Promise<{ tgid: number; released: 0 | 1 }> {
    const released = await this.letGo(group.id, login.uid, 'released', group);
    return { tgid: group.id, released: released ? 1 : 0 };
  }

  /** req_ptt_release: a dispatcher takes the floor back. */
  async force(group: GroupRow): Promise<{ tgid: number; released: 0 | 1 }> {
    const out = await this.store.update(group.id, (s) => forceRelease(s, this.clock()));
    await this.announce(
      group,
      out.changes,
      out.state.queue.map((w) => w.uid),
    );
    return { tgid: group.id, released: out.released ? 1 : 0 };
  }

  private async letGo(tgid: number, uid: number, reason: FloorReason, known?: GroupRow): Promise<boolean> {
    this.waiting.delete(uid);
    const out = await this.store.update(tgid, (s) => release(s, uid, reason, this.clock()));
    const group = known ?? this.groupOf(tgid);
    if (group)
      await this.announce(
        group,
        out.changes,
        out.state.queue.map((w) => w.uid),
      );
    return out.released;
  }

  private groupOf(tgid: number): Pick<GroupRow, 'id' | 'name' | 'unit_id'> | null {
    const f = this.floors.get(tgid);
    return f ? { id: tgid, name: f.tg_name, unit_id: f.unit_id } : null;
  }

  /** Tell every node (talk.floor) and every party (notice_ptt_status) of each change. */
  private async announce(
    group: Pick<GroupRow, 'id' | 'name' | 'unit_id'>,
    changes: FloorChange[],
    queue: number[],
  ): Promise<void> {
    if (!changes.length) return;
    const { db, bus } = this.service.deps;
    const uids = [...new Set([...(await memberIds(db, group.id)), ...(await attachedUids(db, group.id))])];
    for (const c of changes) {
      bus.emit('talk.floor', {
        tgid: group.id,
        tg_name: group.name,
        unit_id: group.unit_id,
        talker: c.talker,
        previous: c.previous,
        reason: c.reason,
        queue,
      });
      this.service.notify({ uids, seeing: [group.unit_id] }, 'notice_ptt_status', {
        tgid: group.id,
        state: c.talker ? 1 : 0,
        talker: c.talker,
        previous: c.previous,
        reason: c.reason,
        queue,
      });
    }
  }

  /** A floor change of any node: who may send audio now; the previous burst's recording ends. */
  private learn(e: {
    tgid: number;
    tg_name: string;
    unit_id: number;
    talker: Talker | null;
    previous: Talker | null;
  }): void {
    if (e.talker) {
      this.floors.set(e.tgid, { talker: e.talker, unit_id: e.unit_id, tg_name: e.tg_name });
      void this.listenersOf(e.tgid);
    } else if (this.floors.get(e.tgid)?.talker.refid === e.previous?.refid) this.floors.delete(e.tgid);
    if (e.previous && e.previous.refid !== e.talker?.refid) void this.finish(e.previous.refid);
  }

  private disconnected(uid: number): void {
    const { log } = this.service.deps;
    for (const [tgid, f] of this.floors)
      if (f.talker.uid === uid)
        this.letGo(tgid, uid, 'disconnected').catch((err) => log.error({ err, tgid }, 'talk: release on disconnect'));
    const tgid = this.waiting.get(uid);
    if (tgid !== undefined)
      this.letGo(tgid, uid, 'disconnected').catch((err) => log.error({ err, tgid }, 'talk: leave queue'));
  }

  /** On the node running the scheduled work: holds that passed are taken back. */
  private sweep(): void {
    const { cluster, log } = this.service.deps;
    const nowMs = Date.now();
    for (const [id, r] of this.recorders)
      if (nowMs - r.lastFrame > RECORDER_IDLE_MS && this.floors.get(r.group.tgid)?.talker.refid !== id)
        void this.finish(id);
    if (!cluster.scheduler.held) return;
    for (const [tgid, f] of this.floors) {
      if (f.talker.until > nowMs) continue;
      const group = { id: tgid, name: f.tg_name, unit_id: f.unit_id };
      this.store
        .update(tgid, (s) => expire(s, this.clock()))
        .then((out) =>
          this.announce(
            group,
            out.changes,
            out.state.queue.map((w) => w.uid),
          ),
        )
        .catch((err) => log.error({ err, tgid }, 'talk: hold expiry'));
    }
  }

  // ---- audio

  /** A binary frame from a connection: relayed and recorded when its sender holds the floor. */
  audio(conn: Connection, data: Buffer): void {
    const login = conn.login;
    const frame = login ? decodeAudioFrame(data) : null;
    const floor = frame ? this.floors.get(frame.tgid) : undefined;
    if (!login || !frame || !floor || floor.talker.uid !== login.uid) {
      this.stats.dropped += 1;
      return;
    }
    this.stats.received += 1;
    data.writeUInt32BE(login.uid, 6);
    data.writeUInt8(floor.talker.emergency ? 1 : 0, 1);
    let recorder = this.recorders.get(floor.talker.refid);
    if (!recorder) {
      recorder = new BurstRecorder(this.service.deps.config.dataDir, floor.talker, {
        tgid: frame.tgid,
        name: floor.tg_name,
        unit_id: floor.unit_id,
      });
      this.recorders.set(floor.talker.refid, recorder);
    }
    recorder.packet(data.subarray(AUDIO_HEADER_BYTES));
    this.relayLocal(frame.tgid, data);
    const { cluster, bus } = this.service.deps;
    // every frame goes to the other nodes, which relay it to their own listeners of the group:
    // choosing here from this node's cached listener list lost the first frames of a burst
    // whenever that list was not read yet or was being read again (cluster.test group talk)
    if (cluster.distributed) bus.emit('talk.audio', { tgid: frame.tgid, frame: data.toString('base64') });
  }

  /** Send a frame to this node's listeners of the group, except its talker. */
  private relayLocal(tgid: number, frame: Buffer): void {
    const talker = frame.readUInt32BE(6);
    const send = (uids: number[]) => {
      for (const uid of uids) {
        if (uid === talker) continue;
        const conn = this.service.connectionOf(uid);
        if (conn?.sendBinary(frame)) this.stats.delivered += 1;
      }
    };
    const cached = this.listeners.get(tgid);
    if (cached) {
      send(cached.uids);
      if (Date.now() - cached.at > LISTENERS_TTL_MS) void this.listenersOf(tgid, true);
    } else
      void this.listenersOf(tgid).then(send, (err: unknown) =>
        this.service.deps.log.error({ err, tgid }, 'talk: listeners not read'),
      );
  }

  private listenersOf(tgid: number, reload = false): Promise<number[]> {
    const cached = this.listeners.get(tgid);
    if (cached && !reload) return Promise.resolve(cached.uids);
    const inFlight = this.loading.get(tgid);
    if (inFlight) {
      // a change after that read began (someone entered meanwhile): read once more after it
      if (reload) inFlight.again = true;
      return inFlight.promise;
    }
    const entry = { again: false, promise: Promise.resolve<number[]>([]) };
    entry.promise = listenerUids(this.service.deps.db, tgid).then(
      (uids) => {
        this.loading.delete(tgid);
        // a read that a change overtook keeps the list as adjusted (adjustListeners) until the next
        // read: its snapshot may predate that change
        if (!entry.again || !this.listeners.has(tgid)) this.listeners.set(tgid, { uids, at: Date.now() });
        if (entry.again)
          this.listenersOf(tgid, true).catch((err: unknown) =>
            this.service.deps.log.error({ err, tgid }, 'talk: listeners not read'),
          );
        return uids;
      },
      (err: unknown) => {
        this.loading.delete(tgid);
        throw err;
      },
    );
    this.loading.set(tgid, entry);
    return entry.promise;
  }

  /** Adds (entered) or removes (left) `uids` in the known listener list of a group, if one is known. */
  private adjustListeners(tgid: number, uids: number[], entered: boolean): void {
    const known = this.listeners.get(tgid);
    if (!known) return;
    const next = entered ? [...new Set([...known.uids, ...uids])] : known.uids.filter((uid) => !uids.includes(uid));
    this.listeners.set(tgid, { uids: next, at: known.at });
  }

  private forgetListeners(tgid: number): void {
    if (!this.listeners.has(tgid) && !this.loading.has(tgid)) return;
    // keep relaying to the known list until the new one is read
    void this.listenersOf(tgid, true).catch(() => this.listeners.delete(tgid));
  }

  /** End a burst's recording and store it. */
  private finish(refid: string): Promise<void> {
    const recorder = this.recorders.get(refid);
    if (!recorder) return Promise.resolve();
    this.recorders.delete(refid);
    const { db, log } = this.service.deps;
    const t = recorder.talker;
    return recorder
      .close()
      .then(() =>
        insertRecord(db, {
          refid,
          kind: 'group',
          tgid: recorder.group.tgid,
          tg_name: recorder.group.name,
          unit_id: recorder.group.unit_id,
          uid: t.uid,
          ext_id: t.ext_id,
          name: t.name,
          emergency: t.emergency,
          start_ms: t.since,
          stop_ms: recorder.lastFrame,
          frames: recorder.frames,
          bytes: recorder.bytes,
          path: recorder.path,
          peer_uid: null,
          peer_ext_id: null,
          peer_name: null,
        }),
      )
      .catch((err) => log.error({ err, refid }, 'talk: burst not recorded'));
  }

  /** Stop: recordings in progress are finished. */
  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    await Promise.all([...this.recorders.keys()].map((refid) => this.finish(refid)));
  }
}

/** The talk service of a handler's console service (registered by console.module.ts). */
export function talkOf(service: ConsoleService): TalkService {
  if (!service.talk) throw ConsoleErrors.server('talk');
  return service.talk;
}
