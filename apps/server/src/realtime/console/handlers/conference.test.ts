import {
  AudioKind,
  CmdStatus,
  CONFERENCE_LEAVE_GRACE_MS,
  decodeAudioFrame,
  encodeAudioFrame,
  MenuId,
} from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../../test/api';
import type { ConsoleClient, Message } from '../../../../test/console-client';
import { consoleUrl, logonConsole, logonTerminal, type LoggedOn } from '../../../../test/console-fixtures';
import { addDevice, deviceLogin, unitIdOf, type CreatedDevice } from '../../../../test/devices';
import { createRole, createTestApp, createUser, DEMO, login, type TestApp } from '../../../../test/helpers';
import { freePort, until } from '../../../../test/wait';

/**
 * Video conferences over real websockets: start (one per group, by a console that sees the group),
 * the participants told with their tiles' signed live paths, the terminals told to publish; the
 * audio relayed from every participant to every other and to nobody else; share and stop-share of
 * a device's video; stop by the demander or a console with edit; a participant leaving, the
 * demander leaving; bad input answered and nothing changed.
 */
let t: TestApp;
let url: string;
let desk: LoggedOn;
let mate: LoggedOn;
let boss: LoggedOn;
let luohuDesk: LoggedOn;
let devA: CreatedDevice;
let devB: CreatedDevice;
let devC: CreatedDevice;
let camA: LoggedOn;
let camB: LoggedOn;
let camC: LoggedOn;
let tgid: number;
const clients: ConsoleClient[] = [];

const packet = (i: number) => Uint8Array.from([0xfc, i & 0xff, 0x55, 0xaa, 0x01]);
const frame = (kind: number, group: number, i: number) =>
  encodeAudioFrame({ kind, flags: 0, tgid: group, uid: 0, seq: i, clock: i * 20, opus: packet(i) });
const conferenceAudio = (who: LoggedOn) =>
  who.client.ws.audio.map((a) => decodeAudioFrame(a.data, AudioKind.CONFERENCE)).filter((f) => f !== null);
const conferenceOf = () => t.app.consoleService.conference!.of(tgid);
const commandsOf = (deviceId: number) =>
  t.db.selectFrom('device_commands').select('type').where('device_id', '=', deviceId).orderBy('id').execute();
const started = (who: LoggedOn, test: (m: Message) => boolean = () => true) =>
  who.client.notice('notice_start_video_conf', (m) => m.tgid === tgid && test(m));

async function online(device: CreatedDevice): Promise<void> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/rest/device/api/status',
    headers: await deviceLogin(t.app, device),
    payload: { state: 'online' },
  });
  expect(res.json()).toMatchObject({ code: 200 });
}

beforeAll(async () => {
  // the media gateway listens (a free RTMP port): the tiles get live paths
  t = await createTestApp({ rtmpPort: await freePort() });
  url = consoleUrl(await t.app.listen({ port: 0, host: '127.0.0.1' }));
  const admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  const viewer = await createRole(t.db, 'conference viewer', [{ ids: [MenuId.EMERGENCY], actions: ['view'] }]);
  const editor = await createRole(t.db, 'conference editor', [{ ids: [MenuId.EMERGENCY], actions: ['view', 'edit'] }]);
  const logon = async (role: number, unit: string) => {
    const u = await createUser(t.db, { roleId: role, unitBh: unit });
    const l = await logonConsole(t.app, url, await login(t.app, u.username, u.password));
    clients.push(l.client);
    return l;
  };
  desk = await logon(viewer, '440304000000');
  mate = await logon(viewer, '440304000000');
  boss = await logon(editor, '440304000000');
  luohuDesk = await logon(viewer, '440303000000');
  const futian = await unitIdOf(t.db, '440304000000');
  devA = await addDevice(t.app, admin, futian, { jq_hostcode: '580001' });
  devB = await addDevice(t.app, admin, futian, { jq_hostcode: '580002' });
  devC = await addDevice(t.app, admin, futian, { jq_hostcode: '580003' });
  for (const d of [devA, devB, devC]) await online(d);
  camA = await logonTerminal(url, devA);
  camB = await logonTerminal(url, devB);
  camC = await logonTerminal(url, devC);
  clients.push(camA.client, camB.client, camC.client);
  const group = await api<{ groupid: number }>(t.app, 'groupAdd', admin, {
    channel_name: '会议组',
    cate: '1',
    device: ['580001', '580002'],
    bh: '440304000000',
  });
  tgid = group.data.groupid;
  // a second dispatcher listens to the group: it takes part
  expect(await mate.client.request('req_enter_group', { tgid })).toMatchObject({ cmd_status: 0 });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await t.close();
});

describe('bad input changes nothing', () => {
  it('answers each with its reason and the connection goes on', async () => {
    const noGroup = await desk.client.request('req_start_video_conf', {});
    expect(noGroup).toMatchObject({ cmd_status: CmdStatus.BAD_PAYLOAD });
    expect(String(noGroup.error_reason)).toContain('tgid');
    expect(await desk.client.request('req_share_video_in_video_conf', { tgid, vsid: '' })).toMatchObject({
      cmd_status: CmdStatus.BAD_PAYLOAD,
    });
    // a terminal does not start one; a console that does not see the group learns nothing of it
    expect(await camA.client.request('req_start_video_conf', { tgid })).toMatchObject({
      cmd_status: CmdStatus.WRONG_CLIENT,
    });
    expect(await luohuDesk.client.request('req_start_video_conf', { tgid })).toMatchObject({
      cmd_status: CmdStatus.NOT_FOUND,
    });
    const none = await desk.client.request('req_stop_video_conf', { tgid });
    expect(none).toMatchObject({ cmd_status: CmdStatus.NOT_FOUND });
    expect(String(none.error_reason)).toContain('没有视频会议');
    expect(await desk.client.request('req_share_video_in_video_conf', { tgid, vsid: '580003' })).toMatchObject({
      cmd_status: CmdStatus.NOT_FOUND,
    });
    expect(conferenceOf()).toBeUndefined();
    expect(await commandsOf(devA.id)).toEqual([]);
    expect(await desk.client.request('heartbeat')).toMatchObject({ cmd_status: 0 });
  });
});

describe('a conference', () => {
  it('starts: the demander gets a live tile of each member terminal, the terminals are told to publish', async () => {
    const rsp = await desk.client.request('req_start_video_conf', { tgid, demander: desk.uid });
    expect(rsp).toMatchObject({ cmd_status: 0, tgid, tg_name: '会议组', demander: desk.uid, vsid: null });
    expect((rsp.participants as { uid: number }[]).map((p) => p.uid).sort((x, y) => x - y)).toEqual(
      [desk.uid, mate.uid, devA.id, devB.id].sort((x, y) => x - y),
    );
    const tiles = rsp.tiles as { uid: number; shared: number; play?: { ws: string } }[];
    expect(tiles.map((x) => x.uid).sort()).toEqual([devA.id, devB.id].sort());
    for (const tile of tiles) expect(tile.play?.ws).toMatch(/^\/live\/\d+\.flv\?token=/);
    expect(await commandsOf(devA.id)).toEqual([{ type: 'startlive' }]);
    expect(await commandsOf(devB.id)).toEqual([{ type: 'startlive' }]);
    expect(await commandsOf(devC.id)).toEqual([]);
  });

  it('tells every other participant: a console with its own tiles, a terminal without', async () => {
    const m = await started(mate);
    expect(m).toMatchObject({ event: 'started', demander: desk.uid, extdemander: desk.rsp.ext_id });
    expect((m.tiles as unknown[]).length).toBe(2);
    for (const cam of [camA, camB]) {
      const n = await started(cam);
      expect(n).toMatchObject({ event: 'started', demander: desk.uid });
      expect(n.tiles).toBeUndefined();
    }
    expect(desk.client.notices('notice_start_video_conf')).toEqual([]);
    expect(camC.client.notices('notice_start_video_conf')).toEqual([]);
  });

  it('is one per group', async () => {
    const again = await mate.client.request('req_start_video_conf', { tgid });
    expect(again).toMatchObject({ cmd_status: CmdStatus.CONFLICT });
    expect(String(again.error_reason)).toContain('会议组');
    expect(conferenceOf()?.demander).toBe(desk.uid);
  });

  it("relays every participant's audio to every other participant, stamped with the sender, and to nobody else", async () => {
    for (let i = 0; i < 5; i += 1) camA.client.ws.sendBinary(frame(AudioKind.CONFERENCE, tgid, i));
    for (let i = 0; i < 5; i += 1) desk.client.ws.sendBinary(frame(AudioKind.CONFERENCE, tgid, 100 + i));
    // full duplex: both at once, no floor
    for (const who of [mate, camB]) await until('both talkers heard', () => conferenceAudio(who).length === 10);
    await until('the desk hears camera A', () => conferenceAudio(desk).length === 5);
    await until('camera A hears the desk', () => conferenceAudio(camA).length === 5);
    expect(conferenceAudio(desk).every((f) => f.uid === devA.id)).toBe(true);
    expect(conferenceAudio(camA).map((f) => [f.uid, f.seq])).toEqual([0, 1, 2, 3, 4].map((i) => [desk.uid, 100 + i]));
    // not a participant: its frames go nowhere, and it hears nothing
    const dropped = t.app.consoleService.conference!.stats.dropped;
    camC.client.ws.sendBinary(frame(AudioKind.CONFERENCE, tgid, 200));
    await until('the outsider frame dropped', () => t.app.consoleService.conference!.stats.dropped === dropped + 1);
    for (const who of [camC, luohuDesk, boss]) expect(who.client.ws.audio).toEqual([]);
    expect(conferenceAudio(mate)).toHaveLength(10);
  });

  it("shares a device's video: everyone told, the consoles get its tile; stop-share takes it away", async () => {
    const rsp = await mate.client.request('req_share_video_in_video_conf', { tgid, vsid: '580003' });
    expect(rsp).toMatchObject({ cmd_status: 0, vsid: String(devC.id), by: mate.uid });
    expect(rsp.tile).toMatchObject({ uid: devC.id, shared: 1, play: { device_id: devC.id } });
    const toDesk = await desk.client.notice('notice_share_video_in_video_conf', (m) => m.tgid === tgid);
    expect(toDesk).toMatchObject({ vsid: String(devC.id), tile: { uid: devC.id, shared: 1 } });
    const toCam = await camA.client.notice('notice_share_video_in_video_conf', (m) => m.tgid === tgid);
    expect(toCam.tile).toBeUndefined();
    expect(await commandsOf(devC.id)).toEqual([{ type: 'startlive' }]);
    expect(conferenceOf()?.vsid).toBe(String(devC.id));
    expect(await desk.client.request('req_share_video_in_video_conf', { tgid, vsid: devC.id })).toMatchObject({
      cmd_status: CmdStatus.CONFLICT,
    });
    // a terminal participant stops the share, naming the device by uid
    expect(
      await camA.client.request('req_stop_share_video_in_video_conf', { tgid, vsid: String(devC.id) }),
    ).toMatchObject({ cmd_status: 0, vsid: String(devC.id), by: devA.id });
    for (const who of [desk, mate, camB])
      expect(await who.client.notice('notice_stop_share_video_in_video_conf', (m) => m.tgid === tgid)).toMatchObject({
        vsid: String(devC.id),
      });
    const again = await camA.client.request('req_stop_share_video_in_video_conf', { tgid, vsid: '580003' });
    expect(again).toMatchObject({ cmd_status: CmdStatus.NOT_FOUND });
    expect(String(again.error_reason)).toContain('580003');
    // somebody outside the conference shares nothing
    expect(await boss.client.request('req_share_video_in_video_conf', { tgid, vsid: '580001' })).toMatchObject({
      cmd_status: CmdStatus.NOT_FOUND,
    });
    expect(conferenceOf()?.vsid).toBeNull();
  });

  it('a participant back within the grace stays in: its new connection is told, nobody hears it left', async () => {
    const closedAt = Date.now();
    camA.client.close();
    camA = await logonTerminal(url, devA);
    clients.push(camA.client);
    expect(await started(camA)).toMatchObject({ event: 'started', uid: devA.id });
    camA.client.ws.sendBinary(frame(AudioKind.CONFERENCE, tgid, 500));
    await until('the desk hears the new connection', () => conferenceAudio(desk).at(-1)?.seq === 500);
    await until('the grace is over', () => Date.now() > closedAt + CONFERENCE_LEAVE_GRACE_MS + 200);
    expect(conferenceOf()?.participants.map((p) => p.uid)).toContain(devA.id);
    expect(desk.client.notices('notice_start_video_conf').filter((m) => m.event === 'left')).toEqual([]);
  });

  it('a participant disconnecting leaves it: the others are told and hear it no more', async () => {
    camB.client.close();
    for (const who of [desk, mate, camA]) {
      const left = await started(who, (m) => m.event === 'left');
      expect(left).toMatchObject({ uid: devB.id });
      expect((left.participants as { uid: number }[]).map((p) => p.uid)).not.toContain(devB.id);
    }
  });

  it('a member logging on again joins it: it is told, the others too, and its audio is relayed', async () => {
    camB = await logonTerminal(url, devB);
    clients.push(camB.client);
    const mine = await started(camB);
    expect(mine).toMatchObject({ event: 'started', uid: devB.id, demander: desk.uid });
    const toDesk = await started(desk, (m) => m.event === 'joined');
    expect(toDesk).toMatchObject({ uid: devB.id });
    expect((toDesk.tiles as { uid: number }[]).map((x) => x.uid)).toContain(devB.id);
    const before = conferenceAudio(desk).length;
    camB.client.ws.sendBinary(frame(AudioKind.CONFERENCE, tgid, 400));
    await until('the desk hears camera B again', () => conferenceAudio(desk).length === before + 1);
    expect(conferenceAudio(desk).at(-1)?.uid).toBe(devB.id);
  });

  it('stops by the demander or a console with edit, not by another viewer; all are told', async () => {
    const refused = await mate.client.request('req_stop_video_conf', { tgid });
    expect(refused).toMatchObject({ cmd_status: CmdStatus.FORBIDDEN });
    expect(conferenceOf()).toBeDefined();
    const rsp = await boss.client.request('req_stop_video_conf', { tgid });
    expect(rsp).toMatchObject({ cmd_status: 0, tgid, reason: 'stopped', by: boss.uid, demander: desk.uid });
    for (const who of [desk, mate, camA, camB])
      expect(await who.client.notice('notice_stop_video_conf', (m) => m.tgid === tgid)).toMatchObject({
        reason: 'stopped',
        by: boss.uid,
      });
    expect(conferenceOf()).toBeUndefined();
    // no relay any more
    const before = conferenceAudio(mate).length;
    const dropped = t.app.consoleService.conference!.stats.dropped;
    camA.client.ws.sendBinary(frame(AudioKind.CONFERENCE, tgid, 300));
    await until(
      'the frame after the end dropped',
      () => t.app.consoleService.conference!.stats.dropped === dropped + 1,
    );
    expect(conferenceAudio(mate)).toHaveLength(before);
  });

  it('ends for all when the demander disconnects', async () => {
    const rsp = await mate.client.request('req_start_video_conf', { tgid });
    expect(rsp).toMatchObject({ cmd_status: 0, demander: mate.uid });
    await started(camA, (m) => m.event === 'started' && m.demander === mate.uid);
    mate.client.close();
    expect(
      await camA.client.notice('notice_stop_video_conf', (m) => m.tgid === tgid && m.reason === 'demander_left'),
    ).toMatchObject({ by: mate.uid, demander: mate.uid });
    await until('the conference is gone', () => conferenceOf() === undefined);
  });
});
