import type { ConfTile, StartConfNotice } from '@bwc/protocol';
import { describe, expect, it, vi } from 'vitest';
import { FakeSocket } from '../../realtime/sdk/fakeSocket';
import { SdkLogger } from '../../realtime/sdk/log';
import { RealtimeSdk } from '../../realtime/sdk/RealtimeSdk';
import { ConferenceSession, viewOf, withoutShare, withShare } from './conferenceSession';

const TGID = 8;
const DESK = 100_000_001;

const play = (id: number) => ({
  device_id: id,
  imei: `imei${id}`,
  hostbody: `hb${id}`,
  hostname: `Cam ${id}`,
  state: 'live' as const,
  flv: `/live/${id}.flv?token=t`,
  ws: `/live/${id}.flv?token=t`,
  expires: Date.now() + 60_000,
});
const tile = (uid: number, extra: Partial<ConfTile> = {}): ConfTile => ({
  uid,
  ext_id: `58000${uid}`,
  name: `Cam ${uid}`,
  shared: 0,
  play: play(uid),
  ...extra,
});
const participant = (uid: number, terminal: 0 | 1) => ({ uid, ext_id: `e${uid}`, name: `P${uid}`, terminal });

function started(extra: Partial<StartConfNotice> = {}): StartConfNotice {
  return {
    tgid: TGID,
    tg_name: 'Patrol A',
    demander: DESK,
    extdemander: 'itrunk_desk',
    participants: [participant(DESK, 0), participant(1, 1), participant(2, 1)],
    vsid: null,
    started: 1_000,
    tiles: [tile(1), tile(2, { play: undefined, error: 'offline' })],
    event: 'started',
    ...extra,
  };
}

describe('conference view', () => {
  it('has a tile per member terminal, the shared one marked; an answer again keeps the tiles that play', () => {
    const view = viewOf(started({ vsid: '1' }));
    expect(view.tiles.map((t) => [t.uid, t.shared, t.error ?? 'plays'])).toEqual([
      [1, true, 'plays'],
      [2, false, 'offline'],
    ]);
    const again = viewOf(started({ vsid: '1', tiles: [tile(1), tile(2)] }), view);
    expect(again.tiles[0]).toBe(view.tiles[0]);
    // the tile that could not play takes the new paths
    expect(again.tiles[1]!.play?.device_id).toBe(2);
  });

  it('a participant leaving takes its tile with it; a notice without tiles keeps the others', () => {
    const view = viewOf(started());
    const left = viewOf(
      { ...started(), participants: [participant(DESK, 0), participant(1, 1)], tiles: undefined },
      view,
    );
    expect(left.tiles.map((t) => t.uid)).toEqual([1]);
    expect(left.tiles[0]).toBe(view.tiles[0]);
  });

  it('a shared device outside the group gets a tile that goes again with the stop-share', () => {
    const view = viewOf(started());
    const shared = withShare(view, { tgid: TGID, demander: DESK, extdemander: 'x', vsid: '9', by: 1, tile: tile(9) });
    expect(shared.vsid).toBe('9');
    expect(shared.tiles.map((t) => [t.uid, t.shared])).toEqual([
      [1, false],
      [2, false],
      [9, true],
    ]);
    const member = withShare(shared, { tgid: TGID, demander: DESK, extdemander: 'x', vsid: '1', by: 1 });
    expect(member.tiles.filter((t) => t.shared).map((t) => t.uid)).toEqual([1]);
    const stopped = withoutShare(member, { vsid: '1' });
    expect(stopped.vsid).toBeNull();
    expect(stopped.tiles.every((t) => !t.shared)).toBe(true);
    // a member's tile stays, an outsider's goes
    expect(withoutShare(shared, { vsid: '9' }).tiles.map((t) => t.uid)).toEqual([1, 2]);
  });
});

describe('conference session over the SDK', () => {
  function connected() {
    const sockets: FakeSocket[] = [];
    const logger = new SdkLogger({
      sink: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
      document: null,
    });
    const warn = vi.spyOn(logger, 'warn');
    const sdk = new RealtimeSdk({
      createSocket: (url) => {
        const socket = new FakeSocket(url);
        sockets.push(socket);
        return socket;
      },
      logger,
      location: { protocol: 'http:', host: 'console.test:8080', hostname: 'console.test' },
      now: () => 1_700_000_000_000,
      watchConnectivity: () => () => undefined,
    });
    sdk.init({ ip: 'svc', port: 9080, connect: true });
    const socket = sockets[sockets.length - 1]!;
    socket.open();
    return { sdk, socket, warn };
  }

  it("follows its group's notices only, and ignores the console's own share response without a cbid", () => {
    const { sdk, socket, warn } = connected();
    const session = new ConferenceSession(sdk, TGID);
    session.open();
    session.join(started());
    const states: unknown[] = [];
    session.subscribe(() => states.push(session.getState()));

    const share = { tgid: TGID, demander: DESK, extdemander: 'x', vsid: '2', by: DESK };
    // the spec: a self response to share_video_in_video_conf without a cbid is ignored
    socket.receive({
      msg_code: 'rsp_share_video_in_video_conf',
      cmd_type: 1,
      cmd_status: 0,
      error_reason: '',
      ...share,
    });
    expect(states).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
    // another group's notice changes nothing
    socket.receive({ msg_code: 'notice_share_video_in_video_conf', cmd_type: 2, ...share, tgid: TGID + 1 });
    expect(states).toEqual([]);

    socket.receive({ msg_code: 'notice_share_video_in_video_conf', cmd_type: 2, ...share });
    expect(session.getState().view?.vsid).toBe('2');
    expect(session.getState().view?.tiles.find((t) => t.shared)?.uid).toBe(2);
    socket.receive({ msg_code: 'notice_stop_share_video_in_video_conf', cmd_type: 2, ...share });
    expect(session.getState().view?.vsid).toBeNull();

    socket.receive({
      msg_code: 'notice_stop_video_conf',
      cmd_type: 2,
      tgid: TGID,
      demander: DESK,
      extdemander: 'x',
      reason: 'demander_left',
      by: DESK,
    });
    expect(session.getState()).toEqual({ view: null, ended: { reason: 'demander_left', by: DESK } });
    session.close();
    socket.receive({ msg_code: 'notice_start_video_conf', cmd_type: 2, ...started() });
    expect(session.getState().view).toBeNull();
  });
});
