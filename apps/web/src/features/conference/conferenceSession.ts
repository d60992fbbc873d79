import type {
  ConfEndReason,
  ConfParticipant,
  ConfTile,
  ConferenceAnswer,
  ShareConfNotice,
  StartConfNotice,
  StopConfNotice,
} from '@bwc/protocol';
import type { RealtimeSdk } from '../../realtime/sdk/RealtimeSdk';

/** What a conference needs of the console-service connection. */
export type ConferenceSdk = Pick<RealtimeSdk, 'on' | 'request'>;

/** A tile as the panel shows it: the device, its play paths for this console, shared or not. */
export interface ConferenceTile extends Omit<ConfTile, 'shared'> {
  shared: boolean;
}

/** A conference as this console knows it. */
export interface ConferenceView {
  tgid: number;
  tg_name: string;
  demander: number;
  participants: ConfParticipant[];
  /** the shared device's uid; null while nothing is shared */
  vsid: string | null;
  tiles: ConferenceTile[];
}

export interface ConferenceState {
  view: ConferenceView | null;
  /** the conference ended (stopped, its demander left, its group deleted) */
  ended: { reason: ConfEndReason; by: number } | null;
}

const isShared = (vsid: string | null, uid: number) => vsid !== null && vsid === String(uid);

/** The tiles of an answer or notice, keeping the tile objects this console already has (its players stay). */
function mergeTiles(previous: ConferenceTile[], incoming: ConfTile[], vsid: string | null): ConferenceTile[] {
  return incoming.map((tile) => {
    // a tile that plays keeps its player; one that could not play takes the new answer
    const known = previous.find((p) => p.uid === tile.uid && (p.play !== undefined || tile.play === undefined));
    const shared = tile.shared === 1 || isShared(vsid, tile.uid);
    if (known) return known.shared === shared ? known : { ...known, shared };
    return { ...tile, shared };
  });
}

/** The conference of an answer of req_start_video_conf or a notice_start_video_conf. */
export function viewOf(answer: ConferenceAnswer, previous: ConferenceView | null = null): ConferenceView {
  const tiles = answer.tiles
    ? mergeTiles(previous?.tiles ?? [], answer.tiles, answer.vsid)
    : (previous?.tiles ?? []).filter((t) => answer.participants.some((p) => p.uid === t.uid));
  // a shared device outside the group keeps its tile
  const shared = previous?.tiles.find((t) => isShared(answer.vsid, t.uid) && !tiles.some((x) => x.uid === t.uid));
  return {
    tgid: answer.tgid,
    tg_name: answer.tg_name,
    demander: answer.demander,
    participants: answer.participants,
    vsid: answer.vsid,
    tiles: shared ? [...tiles, shared] : tiles,
  };
}

/** A device's video was shared: its tile marked (and added when it was not there). */
export function withShare(view: ConferenceView, notice: ShareConfNotice): ConferenceView {
  const uid = Number(notice.vsid);
  let tiles = view.tiles.map((t) => (t.shared === (t.uid === uid) ? t : { ...t, shared: t.uid === uid }));
  if (!tiles.some((t) => t.uid === uid) && notice.tile) tiles = [...tiles, { ...notice.tile, shared: true }];
  return { ...view, vsid: notice.vsid, tiles };
}

/** The shared video left: its mark goes, and its tile too when the device is no participant. */
export function withoutShare(view: ConferenceView, notice: Pick<ShareConfNotice, 'vsid'>): ConferenceView {
  const uid = Number(notice.vsid);
  const member = view.participants.some((p) => p.uid === uid);
  const tiles = view.tiles
    .filter((t) => t.uid !== uid || member)
    .map((t) => (t.uid === uid && t.shared ? { ...t, shared: false } : t));
  return { ...view, vsid: view.vsid === notice.vsid ? null : view.vsid, tiles };
}

/**
 * One group's conference on this console: started here (`start`) or joined from a notice
 * (`join`), then kept up to date by the conference notices of that group while open. The panel
 * reads it with useSyncExternalStore; every change is a new state object.
 */
export class ConferenceSession {
  private state: ConferenceState = { view: null, ended: null };
  private readonly listeners = new Set<() => void>();
  private offs: (() => void)[] = [];

  constructor(
    private readonly sdk: ConferenceSdk,
    readonly tgid: number,
  ) {}

  /** Listen to the group's conference notices (again after `close`: React may run an effect twice). */
  open(): void {
    if (this.offs.length) return;
    const { sdk, tgid } = this;
    const mine = (n: { tgid: number }) => n.tgid === tgid;
    this.offs = [
      sdk.on('notice_start_video_conf', (n) => {
        if (mine(n)) this.set({ view: viewOf(n as StartConfNotice, this.state.view), ended: null });
      }),
      sdk.on('notice_share_video_in_video_conf', (n) => {
        if (mine(n) && this.state.view) this.set({ ...this.state, view: withShare(this.state.view, n) });
      }),
      sdk.on('notice_stop_share_video_in_video_conf', (n) => {
        if (mine(n) && this.state.view) this.set({ ...this.state, view: withoutShare(this.state.view, n) });
      }),
      sdk.on('notice_stop_video_conf', (n) => {
        if (mine(n)) this.end(n);
      }),
    ];
  }

  getState = (): ConferenceState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(state: ConferenceState): void {
    this.state = state;
    for (const listener of [...this.listeners]) listener();
  }

  private end(notice: Pick<StopConfNotice, 'reason' | 'by'>): void {
    this.set({ view: null, ended: { reason: notice.reason, by: notice.by } });
  }

  /** Join a conference another console started (its notice). */
  join(notice: StartConfNotice): void {
    this.set({ view: viewOf(notice, this.state.view), ended: null });
  }

  /** req_start_video_conf; rejects with the server's reason (the panel shows it). */
  async start(): Promise<void> {
    const answer = await this.sdk.request('req_start_video_conf', { tgid: this.tgid });
    this.set({ view: viewOf(answer, this.state.view), ended: null });
  }

  async share(vsid: string): Promise<void> {
    const answer = await this.sdk.request('req_share_video_in_video_conf', { tgid: this.tgid, vsid });
    if (this.state.view) this.set({ ...this.state, view: withShare(this.state.view, answer) });
  }

  async stopShare(): Promise<void> {
    const vsid = this.state.view?.vsid;
    if (!vsid) return;
    const answer = await this.sdk.request('req_stop_share_video_in_video_conf', { tgid: this.tgid, vsid });
    if (this.state.view) this.set({ ...this.state, view: withoutShare(this.state.view, answer) });
  }

  async stop(): Promise<void> {
    const answer = await this.sdk.request('req_stop_video_conf', { tgid: this.tgid });
    this.end(answer);
  }

  close(): void {
    for (const off of this.offs) off();
    this.offs = [];
  }
}
