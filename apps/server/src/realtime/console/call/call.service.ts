import { randomBytes } from 'node:crypto';
import {
  AUDIO_HEADER_BYTES,
  AudioKind,
  CALL_RING_TIMEOUT_S_DEFAULT,
  CallStatus,
  CallType,
  decodeAudioFrame,
  type CallNotice,
  type CallReason,
} from '@bwc/protocol';
import type { Connection } from '../connection';
import type { DirectoryEntry } from '../directory';
import { ConsoleErrors } from '../errors';
import type { Login } from '../login';
import type { ConsoleService } from '../service';
import { BurstRecorder } from '../talk/recorder';
import { insertRecord } from '../talk/talk.repository';
import {
  isEnded,
  isParty,
  next,
  peerOf,
  presentCall,
  type CallAct,
  type CallParty,
  type CallState,
} from './call-state';
import { CallStore } from './call-store';

declare module '../../../bus' {
  interface DomainEvents {
    /** a call changed (issue 14 section 4): every node learns who may send call audio to whom */
    'call.state': { call: CallState };
    /** a call frame for a party on another node (base64 of the binary frame) */
    'call.audio': { to: number; frame: string };
  }
}

export interface CallStats {
  /** frames accepted from parties of answered calls */
  received: number;
  /** frames sent to the other party's connection (this node) */
  delivered: number;
  /** frames dropped: malformed, no login, no answered call of the sender */
  dropped: number;
}

/** One direction of a call being recorded on this node (the talker's). */
interface Direction {
  callid: number;
  recorder: BurstRecorder;
  peer: CallParty;
}

/** What a request asks of a call, by its `status`. */
const ACTS = {
  [CallStatus.ANSWERED]: 'answer',
  [CallStatus.REJECTED]: 'reject',
  [CallStatus.HANGUP]: 'hangup',
} as const;

/**
 * Voice calls on this node (issue 14 section 4): a call placed against the shared call store
 * (one call per user in the cluster), rung until the callee answers, rejects or the ring time
 * passes; its changes told to both parties (notice_call_status) and to every node (`call.state`);
 * while answered, each party's binary CALL frames relayed to the other party only (on another
 * node through the bus) and recorded, one Ogg Opus file per direction; a party whose connection
 * closes ends the call at once.
 */
export class CallService {
  readonly store: CallStore;
  /** how long a call rings (set at start; a test shortens it) */
  ringTimeoutMs: number;
  readonly stats: CallStats = { received: 0, delivered: 0, dropped: 0 };
  /** the calls of the cluster, as the `call.state` events tell every node */
  private readonly calls = new Map<number, CallState>();
  /** uid -> its call */
  private readonly partyOf = new Map<number, number>();
  /** ring timers of the calls placed through this node */
  private readonly ringing = new Map<number, NodeJS.Timeout>();
  /** `<callid>:<talker uid>` -> the direction recorded here */
  private readonly directions = new Map<string, Direction>();

  constructor(
    private readonly service: ConsoleService,
    options: { ringTimeoutMs?: number } = {},
  ) {
    this.store = new CallStore(service.deps.cluster.shared);
    this.ringTimeoutMs = options.ringTimeoutMs ?? CALL_RING_TIMEOUT_S_DEFAULT * 1000;
    const { bus } = service.deps;
    bus.on('call.state', (e) => this.learn(e.call));
    bus.on('call.audio', (e, from) => {
      if (from) this.deliver(e.to, Buffer.from(e.frame, 'base64'));
    });
    service.onUnbind((login) => this.disconnected(login.uid));
  }

  private static party(who: { uid: number; ext_id: string; display_name: string }): CallParty {
    return { uid: who.uid, ext_id: who.ext_id, name: who.display_name };
  }

  /** req_call of `login` to `callee` (the caller checked it may see it). */
  async place(
    login: Login,
    callee: DirectoryEntry,
    body: { call_type: number; priority: number },
  ): Promise<CallNotice> {
    if (callee.uid === login.uid) throw ConsoleErrors.invalid('console.call.self');
    if (body.call_type !== CallType.VOICE) throw ConsoleErrors.notAvailable('req_call call_type 1');
    const call: Omit<CallState, 'callid'> = {
      caller: CallService.party(login),
      callee: CallService.party(callee),
      call_type: body.call_type,
      priority: body.priority,
      start: Date.now(),
      answered: null,
      status: CallStatus.RINGING,
      unit_id: callee.unit_id,
    };
    if (!this.service.online(callee.uid)) return this.refuse(call, CallStatus.UNREACHABLE, 'offline');
    const placed = await this.store.open(call);
    if (typeof placed === 'string') return this.refuse(call, CallStatus.BUSY, placed);
    this.announce(placed);
    const timer = setTimeout(() => {
      this.ringing.delete(placed.callid);
      this.change(placed.callid, { kind: 'timeout', now: Date.now() }).catch((err: unknown) =>
        this.service.deps.log.error({ err, callid: placed.callid }, 'call: ring timeout'),
      );
    }, this.ringTimeoutMs);
    timer.unref();
    this.ringing.set(placed.callid, timer);
    return presentCall(placed);
  }

  /** A call that was never placed: the caller alone is told why (the SDK does not wait for the answer). */
  private refuse(call: Omit<CallState, 'callid'>, status: CallStatus, reason: CallReason): CallNotice {
    const told = presentCall({ ...call, callid: 0, status, reason });
    this.service.notify({ uids: [call.caller.uid] }, 'notice_call_status', told);
    return told;
  }

  /** req_call_status: answer, reject or hang up `callid` (absent: the sender's call). */
  async set(login: Login, callid: number | undefined, status: keyof typeof ACTS): Promise<CallNotice> {
    const id = await this.callOf(login, callid);
    const call = await this.change(id, { kind: ACTS[status], uid: login.uid, now: Date.now() });
    if (!call) throw ConsoleErrors.notFound('console.call.notFound', { callid: id });
    return presentCall(call);
  }

  /** req_dtmf: the digits go to the other party of the sender's answered call. */
  async dtmf(login: Login, body: { callid?: number; telno?: string; value: string }) {
    const callid = await this.callOf(login, body.callid);
    const call = await this.store.read(callid);
    if (!call || !isParty(call, login.uid)) throw ConsoleErrors.notFound('console.call.notFound', { callid });
    if (call.status !== CallStatus.ANSWERED) throw ConsoleErrors.conflict('console.call.notAnswered');
    this.service.notify({ uids: [peerOf(call, login.uid).uid] }, 'notice_dtmf', {
      callid,
      from: login.uid,
      extfrom: login.ext_id,
      ...(body.telno ? { telno: body.telno } : {}),
      value: body.value,
    });
    return { callid, value: body.value };
  }

  /** The call a request names, or the sender's own. */
  private async callOf(login: Login, callid: number | undefined): Promise<number> {
    const id = callid ?? this.partyOf.get(login.uid) ?? (await this.store.callOf(login.uid));
    if (!id) throw ConsoleErrors.conflict('console.call.none');
    return id;
  }

  /**
   * Apply an act to a call in the shared store; tell every node and both parties of the change.
   * A party's act on a call it is not in is answered as not found (it learns nothing of it).
   */
  private async change(callid: number, act: CallAct): Promise<CallState | null> {
    const after = await this.store.update(callid, (call) => {
      if (act.kind !== 'timeout' && !isParty(call, act.uid))
        throw ConsoleErrors.notFound('console.call.notFound', { callid });
      const out = next(call, act);
      if ('error' in out) throw ConsoleErrors.conflict(out.error);
      return out.state;
    });
    if (after) this.announce(after);
    return after;
  }

  private announce(call: CallState): void {
    this.service.deps.bus.emit('call.state', { call });
    this.service.notify({ uids: [call.caller.uid, call.callee.uid] }, 'notice_call_status', presentCall(call));
  }

  /** A change of any node: who may send audio to whom; an ended call's recordings are stored. */
  private learn(call: CallState): void {
    const id = call.callid;
    if (isEnded(call) || call.status === CallStatus.ANSWERED) {
      clearTimeout(this.ringing.get(id));
      this.ringing.delete(id);
    }
    if (!isEnded(call)) {
      this.calls.set(id, call);
      this.partyOf.set(call.caller.uid, id);
      this.partyOf.set(call.callee.uid, id);
      return;
    }
    this.calls.delete(id);
    for (const uid of [call.caller.uid, call.callee.uid]) if (this.partyOf.get(uid) === id) this.partyOf.delete(uid);
    for (const [key, d] of this.directions) if (d.callid === id) void this.finish(key);
  }

  /** A party's connection closed: its call ends at once. */
  private disconnected(uid: number): void {
    const callid = this.partyOf.get(uid);
    if (callid === undefined) return;
    this.change(callid, { kind: 'disconnect', uid, now: Date.now() }).catch((err: unknown) =>
      this.service.deps.log.error({ err, callid }, 'call: end on disconnect'),
    );
  }

  // ---- audio

  /** A binary CALL frame from a connection: relayed to the other party and recorded when its call is answered. */
  audio(conn: Connection, data: Buffer): void {
    const login = conn.login;
    const frame = login ? decodeAudioFrame(data, AudioKind.CALL) : null;
    const call = frame ? this.calls.get(frame.tgid) : undefined;
    if (!login || !call || call.status !== CallStatus.ANSWERED || !isParty(call, login.uid)) {
      this.stats.dropped += 1;
      return;
    }
    this.stats.received += 1;
    data.writeUInt32BE(login.uid, 6);
    data.writeUInt8(0, 1);
    const peer = peerOf(call, login.uid);
    this.record(call, login, peer, data.subarray(AUDIO_HEADER_BYTES));
    if (this.deliver(peer.uid, data)) return;
    const { cluster, bus } = this.service.deps;
    if (cluster.distributed && this.service.online(peer.uid))
      bus.emit('call.audio', { to: peer.uid, frame: data.toString('base64') });
  }

  /** Send a frame to `uid`'s connection on this node; false when it has none here. */
  private deliver(uid: number, frame: Buffer): boolean {
    const conn = this.service.connectionOf(uid);
    if (!conn) return false;
    if (conn.sendBinary(frame)) this.stats.delivered += 1;
    return true;
  }

  private record(call: CallState, login: Login, peer: CallParty, opus: Uint8Array): void {
    const key = `${call.callid}:${login.uid}`;
    let d = this.directions.get(key);
    if (!d) {
      const since = Date.now();
      const talker = {
        uid: login.uid,
        ext_id: login.ext_id,
        name: login.display_name,
        priority: call.priority,
        emergency: 0 as const,
        since,
        until: since,
        refid: `${since.toString(36)}${randomBytes(6).toString('hex')}`,
      };
      const recorder = new BurstRecorder(this.service.deps.config.dataDir, talker, {
        tgid: call.callid,
        name: '',
        unit_id: call.unit_id,
      });
      d = { callid: call.callid, recorder, peer };
      this.directions.set(key, d);
    }
    d.recorder.packet(opus);
  }

  /** End a direction's recording and store it (a talk_records row of kind call). */
  private finish(key: string): Promise<void> {
    const d = this.directions.get(key);
    if (!d) return Promise.resolve();
    this.directions.delete(key);
    const { db, log } = this.service.deps;
    const { recorder, peer } = d;
    const t = recorder.talker;
    return recorder
      .close()
      .then(() =>
        insertRecord(db, {
          refid: t.refid,
          kind: 'call',
          tgid: d.callid,
          tg_name: '',
          unit_id: recorder.group.unit_id,
          uid: t.uid,
          ext_id: t.ext_id,
          name: t.name,
          emergency: 0,
          start_ms: t.since,
          stop_ms: recorder.lastFrame,
          frames: recorder.frames,
          bytes: recorder.bytes,
          path: recorder.path,
          peer_uid: peer.uid,
          peer_ext_id: peer.ext_id,
          peer_name: peer.name,
        }),
      )
      .catch((err) => log.error({ err, refid: t.refid }, 'call: direction not recorded'));
  }

  /** Stop: ring timers cleared, recordings in progress stored. */
  async close(): Promise<void> {
    for (const timer of this.ringing.values()) clearTimeout(timer);
    this.ringing.clear();
    await Promise.all([...this.directions.keys()].map((key) => this.finish(key)));
  }
}

/** The call service of a handler's console service (registered by console.module.ts). */
export function callsOf(service: ConsoleService): CallService {
  if (!service.calls) throw ConsoleErrors.server('call');
  return service.calls;
}
