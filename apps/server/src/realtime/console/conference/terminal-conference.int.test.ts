import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AudioKind, decodeAudioFrame, encodeAudioFrame } from '@bwc/protocol';
import { ConsoleTerminal, findFfmpeg } from '@bwc/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../../test/api';
import { consoleUrl, logonConsole, type LoggedOn } from '../../../../test/console-fixtures';
import { addDevice, unitIdOf, type CreatedDevice } from '../../../../test/devices';
import { createTestApp, DEMO, login, type TestApp } from '../../../../test/helpers';
import { until } from '../../../../test/wait';

/**
 * Simulated terminals (packages/simulator ConsoleTerminal) in a video conference of the real
 * service: once a dispatcher starts it, each says its tone as conference frames (encoded by
 * ffmpeg, paced in real time) and hears the dispatcher and the other terminal; the dispatcher
 * hears both; the stop ends their sending (the relay after a stop: handlers/conference.test.ts).
 */
let t: TestApp;
let url: string;
let tgid: number;
let desk: LoggedOn;
let cacheDir: string;
const terminals: ConsoleTerminal[] = [];

beforeAll(async () => {
  t = await createTestApp();
  url = consoleUrl(await t.app.listen({ port: 0, host: '127.0.0.1' }));
  const admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  const futian = await unitIdOf(t.db, '440304000000');
  const devices: CreatedDevice[] = [];
  for (const code of ['250001', '250002']) devices.push(await addDevice(t.app, admin, futian, { jq_hostcode: code }));
  const group = await api<{ groupid: number }>(t.app, 'groupAdd', admin, {
    channel_name: '模拟会议',
    cate: '1',
    device: ['250001', '250002'],
    bh: '440304000000',
  });
  tgid = group.data.groupid;
  cacheDir = mkdtempSync(join(tmpdir(), 'conference-int-'));
  for (const d of devices)
    terminals.push(
      new ConsoleTerminal({
        url,
        logonName: d.hostbody,
        passwd: d.secret,
        clientid: `${d.hostbody}-conference`,
        talk: { listen: false, cacheDir },
      }),
    );
  for (const term of terminals) term.start();
  await Promise.all(terminals.map((term) => term.whenLoggedOn()));
  desk = await logonConsole(t.app, url, admin);
});
afterAll(async () => {
  for (const term of terminals) term.stop();
  desk?.client.close();
  await t.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

describe.skipIf(!findFfmpeg())('simulated terminals in a video conference', () => {
  it('speak and hear each other and the dispatcher, full duplex, until it stops', async () => {
    const [alpha, bravo] = terminals as [ConsoleTerminal, ConsoleTerminal];
    expect(await desk.client.request('req_start_video_conf', { tgid })).toMatchObject({ cmd_status: 0 });
    const fromDesk = () =>
      desk.client.ws.audio
        .map((a) => decodeAudioFrame(a.data, AudioKind.CONFERENCE))
        .filter((f) => f !== null)
        .map((f) => f.uid);
    await until('the dispatcher hears both terminals', () =>
      [alpha.uid, bravo.uid].every((uid) => fromDesk().filter((u) => u === uid).length >= 25),
    );
    for (let seq = 0; seq < 10; seq += 1)
      desk.client.ws.sendBinary(
        encodeAudioFrame({
          kind: AudioKind.CONFERENCE,
          flags: 0,
          tgid,
          uid: 0,
          seq,
          clock: 0,
          opus: Uint8Array.of(0xf8, seq),
        }),
      );
    for (const [me, other] of [
      [alpha, bravo],
      [bravo, alpha],
    ] as const)
      await until('a terminal hears the other one and the dispatcher', () => {
        const s = me.conference.summary();
        return (s.heardFrom[other.uid!] ?? 0) >= 25 && s.heardFrom[desk.uid] === 10;
      });
    expect(alpha.conference.summary()).toMatchObject({ tgid, conferences: 1 });

    expect(await desk.client.request('req_stop_video_conf', { tgid })).toMatchObject({ cmd_status: 0 });
    await until('both stopped', () => terminals.every((term) => term.conference.summary().tgid === null));
  });
});
