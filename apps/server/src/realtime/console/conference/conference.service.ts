import {
  AudioKind,
  CONFERENCE_LEAVE_GRACE_MS,
  decodeAudioFrame,
  UserType,
  type ConfEndReason,
  type ConfParticipant,
  type ConfTile,
  type ConferenceAnswer,
  type ShareConfNotice,
  type StartConfNotice,
  type StopConfNotice,
} from '@bwc/protocol';
import { AppError } from '../../../http/errors';
import { findDevice } from '../../../modules/devices/devices.repository';
import type { Connection } from '../connection';
import { resolveUsers, type DirectoryEntry } from '../directory';
import { ConsoleErrors } from '../errors';
import { attachedUids, memberIds, type GroupRow } from '../groups.repository';
import { isConsoleUid, userIdOfConsoleUid, type Login } from '../login';
import type { ConsoleService } from '../service';
import { ConferenceStore, type ConferenceState } from './conference.store';

declare module '../../../bus' {
  interface DomainEvents {
    /** a group's conference started, changed or ended (null): every node learns who takes part */
    'conference.state': { tgid: number; state: ConferenceState | null };
    /** a conference audio frame for participants on other nodes (base64 of the binary frame) */
    'conference.audio': { tgid: number; frame: string };
  }
}

export interface ConferenceStats {
  /** frames accepted from participants */
  received: number;
  /** frames sent to participants' connections (this node) */
  delivered: number;
  /** frames dropped: malformed, no login, no conference, or the sender does not take part */
  dropped: number;
}

const participantOf = (e: DirectoryEntry): ConfParticipant => ({
  uid: e.uid,
  ext_id: e.ext_id,
  name: e.display_name,
  terminal: e.user_type === UserType.TERMINAL ? 1 : 0,
});

const publicView = ({ unit_id: _unit, ...conference }: ConferenceState) => conference;

/**
 * Video conferences on this node (issue 14 section 5): one per group, in the shared state; the
 * live video of its terminals for each console (modules/media LiveService, as req_play_video);
 * its audio, full duplex, relayed from every participant to every other (here directly, on other
 * nodes through the bus); the end of it when the demander leaves or the group is deleted.
 */
export class ConferenceService {
  readonly store: ConferenceStore;
  readonly stats: ConferenceStats = { received: 0, delivered: 0, dropped: 0 };
  /** every conference of the cluster as the `conference.state` events told this node */
  private readonly known = new Map<number, ConferenceState>();
  /** leaves waiting for their grace (CONFERENCE_LEAVE_GRACE_MS) */
  private readonly graces = new Set<NodeJS.Timeout>();
  private readonly leaveGraceMs: number;

  constructor(
    private readonly service: ConsoleService,
    options: { leaveGraceMs?: number } = {},
  ) {
    this.leaveGraceMs = options.leaveGraceMs ?? CONFERENCE_LEAVE_GRACE_MS;
    const { bus, cluster, log } = service.deps;
    this.store = new ConferenceStore(cluster.shared);
    bus.on('conference.state', (e) => {
      if (e.state) this.known.set(e.tgid, e.state);
      else this.known.delete(e.tgid);
    });
    bus.on('conference.audio', (e, from) => {
      if (from) this.relayLocal(e.tgid, Buffer.from(e.frame, 'base64'));
    });
    // a deleted group's conference ends (once, where the deletion happened)
    bus.onOrigin('console.notice', (e) => {
      if (e.msg_code !== 'notice_delete_grp') return;
      const { tgid } = e.payload as { tgid: number };
      const state = this.known.get(tgid);
      if (state)
        this.end(tgid, 'group_deleted', state.demander).catch((err) => log.error({ err, tgid }, 'conference: end'));
    });
    service.onUnbind((login) => this.disconnected(login.uid));
    // a member or attached user logging on (a terminal coming online, a reconnect) takes part
    service.onLogon((_conn, login) => this.loggedOn(login));
  }

  /** The conference of a group, as this node knows it. */
  of(tgid: number): ConferenceState | undefined {
    return this.known.get(tgid);
  }

  /**
   * req_start_video_conf of console `login` in `group` (visible to it): the online members, the
   * online users attached to the group and the demander take part.
   */
  async start(login: Login, group: GroupRow, members: number[]): Promise<ConferenceAnswer> {
    const { db } = this.service.deps;
    const uids = [...new Set([login.uid, ...members, ...(await attachedUids(db, group.id))])].filter(
      (uid) => uid === login.uid || this.service.online(uid),
    );
    const { entries } = await resolveUsers(db, login, uids, []);
    const state: ConferenceState = {
      tgid: group.id,
      tg_name: group.name,
      unit_id: group.unit_id,
      demander: login.uid,
      extdemander: login.ext_id,
      participants: entries.map(participantOf),
      vsid: null,
      started: Date.now(),
    };
    const out = await this.store.update(group.id, (current) => ({ next: current ?? state, created: !current }));
    if (!out.created) throw ConsoleErrors.conflict('console.conference.exists', { name: group.name });
    this.service.deps.bus.emit('conference.state', { tgid: group.id, state });
    const tiles = await this.tilesFor(login.uid, state);
    for (const p of state.participants)
      if (p.uid !== login.uid)
        this.tellStarted(p, state, 'started').catch((err: unknown) =>
          this.service.deps.log.error({ err, tgid: group.id }, 'conference: start notice'),
        );
    return { ...publicView(state), tiles };
  }

  /** req_stop_video_conf: the demander, or a console allowed to (the handler checked), ends it for all. */
  async stop(login: Login, tgid: number): Promise<StopConfNotice> {
    const state = this.known.get(tgid) ?? (await this.store.read(tgid));
    if (!state) throw ConsoleErrors.notFound('console.conference.none', { tgid });
    const ended = await this.end(tgid, 'stopped', login.uid);
    if (!ended) throw ConsoleErrors.notFound('console.conference.none', { tgid });
    return ended;
  }

  /** End a group's conference: every participant told, the live claims of its consoles released. */
  private async end(tgid: number, reason: ConfEndReason, by: number): Promise<StopConfNotice | null> {
    const out = await this.store.update(tgid, (current) => ({ next: null, ended: current }));
    const state = out.ended;
    if (!state) return null;
    this.service.deps.bus.emit('conference.state', { tgid, state: null });
    const notice: StopConfNotice = { tgid, demander: state.demander, extdemander: state.extdemander, reason, by };
    this.service.notify({ uids: state.participants.map((p) => p.uid) }, 'notice_stop_video_conf', notice);
    for (const p of state.participants) if (!p.terminal) await this.releaseTiles(p.uid, this.devicesOf(state));
    return notice;
  }

  /** req_share_video_in_video_conf: a participant puts a terminal's video (`device`) into the conference. */
  async share(login: Login, tgid: number, device: DirectoryEntry): Promise<ShareConfNotice> {
    if (device.user_type !== UserType.TERMINAL)
      throw ConsoleErrors.invalid('console.conference.notTerminal', { vsid: device.ext_id });
    const vsid = String(device.uid);
    const out = await this.store.update(tgid, (current) => {
      if (!current?.participants.some((p) => p.uid === login.uid)) return { next: current, refused: 'member' as const };
      if (current.vsid === vsid) return { next: current, refused: 'shared' as const };
      return { next: { ...current, vsid }, previous: current.vsid, refused: null };
    });
    if (out.refused === 'member') throw ConsoleErrors.notFound('console.conference.notParticipant', { tgid });
    if (out.refused === 'shared')
      throw ConsoleErrors.conflict('console.conference.alreadyShared', { vsid: device.ext_id });
    const state = out.next!;
    this.service.deps.bus.emit('conference.state', { tgid, state });
    if (out.previous) await this.unshared(state, out.previous, login.uid);
    const notice: ShareConfNotice = {
      tgid,
      demander: state.demander,
      extdemander: state.extdemander,
      vsid,
      by: login.uid,
    };
    for (const p of state.participants) {
      if (p.uid === login.uid) continue;
      const tile = p.terminal ? undefined : await this.tile(p.uid, sharedEntry(device), 1);
      this.service.notify({ uids: [p.uid] }, 'notice_share_video_in_video_conf', {
        ...notice,
        ...(tile ? { tile } : {}),
      });
    }
    const tile = login.user_type === UserType.CONSOLE ? await this.tile(login.uid, sharedEntry(device), 1) : undefined;
    return { ...notice, ...(tile ? { tile } : {}) };
  }

  /** req_stop_share_video_in_video_conf: the shared video leaves the conference. */
  async stopShare(login: Login, tgid: number, device: DirectoryEntry): Promise<ShareConfNotice> {
    const vsid = String(device.uid);
    const out = await this.store.update(tgid, (current) => {
      if (!current?.participants.some((p) => p.uid === login.uid)) return { next: current, refused: 'member' as const };
      if (current.vsid !== vsid) return { next: current, refused: 'shared' as const };
      return { next: { ...current, vsid: null }, refused: null };
    });
    if (out.refused === 'member') throw ConsoleErrors.notFound('console.conference.notParticipant', { tgid });
    if (out.refused === 'shared') throw ConsoleErrors.notFound('console.conference.notShared', { vsid: device.ext_id });
    const state = out.next!;
    this.service.deps.bus.emit('conference.state', { tgid, state });
    return this.unshared(state, vsid, login.uid);
  }

  /** Tell every participant a shared video left, and release it for the consoles that did not have it as a member. */
  private async unshared(state: ConferenceState, vsid: string, by: number): Promise<ShareConfNotice> {
    const notice: ShareConfNotice = {
      tgid: state.tgid,
      demander: state.demander,
      extdemander: state.extdemander,
      vsid,
      by,
    };
    this.service.notify(
      { uids: state.participants.map((p) => p.uid) },
      'notice_stop_share_video_in_video_conf',
      notice,
    );
    const deviceId = Number(vsid);
    if (!state.participants.some((p) => p.uid === deviceId))
      for (const p of state.participants) if (!p.terminal) await this.releaseTiles(p.uid, [deviceId]);
    return notice;
  }

  /** A connection's login was unbound: unless the user is back within the grace, it leaves. */
  private disconnected(uid: number): void {
    if (![...this.known.values()].some((state) => state.participants.some((p) => p.uid === uid))) return;
    const timer = setTimeout(() => {
      this.graces.delete(timer);
      if (!this.service.online(uid)) this.gone(uid);
    }, this.leaveGraceMs);
    timer.unref();
    this.graces.add(timer);
  }

  private gone(uid: number): void {
    const { log } = this.service.deps;
    for (const [tgid, state] of this.known) {
      if (state.demander === uid)
        this.end(tgid, 'demander_left', uid).catch((err) => log.error({ err, tgid }, 'conference: end on leave'));
      else if (state.participants.some((p) => p.uid === uid))
        this.leave(tgid, uid).catch((err) => log.error({ err, tgid }, 'conference: leave'));
    }
  }

  /** `login` is bound: it joins each conference of a group it is a member of or attached to. */
  private async loggedOn(login: Login): Promise<void> {
    const { db } = this.service.deps;
    for (const [tgid, state] of this.known) {
      const already = state.participants.find((p) => p.uid === login.uid);
      // back within the grace (a reconnect, a reload): the new connection learns it takes part
      if (already) await this.tellStarted(already, state, 'started', login.uid);
      if (already) continue;
      const party = [...(await memberIds(db, tgid)), ...(await attachedUids(db, tgid))];
      if (party.includes(login.uid)) await this.join(tgid, login);
    }
  }

  private async join(tgid: number, login: Login): Promise<void> {
    const joining: ConfParticipant = {
      uid: login.uid,
      ext_id: login.ext_id,
      name: login.display_name,
      terminal: login.user_type === UserType.TERMINAL ? 1 : 0,
    };
    const out = await this.store.update(tgid, (current) => {
      if (!current || current.participants.some((p) => p.uid === login.uid)) return { next: current, joined: false };
      return { next: { ...current, participants: [...current.participants, joining] }, joined: true };
    });
    if (!out.joined || !out.next) return;
    const state = out.next;
    this.service.deps.bus.emit('conference.state', { tgid, state });
    for (const p of state.participants)
      await this.tellStarted(p, state, p.uid === login.uid ? 'started' : 'joined', login.uid);
  }

  /** A participant's connection closed: the others are told (notice_start_video_conf, event `left`). */
  private async leave(tgid: number, uid: number): Promise<void> {
    const out = await this.store.update(tgid, (current) => {
      // back already (it reconnected while this was on its way): it stays
      if (!current?.participants.some((p) => p.uid === uid) || this.service.online(uid))
        return { next: current, left: false };
      return { next: { ...current, participants: current.participants.filter((p) => p.uid !== uid) }, left: true };
    });
    if (!out.left || !out.next) return;
    const state = out.next;
    this.service.deps.bus.emit('conference.state', { tgid, state });
    if (isConsoleUid(uid)) await this.releaseTiles(uid, this.devicesOf(state));
    for (const p of state.participants) await this.tellStarted(p, state, 'left', uid);
  }

  /** notice_start_video_conf to one participant: a console with its own tiles. */
  private async tellStarted(p: ConfParticipant, state: ConferenceState, event: StartConfNotice['event'], uid?: number) {
    const tiles = p.terminal ? undefined : await this.tilesFor(p.uid, state);
    this.service.notify({ uids: [p.uid] }, 'notice_start_video_conf', {
      ...publicView(state),
      ...(tiles ? { tiles } : {}),
      event,
      ...(uid !== undefined ? { uid } : {}),
    });
  }

  /** The devices whose video is in the conference: its terminals, and the shared one. */
  private devicesOf(state: ConferenceState): number[] {
    const ids = state.participants.filter((p) => p.terminal).map((p) => p.uid);
    if (state.vsid && !ids.includes(Number(state.vsid))) ids.push(Number(state.vsid));
    return ids;
  }

  /** The tiles of console `uid`: each terminal participant (the shared one marked). */
  private async tilesFor(uid: number, state: ConferenceState): Promise<ConfTile[]> {
    const tiles: ConfTile[] = [];
    for (const p of state.participants.filter((q) => q.terminal))
      tiles.push(await this.tile(uid, p, state.vsid === String(p.uid) ? 1 : 0));
    return tiles;
  }

  /** One tile of console `uid`: signed play paths of the device, the device told to publish if it does not. */
  private async tile(
    uid: number,
    p: Pick<ConfParticipant, 'uid' | 'ext_id' | 'name'>,
    shared: 0 | 1,
  ): Promise<ConfTile> {
    const base = { uid: p.uid, ext_id: p.ext_id, name: p.name, shared };
    const { live, db } = this.service.deps;
    if (!live) return { ...base, error: 'gateway' };
    const device = await findDevice(db, p.uid);
    if (!device) return { ...base, error: 'offline' };
    try {
      return { ...base, play: await live.request(userIdOfConsoleUid(uid), device) };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return { ...base, error: err.key === 'errors.media.gatewayOff' ? 'gateway' : 'offline' };
    }
  }

  /** Console `uid` no longer watches these devices in the conference (the live service stops those nobody watches). */
  private async releaseTiles(uid: number, deviceIds: number[]): Promise<void> {
    const live = this.service.deps.live;
    if (!live || !isConsoleUid(uid)) return;
    for (const id of deviceIds)
      await live.release(userIdOfConsoleUid(uid), id).catch((err: unknown) => {
        this.service.deps.log.error({ err, device: id }, 'conference: live release');
      });
  }

  /** Stop: leaves waiting for their grace are dropped. */
  close(): void {
    for (const timer of this.graces) clearTimeout(timer);
    this.graces.clear();
  }

  // ---- audio

  /** A conference frame from a connection: relayed to every other participant when its sender takes part. */
  audio(conn: Connection, data: Buffer): void {
    const login = conn.login;
    const frame = login ? decodeAudioFrame(data, AudioKind.CONFERENCE) : null;
    const state = frame ? this.known.get(frame.tgid) : undefined;
    if (!login || !frame || !state?.participants.some((p) => p.uid === login.uid)) {
      this.stats.dropped += 1;
      return;
    }
    this.stats.received += 1;
    data.writeUInt32BE(login.uid, 6);
    this.relayLocal(frame.tgid, data);
    const { cluster, bus } = this.service.deps;
    if (
      cluster.distributed &&
      state.participants.some((p) => !this.service.connectionOf(p.uid) && this.service.online(p.uid))
    )
      bus.emit('conference.audio', { tgid: frame.tgid, frame: data.toString('base64') });
  }

  /** Send a frame to this node's participants of the conference, except its sender. */
  private relayLocal(tgid: number, frame: Buffer): void {
    const sender = frame.readUInt32BE(6);
    for (const p of this.known.get(tgid)?.participants ?? []) {
      if (p.uid === sender) continue;
      if (this.service.connectionOf(p.uid)?.sendBinary(frame)) this.stats.delivered += 1;
    }
  }
}

const sharedEntry = (e: DirectoryEntry) => ({ uid: e.uid, ext_id: e.ext_id, name: e.display_name });

/** The conference service of a handler's console service (registered by console.module.ts). */
export function conferenceOf(service: ConsoleService): ConferenceService {
  if (!service.conference) throw ConsoleErrors.server('conference');
  return service.conference;
}
