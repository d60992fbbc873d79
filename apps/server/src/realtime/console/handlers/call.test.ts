import {
  AudioKind,
  CallStatus,
  CmdStatus,
  decodeAudioFrame,
  encodeAudioFrame,
  MenuId,
  readOggOpusPackets,
} from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleClient, Message } from '../../../../test/console-client';
import { consoleUrl, logonConsole, logonTerminal, type LoggedOn } from '../../../../test/console-fixtures';
import { addDevice, unitIdOf, type CreatedDevice } from '../../../../test/devices';
import { createRole, createTestApp, createUser, DEMO, login, type TestApp } from '../../../../test/helpers';
import { until } from '../../../../test/wait';

/**
 * Voice calls end to end over real websockets: a console calls a terminal, it rings on both, the
 * terminal answers; each party's CALL frames reach the other party only; DTMF digits are relayed;
 * a hang-up ends it and each direction is recorded, listed and replayable. Busy, rejected, not
 * answered in time, a party's disconnect, an offline callee, bad payloads.
 */
let t: TestApp;
let url: string;
let desk: LoggedOn;
let otherDesk: LoggedOn;
let reader: LoggedOn;
let devA: CreatedDevice;
let devB: CreatedDevice;
let devC: CreatedDevice;
let camA: LoggedOn;
let camB: LoggedOn;
const clients: ConsoleClient[] = [];

/** A recognisable Opus-sized packet: a TOC byte for 20 ms CELT frames, the sender's mark, the sequence. */
const packet = (mark: number, i: number) => Uint8Array.from([0xfc, mark, i & 0xff, 0x55, 0xaa, 0x01, 0x02]);

function send(who: LoggedOn, callid: number, mark: number, count: number, kind: number = AudioKind.CALL): void {
  for (let i = 0; i < count; i += 1)
    who.client.ws.sendBinary(
      encodeAudioFrame({ kind, flags: 0, tgid: callid, uid: 0, seq: i, clock: i * 20, opus: packet(mark, i) }),
    );
}

const heard = (who: LoggedOn) =>
  who.client.ws.audio.map((a) => decodeAudioFrame(a.data, AudioKind.CALL)).filter((f) => f !== null);
const callStatus = (who: LoggedOn, callid: number, status: number) =>
  who.client.notice('notice_call_status', (m) => m.callid === callid && m.status === status);
const calls = () => t.app.consoleService.calls!;

beforeAll(async () => {
  t = await createTestApp();
  url = consoleUrl(await t.app.listen({ port: 0, host: '127.0.0.1' }));
  const admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  const viewer = await createRole(t.db, 'call desk', [{ ids: [MenuId.EMERGENCY], actions: ['view'] }]);
  const make = async () => {
    const u = await createUser(t.db, { roleId: viewer, unitBh: '440304000000' });
    const l = await logonConsole(t.app, url, await login(t.app, u.username, u.password));
    clients.push(l.client);
    return l;
  };
  desk = await logonConsole(t.app, url, admin);
  otherDesk = await make();
  reader = await make();
  const futian = await unitIdOf(t.db, '440304000000');
  devA = await addDevice(t.app, admin, futian, { jq_hostcode: '250001' });
  devB = await addDevice(t.app, admin, futian, { jq_hostcode: '250002' });
  devC = await addDevice(t.app, admin, futian, { jq_hostcode: '250003' });
  camA = await logonTerminal(url, devA);
  camB = await logonTerminal(url, devB);
  clients.push(desk.client, camA.client, camB.client);
});
afterAll(async () => {
  for (const c of clients) c.close();
  await t.close();
});

describe('a call from a console to a terminal', () => {
  let callid: number;
  let refids: string[] = [];

  it('rings on both sides', async () => {
    const rsp = await desk.client.request('req_call', { target: devA.id, priority: 2 });
    expect(rsp).toMatchObject({
      msg_code: 'rsp_call',
      cmd_status: 0,
      status: CallStatus.RINGING,
      demander: desk.uid,
      target: devA.id,
      exttarget: '250001',
      priority: 2,
      call_type: 0,
      answered: null,
    });
    callid = rsp.callid as number;
    expect(callid).toBeGreaterThan(0);
    for (const who of [desk, camA]) await callStatus(who, callid, CallStatus.RINGING);
  });

  it('drops frames while it rings, and a party may not call anyone else meanwhile', async () => {
    send(camA, callid, 0xa1, 3);
    expect(await camA.client.request('heartbeat')).toMatchObject({ cmd_status: 0 });
    await until('frames dropped', () => calls().stats.dropped >= 3);
    expect(heard(desk)).toHaveLength(0);
    // the desk is in this call: another call of its own is busy, told by notice too
    const again = await desk.client.request('req_call', { target: devB.id });
    expect(again).toMatchObject({ cmd_status: 0, status: CallStatus.BUSY, reason: 'caller_busy' });
    await desk.client.notice('notice_call_status', (m) => m.status === CallStatus.BUSY && m.reason === 'caller_busy');
    // another console calling the terminal in this call: busy
    expect(await otherDesk.client.request('req_call', { exttarget: '250001' })).toMatchObject({
      status: CallStatus.BUSY,
      reason: 'busy',
    });
    // only the callee answers
    expect(await desk.client.request('req_call_status', { callid, status: CallStatus.ANSWERED })).toMatchObject({
      cmd_status: CmdStatus.CONFLICT,
    });
  });

  it('is answered by the terminal; both sides are told', async () => {
    const rsp = await camA.client.request('req_call_status', { status: CallStatus.ANSWERED });
    expect(rsp).toMatchObject({ cmd_status: 0, callid, status: CallStatus.ANSWERED });
    expect(rsp.answered).toEqual(expect.any(Number));
    for (const who of [desk, camA]) await callStatus(who, callid, CallStatus.ANSWERED);
  });

  it("relays each party's frames to the other party only, stamped with the sender", async () => {
    const droppedBefore = calls().stats.dropped;
    send(desk, callid, 0xd1, 40);
    send(camA, callid, 0xa1, 30);
    await until('frames both ways', () => heard(camA).length >= 40 && heard(desk).length >= 30);
    expect(heard(camA).map((f) => f.seq)).toEqual([...Array(40).keys()]);
    expect(heard(camA).every((f) => f.uid === desk.uid && f.tgid === callid && f.opus[1] === 0xd1)).toBe(true);
    expect(heard(desk).every((f) => f.uid === devA.id && f.opus[1] === 0xa1)).toBe(true);
    // a third client sends into the call: dropped; nobody else hears anything
    send(camB, callid, 0xb1, 5);
    send(reader, callid, 0xe1, 5);
    expect(await reader.client.request('heartbeat')).toMatchObject({ cmd_status: 0 });
    await until('strangers dropped', () => calls().stats.dropped >= droppedBefore + 10);
    for (const who of [camB, reader, otherDesk]) expect(who.client.ws.audio).toHaveLength(0);
    expect(heard(camA)).toHaveLength(40);
    expect(heard(desk)).toHaveLength(30);
  });

  it('relays DTMF digits to the other party', async () => {
    expect(await desk.client.request('req_dtmf', { value: '12#' })).toMatchObject({ cmd_status: 0, callid });
    expect(await camA.client.notice('notice_dtmf')).toMatchObject({ callid, from: desk.uid, value: '12#' });
    expect(await camA.client.request('req_dtmf', { callid, value: 5 })).toMatchObject({ cmd_status: 0 });
    expect(await desk.client.notice('notice_dtmf')).toMatchObject({ from: devA.id, value: '5' });
    // not a party: not found; no call at all: conflict
    expect(await camB.client.request('req_dtmf', { callid, value: '1' })).toMatchObject({
      cmd_status: CmdStatus.NOT_FOUND,
    });
    expect(await camB.client.request('req_dtmf', { value: '1' })).toMatchObject({ cmd_status: CmdStatus.CONFLICT });
  });

  it('ends when a party hangs up; each direction is recorded, listed and replayable', async () => {
    const rsp = await desk.client.request('req_call_status', { callid, status: CallStatus.HANGUP });
    expect(rsp).toMatchObject({ cmd_status: 0, status: CallStatus.HANGUP, reason: 'hangup', by: desk.uid });
    for (const who of [desk, camA]) await callStatus(who, callid, CallStatus.HANGUP);
    // frames after the end are dropped
    send(camA, callid, 0xa1, 2);
    expect(await camA.client.request('heartbeat')).toMatchObject({ cmd_status: 0 });
    let records: Message[] = [];
    await until('both directions listed', async () => {
      const list = await desk.client.request('req_ptt_records', { kind: 'call' });
      records = (list.records as Message[]).filter((r) => r.tgid === callid);
      return records.length === 2;
    });
    const fromDesk = records.find((r) => r.uid === desk.uid)!;
    const fromCam = records.find((r) => r.uid === devA.id)!;
    expect(fromDesk).toMatchObject({ kind: 'call', frames: 40, peer_uid: devA.id, peer_ext_id: '250001' });
    expect(fromCam).toMatchObject({ kind: 'call', frames: 30, peer_uid: desk.uid });
    expect(Number(fromCam.stop)).toBeGreaterThanOrEqual(Number(fromCam.start));
    refids = records.map((r) => r.refid as string);
    // the terminal lists its own calls too; another terminal does not see them
    const mine = await camA.client.request('req_ptt_records', {});
    expect((mine.records as Message[]).map((r) => r.refid)).toEqual(expect.arrayContaining(refids));
    const others = await camB.client.request('req_ptt_records', { kind: 'call' });
    expect(others.records).toEqual([]);
    // group bursts only: no call
    const groups = await desk.client.request('req_ptt_records', { kind: 'group' });
    expect((groups.records as Message[]).some((r) => r.kind === 'call')).toBe(false);

    const replay = await camA.client.request('req_ptt_replay', { tgid: callid, refid: fromDesk.refid });
    expect(replay).toMatchObject({ cmd_status: 0, record: { refid: fromDesk.refid } });
    const res = await t.app.inject({ method: 'GET', url: replay.url as string });
    expect(res.statusCode).toBe(200);
    const { packets } = readOggOpusPackets(new Uint8Array(res.rawPayload));
    expect(packets).toHaveLength(40);
    expect([...packets[3]!]).toEqual([...packet(0xd1, 3)]);
    expect(await camB.client.request('req_ptt_replay', { tgid: callid, refid: fromDesk.refid })).toMatchObject({
      cmd_status: CmdStatus.NOT_FOUND,
    });
  });
});

describe('calls that do not go through', () => {
  it('a rejected call', async () => {
    const rsp = await desk.client.request('req_call', { target: devB.id });
    const callid = rsp.callid as number;
    await callStatus(camB, callid, CallStatus.RINGING);
    expect(await camB.client.request('req_call_status', { callid, status: CallStatus.REJECTED })).toMatchObject({
      status: CallStatus.REJECTED,
      reason: 'declined',
      by: devB.id,
    });
    await callStatus(desk, callid, CallStatus.REJECTED);
    // it is over: neither party can change it any more
    expect(await camB.client.request('req_call_status', { callid, status: CallStatus.HANGUP })).toMatchObject({
      cmd_status: CmdStatus.NOT_FOUND,
    });
  });

  it('a caller who gives up while it rings cancels it', async () => {
    const callid = (await desk.client.request('req_call', { target: devB.id })).callid as number;
    expect(await desk.client.request('req_call_status', { status: CallStatus.HANGUP })).toMatchObject({
      status: CallStatus.HANGUP,
      reason: 'cancelled',
    });
    await callStatus(camB, callid, CallStatus.HANGUP);
  });

  it('a call nobody answers times out', async () => {
    const before = calls().ringTimeoutMs;
    calls().ringTimeoutMs = 300;
    try {
      const callid = (await desk.client.request('req_call', { target: devB.id })).callid as number;
      for (const who of [desk, camB])
        expect(await callStatus(who, callid, CallStatus.TIMEOUT)).toMatchObject({ reason: 'no_answer' });
    } finally {
      calls().ringTimeoutMs = before;
    }
    // both free again
    const next = await desk.client.request('req_call', { target: devB.id });
    expect(next).toMatchObject({ status: CallStatus.RINGING });
    await desk.client.request('req_call_status', { callid: next.callid, status: CallStatus.HANGUP });
    await callStatus(camB, next.callid as number, CallStatus.HANGUP);
  });

  it('an offline terminal is unreachable: the caller is told', async () => {
    const rsp = await desk.client.request('req_call', { target: devC.id });
    expect(rsp).toMatchObject({ cmd_status: 0, status: CallStatus.UNREACHABLE, reason: 'offline' });
    await desk.client.notice('notice_call_status', (m) => m.status === CallStatus.UNREACHABLE && m.target === devC.id);
  });

  it('a party whose connection closes ends the call at once', async () => {
    const camC = await logonTerminal(url, devC);
    clients.push(camC.client);
    const callid = (await otherDesk.client.request('req_call', { target: devC.id })).callid as number;
    await callStatus(camC, callid, CallStatus.RINGING);
    expect(await camC.client.request('req_call_status', { status: CallStatus.ANSWERED })).toMatchObject({
      status: CallStatus.ANSWERED,
    });
    camC.client.close();
    expect(await callStatus(otherDesk, callid, CallStatus.HANGUP)).toMatchObject({
      reason: 'disconnected',
      by: devC.id,
    });
  });
});

describe('bad requests change nothing and keep the connection', () => {
  it('answers bad payloads with the field named', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['req_call', {}, 'target'],
      ['req_call', { target: 'abc' }, 'target'],
      ['req_call', { target: devA.id, priority: 99 }, 'priority'],
      ['req_call_status', { status: 9 }, 'status'],
      ['req_call_status', { status: CallStatus.HANGUP, callid: -4 }, 'callid'],
      ['req_dtmf', { value: '12x' }, 'value'],
      ['req_dtmf', {}, 'value'],
    ];
    for (const [code, payload, field] of cases) {
      const rsp = await desk.client.request(code, payload);
      expect(rsp, `${code} ${JSON.stringify(payload)}`).toMatchObject({ cmd_status: CmdStatus.BAD_PAYLOAD });
      expect(rsp.error_reason).toContain(field);
    }
    expect(await desk.client.request('heartbeat')).toMatchObject({ cmd_status: 0 });
  });

  it('refuses a call to oneself, to a console, to nobody it may see, and a video call', async () => {
    expect(await camA.client.request('req_call', { target: devA.id })).toMatchObject({
      cmd_status: CmdStatus.BAD_PAYLOAD,
    });
    expect(await desk.client.request('req_call', { target: otherDesk.uid })).toMatchObject({
      cmd_status: CmdStatus.BAD_PAYLOAD,
    });
    expect(await desk.client.request('req_call', { target: 99_999_999 })).toMatchObject({
      cmd_status: CmdStatus.NOT_FOUND,
    });
    const video = await desk.client.request('req_call', { target: devA.id, call_type: 1 });
    expect(video).toMatchObject({ cmd_status: CmdStatus.NOT_AVAILABLE });
    expect(await desk.client.request('req_call_status', { status: CallStatus.HANGUP })).toMatchObject({
      cmd_status: CmdStatus.CONFLICT,
      error_reason: expect.stringMatching(/通话/),
    });
    // the calls are all over: everyone is free
    const rsp = await desk.client.request('req_call', { target: devA.id });
    expect(rsp).toMatchObject({ status: CallStatus.RINGING });
    await desk.client.request('req_call_status', { status: CallStatus.HANGUP });
  });
});
