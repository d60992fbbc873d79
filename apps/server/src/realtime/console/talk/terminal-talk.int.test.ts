import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { ConsoleTerminal, findFfmpeg, startSimulator, type SimulatorOptions, type TalkSummary } from '@bwc/simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../../../test/api';
import { consoleUrl, logonConsole, type LoggedOn } from '../../../../test/console-fixtures';
import { addDevice, unitIdOf, type CreatedDevice } from '../../../../test/devices';
import { createTestApp, DEMO, login, type TestApp } from '../../../../test/helpers';
import { until } from '../../../../test/wait';
import { PROVISION_KEY_FILE } from '../../../modules/devices/device-api.routes';

/**
 * Simulated terminals (packages/simulator ConsoleTerminal) in group talk against the real
 * service: they enter their group at logon, one talks a 1 kHz tone encoded by ffmpeg, paced in
 * real time, and the others hear every frame and measure 1 kHz in the decoded audio; a queued
 * talker gets the floor when the first lets go; a dispatcher pre-empts a talker, who stops. The
 * simulated fleet (npm start) talks in its terminals' group now and then, and without a working
 * ffmpeg says so once and only listens.
 */
let t: TestApp;
let url: string;
let tgid: number;
let desk: LoggedOn;
let cacheDir: string;
const terminals: ConsoleTerminal[] = [];
let alpha: ConsoleTerminal;
let bravo: ConsoleTerminal;
let charlie: ConsoleTerminal;

const heard = (who: ConsoleTerminal): TalkSummary => who.talkStats;

beforeAll(async () => {
  t = await createTestApp();
  url = consoleUrl(await t.app.listen({ port: 0, host: '127.0.0.1' }));
  const admin = await login(t.app, DEMO.admin.username, DEMO.admin.password);
  const futian = await unitIdOf(t.db, '440304000000');
  const devices: CreatedDevice[] = [];
  for (const code of ['240001', '240002', '240003'])
    devices.push(await addDevice(t.app, admin, futian, { jq_hostcode: code }));
  const group = await api<{ groupid: number }>(t.app, 'groupAdd', admin, {
    channel_name: '模拟对讲',
    cate: '1',
    device: ['240001', '240002', '240003'],
    bh: '440304000000',
  });
  tgid = group.data.groupid;
  cacheDir = mkdtempSync(join(tmpdir(), 'talk-int-'));
  for (const d of devices)
    terminals.push(
      new ConsoleTerminal({
        url,
        logonName: d.hostbody,
        passwd: d.secret,
        clientid: `${d.hostbody}-talk`,
        talk: { analyse: true, cacheDir },
      }),
    );
  [alpha, bravo, charlie] = terminals as [ConsoleTerminal, ConsoleTerminal, ConsoleTerminal];
  for (const term of terminals) term.start();
  await Promise.all(terminals.map((term) => term.whenLoggedOn()));
  desk = await logonConsole(t.app, url, admin);
  expect(await desk.client.request('req_enter_group', { tgid })).toMatchObject({ cmd_status: 0 });
});
afterAll(async () => {
  for (const term of terminals) term.stop();
  desk?.client.close();
  await t.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

describe.skipIf(!findFfmpeg())('simulated terminals in group talk', () => {
  it('enter their group at logon', async () => {
    await until('every terminal attached', () => terminals.every((term) => term.talkStats.attached === tgid));
  });

  it('one talks a 1 kHz tone, the others hear every frame of it and measure 1 kHz', async () => {
    const said = await alpha.talk(tgid, { seconds: 2, source: { tone: 1000 } });
    expect(said).toMatchObject({ tgid, result: 'granted' });
    expect(said.reason).toBeUndefined();
    // two seconds of 20 ms packets (and libopus's delay)
    expect(said.sent).toBeGreaterThanOrEqual(100);
    for (const listener of [bravo, charlie])
      await until('the burst heard, over and measured', () => heard(listener).lastHeard?.tone != null);
    for (const listener of [bravo, charlie]) {
      const s = heard(listener);
      expect(s).toMatchObject({ burstsHeard: 1, framesHeard: said.sent, framesLost: 0 });
      expect(s.lastHeard).toMatchObject({ tgid, uid: alpha.uid, frames: said.sent, lost: 0, ended: true });
      expect(Math.abs(s.lastHeard!.tone!.hz - 1000)).toBeLessThanOrEqual(2);
      expect(s.lastHeard!.tone!.strength).toBeGreaterThan(0.8);
    }
    // the talker does not hear itself
    expect(heard(alpha).framesHeard).toBe(0);
    expect(heard(alpha).talked).toMatchObject({ bursts: 1, framesSent: said.sent, cut: 0 });
  });

  it('a second talker waits in the queue and talks when the first lets go', async () => {
    const first = alpha.talk(tgid, { seconds: 2, source: { tone: 600 } });
    await until('alpha talking', () => heard(charlie).lastHeard?.uid === alpha.uid && !heard(charlie).lastHeard!.ended);
    const second = await bravo.talk(tgid, { seconds: 1, source: { tone: 1500 } });
    expect(second).toMatchObject({ result: 'granted' });
    expect(await first).toMatchObject({ result: 'granted' });
    await until(
      'bravo heard and measured',
      () => heard(charlie).lastHeard?.uid === bravo.uid && heard(charlie).lastHeard?.tone != null,
    );
    expect(heard(charlie)).toMatchObject({ burstsHeard: 3, framesLost: 0 });
    expect(Math.abs(heard(charlie).lastHeard!.tone!.hz - 1500)).toBeLessThanOrEqual(2);
  });

  it('a talker pre-empted by a dispatcher stops sending and says why', async () => {
    const talking = alpha.talk(tgid, { seconds: 6, source: { tone: 800 } });
    await until('alpha talking', () => heard(charlie).lastHeard?.uid === alpha.uid && !heard(charlie).lastHeard!.ended);
    expect(await desk.client.request('req_ptt_on', { tgid })).toMatchObject({ cmd_status: 0, result: 'granted' });
    const said = await talking;
    expect(said).toMatchObject({ result: 'granted', reason: 'preempted' });
    expect(said.sent).toBeLessThan(300);
    expect(heard(alpha).talked.cut).toBe(1);
    expect(await desk.client.request('req_ptt_off', { tgid })).toMatchObject({ cmd_status: 0, released: 1 });
  });
});

describe.skipIf(!findFfmpeg())('the simulated fleet in group talk', () => {
  const fleet = (extra: Partial<SimulatorOptions>) =>
    startSimulator({
      server: url.replace('ws', 'http').replace(/\/ws\/console$/, ''),
      devices: 10,
      provisionKey: readFileSync(join(t.config.dataDir, PROVISION_KEY_FILE), 'utf8').trim(),
      intervalS: [1, 2],
      seed: 5,
      offlineRate: 0,
      sosRate: 0,
      imRate: 0,
      commands: false,
      cameras: false,
      prefix: 'TTLK',
      talkEveryS: [1, 2],
      ...extra,
    });

  it("joins its district's demo talk group; one terminal of a group talks now and then, the others hear every frame", async () => {
    // 20 devices, 14 with a cluster number, spread over the demo's 21 units: two or more per district
    const sim = await fleet({ devices: 20, talkCacheDir: mkdtempSync(join(cacheDir, 'fleet-')) });
    try {
      const terminals = await t.db
        .selectFrom('devices')
        .select(['id', 'unit_id'])
        .where('hostbody', 'like', 'TTLK%')
        .where('jq_hostcode', '!=', '')
        .execute();
      expect(terminals).toHaveLength(14);
      // demo mode: each is a member of its district's fixed talk group (one group each)
      const members = await t.db
        .selectFrom('talk_group_members as m')
        .innerJoin('talk_groups as g', 'g.id', 'm.group_id')
        .select(['m.device_id', 'g.id as tgid'])
        .where(
          'm.device_id',
          'in',
          terminals.map((d) => d.id),
        )
        .where('g.preconfig', '=', 1)
        .execute();
      expect(members.map((m) => m.device_id).sort()).toEqual(terminals.map((d) => d.id).sort());
      // the fleet spreads its devices over the units: the districts' groups have listeners
      const sizes = new Map<number, number>();
      for (const m of members) sizes.set(m.tgid, (sizes.get(m.tgid) ?? 0) + 1);
      const listeners = Math.min(...[...sizes.values()].filter((n) => n > 1).map((n) => n - 1));
      expect(listeners).toBeGreaterThanOrEqual(1);
      // bursts are 2 to 3 s: at least 100 frames each, heard by every listener of its group
      await until(
        'two bursts talked and heard',
        () => sim.stats.talkBursts >= 2 && sim.stats.talkFramesHeard >= 2 * listeners * 100,
        60_000,
      );
      expect(sim.stats).toMatchObject({ talkFramesLost: 0, errors: 0 });
    } finally {
      await sim();
    }
  }, 90_000);

  it('without a working ffmpeg it says so once and only listens', async () => {
    const lines: string[] = [];
    const sim = await fleet({
      ffmpeg: '/bin/false',
      talkCacheDir: mkdtempSync(join(cacheDir, 'broken-')),
      log: (line) => lines.push(line),
    });
    try {
      await until('the fleet gave up talking', () => lines.some((l) => l.includes('no audio')), 60_000);
      await until('every terminal online', () => sim.stats.terminalsOnline === 7);
      expect(lines.filter((l) => l.includes('no audio'))).toHaveLength(1);
      expect(sim.stats).toMatchObject({ talkBursts: 0, talkFramesSent: 0, errors: 0 });
    } finally {
      await sim();
    }
  }, 90_000);
});
