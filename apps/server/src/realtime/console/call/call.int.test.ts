import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AUDIO_FRAME_MS,
  AUDIO_SAMPLE_RATE,
  AudioKind,
  CallStatus,
  decodeAudioFrame,
  encodeAudioFrame,
} from '@bwc/protocol';
import { burstPackets, ConsoleTerminal, decodeOgg, dominantTone, findFfmpeg, oggOf, toneOf } from '@bwc/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleUrl, logonConsole, type LoggedOn } from '../../../../test/console-fixtures';
import { addDevice, unitIdOf } from '../../../../test/devices';
import { createTestApp, DEMO, login, type TestApp } from '../../../../test/helpers';
import { until } from '../../../../test/wait';

/**
 * A console calls a simulated terminal (packages/simulator ConsoleTerminal) against the real
 * service: the terminal answers by itself after about a second and says its own tone; the console
 * says a 1 kHz tone encoded by ffmpeg, paced in real time. Each side decodes what it heard with
 * ffmpeg and finds the other's tone; DTMF reaches the terminal; the console hangs up and the
 * terminal stops.
 */
let t: TestApp;
let desk: LoggedOn;
let term: ConsoleTerminal;
let cacheDir: string;

beforeAll(async () => {
  t = await createTestApp();
  const url = consoleUrl(await t.app.listen({ port: 0, host: '127.0.0.1' }));
  const admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  const device = await addDevice(t.app, admin, await unitIdOf(t.db, '440304000000'), { jq_hostcode: '260001' });
  cacheDir = mkdtempSync(join(tmpdir(), 'call-int-'));
  term = new ConsoleTerminal({
    url,
    logonName: device.hostbody,
    passwd: device.secret,
    clientid: `${device.hostbody}-call`,
    talk: { listen: false, cacheDir },
    call: { answerAfterMs: 1000 },
  });
  term.start();
  await term.whenLoggedOn();
  desk = await logonConsole(t.app, url, admin);
});
afterAll(async () => {
  term?.stop();
  desk?.client.close();
  await t.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

describe.skipIf(!findFfmpeg())('a console calls a simulated terminal', () => {
  it('the terminal answers, each side hears the other tone, DTMF arrives, the hang-up stops the terminal', async () => {
    const rsp = await desk.client.request('req_call', { target: term.uid });
    expect(rsp).toMatchObject({ cmd_status: 0, status: CallStatus.RINGING });
    const callid = rsp.callid as number;
    await desk.client.notice('notice_call_status', (m) => m.callid === callid && m.status === CallStatus.ANSWERED);

    const packets = await burstPackets({ tone: 1000 }, 2, { cacheDir });
    const start = Date.now();
    for (const [seq, opus] of packets.entries()) {
      desk.client.ws.sendBinary(
        encodeAudioFrame({ kind: AudioKind.CALL, flags: 0, tgid: callid, uid: 0, seq, clock: seq * 20, opus }),
      );
      const wait = start + (seq + 1) * AUDIO_FRAME_MS - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    await until('the terminal heard every frame', () => term.calls.summary().framesHeard === packets.length);
    const heardByTerminal = await term.calls.heardTone();
    expect(Math.abs(heardByTerminal!.hz - 1000)).toBeLessThanOrEqual(2);
    expect(heardByTerminal!.strength).toBeGreaterThan(0.8);

    await until('two seconds of the terminal heard', () => desk.client.ws.audio.length >= 100);
    const frames = desk.client.ws.audio.map((a) => decodeAudioFrame(a.data, AudioKind.CALL)!);
    expect(frames.every((f) => f.uid === term.uid && f.tgid === callid)).toBe(true);
    const pcm = await decodeOgg(
      oggOf(
        frames.map((f) => f.opus),
        callid,
      ),
    );
    const heardByDesk = dominantTone(pcm, AUDIO_SAMPLE_RATE);
    expect(Math.abs(heardByDesk!.hz - toneOf(term.uid!))).toBeLessThanOrEqual(2);

    expect(await desk.client.request('req_dtmf', { value: '*9#' })).toMatchObject({ cmd_status: 0 });
    await until('the digits at the terminal', () => term.calls.summary().dtmf === '*9#');

    expect(await desk.client.request('req_call_status', { status: CallStatus.HANGUP })).toMatchObject({
      status: CallStatus.HANGUP,
    });
    await until('the terminal knows', () => term.calls.summary().status === CallStatus.HANGUP);
    let sent = -1;
    await until('no more frames sent', () => {
      const now = term.calls.summary().framesSent;
      const still = now === sent;
      sent = now;
      return still;
    });
    expect(term.calls.summary()).toMatchObject({ callsRung: 1, callsAnswered: 1 });
  }, 60_000);
});
