import {
  AudioKind,
  CmdStatus,
  decodeAudioFrame,
  encodeAudioFrame,
  MenuId,
  readOggOpusPackets,
  TalkPriority,
} from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../../test/api';
import type { ConsoleClient, Message } from '../../../../test/console-client';
import { consoleUrl, logonConsole, logonTerminal, type LoggedOn } from '../../../../test/console-fixtures';
import { addDevice, unitIdOf, type CreatedDevice } from '../../../../test/devices';
import {
  createRole,
  createTestApp,
  createUser,
  DEMO,
  login,
  type Session,
  type TestApp,
} from '../../../../test/helpers';
import { until } from '../../../../test/wait';

/**
 * Group talk end to end over real websockets: floor requests, queue, pre-emption, emergency,
 * dispatcher release, disconnect and leave; the floor holder's audio relayed to the listeners and
 * nobody else's; each burst recorded and replayed through a signed address.
 */
let t: TestApp;
let url: string;
let admin: Session;
let desk: LoggedOn;
let reader: LoggedOn;
let luohuDesk: LoggedOn;
let devA: CreatedDevice;
let devB: CreatedDevice;
let camA: LoggedOn;
let camB: LoggedOn;
let tgid: number;
const clients: ConsoleClient[] = [];

/** A recognisable Opus-sized packet: a TOC byte for 20 ms CELT frames, then the sequence number. */
const packet = (i: number) => Uint8Array.from([0xfc, i & 0xff, (i >> 8) & 0xff, 0x55, 0xaa, 0x01, 0x02, 0x03]);

function sendBurst(who: LoggedOn, group: number, count: number, from = 0): void {
  for (let i = from; i < from + count; i += 1)
    who.client.ws.sendBinary(
      encodeAudioFrame({
        kind: AudioKind.GROUP,
        flags: 0,
        tgid: group,
        uid: 0,
        seq: i,
        clock: i * 20,
        opus: packet(i),
      }),
    );
}

const audioOf = (who: LoggedOn) => who.client.ws.audio.map((a) => decodeAudioFrame(a.data)!);
const status = (who: LoggedOn, test: (m: Message) => boolean) =>
  who.client.notice('notice_ptt_status', (m) => m.tgid === tgid && test(m));
const talkerOf = (m: Message) => (m.talker as { uid: number } | null)?.uid;
const previousOf = (m: Message) => (m.previous as { uid: number } | null)?.uid;

beforeAll(async () => {
  t = await createTestApp();
  url = consoleUrl(await t.app.listen({ port: 0, host: '127.0.0.1' }));
  admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  const editor = await createRole(t.db, 'talk editor', [{ ids: [MenuId.EMERGENCY], actions: ['view', 'edit', 'add'] }]);
  const viewOnly = await createRole(t.db, 'talk reader', [{ ids: [MenuId.EMERGENCY], actions: ['view'] }]);
  const make = async (role: number, unit: string) => {
    const u = await createUser(t.db, { roleId: role, unitBh: unit });
    const l = await logonConsole(t.app, url, await login(t.app, u.username, u.password));
    clients.push(l.client);
    return l;
  };
  desk = await make(editor, '440304000000');
  reader = await make(viewOnly, '440304000000');
  luohuDesk = await make(editor, '440303000000');
  const futian = await unitIdOf(t.db, '440304000000');
  devA = await addDevice(t.app, admin, futian, { jq_hostcode: '230001' });
  devB = await addDevice(t.app, admin, futian, { jq_hostcode: '230002' });
  const fixed = await api<{ groupid: number }>(t.app, 'groupAdd', admin, {
    channel_name: '对讲一组',
    cate: '1',
    device: ['230001', '230002'],
    bh: '440304000000',
  });
  tgid = fixed.data.groupid;
  camA = await logonTerminal(url, devA);
  camB = await logonTerminal(url, devB);
  clients.push(camA.client, camB.client);
  for (const who of [desk, reader, camA, camB])
    expect(await who.client.request('req_enter_group', { tgid })).toMatchObject({ cmd_status: 0 });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await t.close();
});

describe('floor control', () => {
  it('grants a free floor and tells every member and attached console who talks', async () => {
    const rsp = await camA.client.request('req_ptt_on', { tgid });
    expect(rsp).toMatchObject({
      cmd_status: 0,
      result: 'granted',
      max_hold_s: 60,
      talker: { uid: devA.id, ext_id: '230001', priority: TalkPriority.TERMINAL, emergency: 0 },
    });
    for (const who of [desk, camB, camA]) {
      const n = await status(who, (m) => m.state === 1 && talkerOf(m) === devA.id);
      expect(n).toMatchObject({ previous: null, queue: [] });
    }
  });

  it("relays the talker's frames to every other listener, stamped with the talker, in order", async () => {
    sendBurst(camA, tgid, 50);
    await until('frames at camB and the desks', () =>
      [camB, desk, reader].every((w) => w.client.ws.audio.length >= 50),
    );
    const got = audioOf(camB);
    expect(got.map((f) => f.seq)).toEqual([...Array(50).keys()]);
    expect(got.every((f) => f.uid === devA.id && f.tgid === tgid)).toBe(true);
    expect([...got[7]!.opus]).toEqual([...packet(7)]);
    expect(camA.client.ws.audio).toHaveLength(0);
  });

  it('drops the frames of anyone without the floor and malformed frames', async () => {
    const before = [camA, desk].map((w) => w.client.ws.audio.length);
    sendBurst(camB, tgid, 10, 100);
    camB.client.ws.sendBinary(Uint8Array.from([1, 0, 0]));
    // the connection survives, and a request after the frames is answered after them
    expect(await camB.client.request('heartbeat')).toMatchObject({ cmd_status: 0 });
    sendBurst(camA, tgid, 1, 50);
    await until('camA frame 50 at the desk', () => audioOf(desk).some((f) => f.seq === 50));
    expect(camA.client.ws.audio.length).toBe(before[0]);
    expect(audioOf(desk).filter((f) => f.uid === devB.id)).toHaveLength(0);
    expect(t.app.consoleService.talk!.stats.dropped).toBeGreaterThanOrEqual(11);
  });

  it('tells who talks to a console that enters while somebody does, and relays to it at once', async () => {
    expect(await reader.client.request('req_leave_group', { tgid })).toMatchObject({ cmd_status: 0 });
    const mark = reader.client.ws.messages.length;
    const heardBefore = reader.client.ws.audio.length;
    expect(await reader.client.request('req_enter_group', { tgid })).toMatchObject({ cmd_status: 0 });
    const told = await status(
      reader,
      (m) => reader.client.ws.messages.indexOf(m) >= mark && m.state === 1 && talkerOf(m) === devA.id,
    );
    expect(told).toMatchObject({ previous: null });
    // the same burst goes on (frames 51 to 55)
    sendBurst(camA, tgid, 5, 51);
    await until('the returning console hears the talker', () =>
      audioOf(reader)
        .slice(heardBefore)
        .some((f) => f.seq === 55),
    );
  });

  it('queues an equal priority, tells it its place, hands over when the talker lets go', async () => {
    const rsp = await camB.client.request('req_ptt_on', { tgid });
    expect(rsp).toMatchObject({ cmd_status: 0, result: 'queued', position: 1, talker: { uid: devA.id } });
    expect(await status(camB, (m) => m.result === 'queued')).toMatchObject({ queue: [devB.id] });
    expect(await camA.client.request('req_ptt_off', { tgid })).toMatchObject({ cmd_status: 0, released: 1 });
    const n = await status(desk, (m) => talkerOf(m) === devB.id);
    expect(n).toMatchObject({ state: 1, reason: 'released', previous: { uid: devA.id }, queue: [] });
  });

  it('a dispatcher pre-empts a terminal, an emergency talker pre-empts the dispatcher', async () => {
    expect(await desk.client.request('req_ptt_on', { tgid })).toMatchObject({
      result: 'granted',
      talker: { uid: desk.uid, priority: TalkPriority.CONSOLE },
    });
    expect(await status(camB, (m) => talkerOf(m) === desk.uid)).toMatchObject({
      reason: 'preempted',
      previous: { uid: devB.id },
    });
    expect(await camA.client.request('req_ptt_on', { tgid, emergency: 1 })).toMatchObject({
      result: 'granted',
      talker: { uid: devA.id, emergency: 1, priority: TalkPriority.EMERGENCY },
    });
    expect(await status(desk, (m) => talkerOf(m) === devA.id && previousOf(m) === desk.uid)).toMatchObject({
      reason: 'preempted',
    });
    sendBurst(camA, tgid, 5, 200);
    await until('emergency frames', () => audioOf(camB).filter((f) => f.seq >= 200).length === 5);
    expect(
      audioOf(camB)
        .filter((f) => f.seq >= 200)
        .every((f) => f.flags === 1),
    ).toBe(true);
  });

  it('only a console with edit may force a release; it takes the floor from an emergency talker', async () => {
    expect(await reader.client.request('req_ptt_release', { tgid })).toMatchObject({ cmd_status: CmdStatus.FORBIDDEN });
    expect(await luohuDesk.client.request('req_ptt_release', { tgid })).toMatchObject({
      cmd_status: CmdStatus.NOT_FOUND,
    });
    expect(await desk.client.request('req_ptt_release', { tgid })).toMatchObject({ cmd_status: 0, released: 1 });
    expect(await status(camA, (m) => m.state === 0 && m.reason === 'forced')).toMatchObject({
      previous: { uid: devA.id },
      talker: null,
    });
  });

  it('a talker that leaves the group or disconnects releases the floor at once', async () => {
    expect(await camB.client.request('req_ptt_on', { tgid })).toMatchObject({ result: 'granted' });
    expect(await camB.client.request('req_leave_group', { tgid })).toMatchObject({ cmd_status: 0 });
    await status(desk, (m) => m.reason === 'left' && previousOf(m) === devB.id);
    // not attached: denied, nothing changes
    expect(await camB.client.request('req_ptt_on', { tgid })).toMatchObject({
      result: 'denied',
      reason: 'not_attached',
    });
    // and told by a notice too (the SDK does not wait for this code's answer)
    await status(camB, (m) => m.result === 'denied' && m.reason === 'not_attached');
    // listening only: denied as well
    expect(await reader.client.request('req_enter_group', { tgid, mute: 1 })).toMatchObject({ cmd_status: 0 });
    expect(await reader.client.request('req_ptt_on', { tgid })).toMatchObject({
      result: 'denied',
      reason: 'not_attached',
    });

    expect(await camA.client.request('req_ptt_on', { tgid })).toMatchObject({ result: 'granted' });
    camA.client.close();
    await status(desk, (m) => m.reason === 'disconnected' && previousOf(m) === devA.id && m.state === 0);
  });
});

describe('recorded bursts', () => {
  it('lists each burst with its talker and frames, newest first, and replays it through a signed address', async () => {
    let records: { refid: string; uid: number; frames: number; emergency: number }[] = [];
    await until('the bursts are stored', async () => {
      const rsp = await desk.client.request('req_ptt_records', { tgid });
      records = rsp.records as typeof records;
      return records.length >= 2;
    });
    const first = records.find((r) => r.uid === devA.id && r.frames === 56)!;
    expect(first).toBeDefined();
    expect(records.find((r) => r.emergency === 1)).toMatchObject({ uid: devA.id, frames: 5 });

    const replay = await desk.client.request('req_ptt_replay', { tgid, refid: first.refid });
    expect(replay).toMatchObject({ cmd_status: 0, record: { refid: first.refid, tg_name: '对讲一组' } });
    await desk.client.notice('notice_ptt_replay', (m) => (m.record as { refid: string }).refid === first.refid);
    const res = await t.app.inject({ method: 'GET', url: replay.url as string });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/ogg');
    expect(res.headers['accept-ranges']).toBe('bytes');
    const { packets } = readOggOpusPackets(new Uint8Array(res.rawPayload));
    expect(packets).toHaveLength(56);
    expect([...packets[7]!]).toEqual([...packet(7)]);
    // a player reads the length from the last page, and seeks
    const size = res.rawPayload.length;
    const tail = await t.app.inject({ method: 'GET', url: replay.url as string, headers: { range: 'bytes=-100' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.headers['content-range']).toBe(`bytes ${size - 100}-${size - 1}/${size}`);
    expect([...tail.rawPayload]).toEqual([...res.rawPayload.subarray(size - 100)]);
    const beyond = await t.app.inject({
      method: 'GET',
      url: replay.url as string,
      headers: { range: `bytes=${size}-` },
    });
    expect(beyond.statusCode).toBe(416);
  });

  it('refuses a tampered or foreign address, and a burst of a group the caller may not see', async () => {
    const rsp = await desk.client.request('req_ptt_records', { tgid });
    const { refid } = (rsp.records as { refid: string }[])[0]!;
    const replay = await desk.client.request('req_ptt_replay', { tgid, refid });
    const tampered = (replay.url as string).replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    const bad = await t.app.inject({ method: 'GET', url: tampered, headers: { 'accept-language': 'en-US' } });
    expect(bad.statusCode).toBe(403);
    expect(bad.json().msg).toMatch(/not valid/);
    const other = await t.app.inject({ method: 'GET', url: (replay.url as string).replace(refid, 'zzzzzzzzzz') });
    expect(other.statusCode).toBe(403);
    expect(await luohuDesk.client.request('req_ptt_replay', { tgid, refid })).toMatchObject({
      cmd_status: CmdStatus.NOT_FOUND,
    });
    expect(await luohuDesk.client.request('req_ptt_records', { tgid })).toMatchObject({
      cmd_status: CmdStatus.NOT_FOUND,
    });
    // a console without a tgid sees the bursts of its scope only
    expect((await luohuDesk.client.request('req_ptt_records')).total).toBe(0);
    expect((await camB.client.request('req_ptt_records')).total).toBeGreaterThanOrEqual(2);
  });
});

describe('maximum hold', () => {
  it('takes the floor back when the hold passes and gives it to the next waiting', async () => {
    const app = await createTestApp({ pttMaxHoldMs: 1500 });
    const local: ConsoleClient[] = [];
    try {
      const u = consoleUrl(await app.app.listen({ port: 0, host: '127.0.0.1' }));
      const adm = await login(app.app, DEMO.admin.username, DEMO.admin.password);
      const futian = await unitIdOf(app.db, '440304000000');
      const d1 = await addDevice(app.app, adm, futian, { jq_hostcode: '240001' });
      const d2 = await addDevice(app.app, adm, futian, { jq_hostcode: '240002' });
      const g = await api<{ groupid: number }>(app.app, 'groupAdd', adm, {
        channel_name: 'hold',
        cate: '1',
        device: ['240001', '240002'],
        bh: '440304000000',
      });
      const group = g.data.groupid;
      const [a, b] = [await logonTerminal(u, d1), await logonTerminal(u, d2)];
      local.push(a.client, b.client);
      for (const who of [a, b]) await who.client.request('req_enter_group', { tgid: group });
      const granted = await a.client.request('req_ptt_on', { tgid: group });
      expect(granted).toMatchObject({ result: 'granted', max_hold_s: 2 });
      expect(await b.client.request('req_ptt_on', { tgid: group })).toMatchObject({ result: 'queued' });
      const n = await b.client.notice(
        'notice_ptt_status',
        (m) => m.reason === 'expired' && talkerOf(m) === d2.id,
        15_000,
      );
      expect(n).toMatchObject({ previous: { uid: d1.id }, state: 1 });
      const { since, until: end } = n.talker as { since: number; until: number };
      expect(end - since).toBe(1500);
      expect(since - (granted.talker as { since: number }).since).toBeGreaterThanOrEqual(1500);
    } finally {
      for (const c of local) c.close();
      await app.close();
    }
  });
});
