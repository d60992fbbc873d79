import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeAudioFrame, OggOpusWriter, type Talker } from '@bwc/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { TerminalTalk, type TalkLink } from './terminal-talk';

/**
 * Floor handling of a talking terminal against a scripted service (the real one:
 * apps/server/src/realtime/console/talk/terminal-talk.int.test.ts). The burst's packets come from
 * the clip cache, written here, so no ffmpeg runs.
 */

const ME = 5;
const TGID = 7;
const PACKETS = 10;
const cacheDir = mkdtempSync(join(tmpdir(), 'talk-unit-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));
{
  const writer = new OggOpusWriter({ serial: 1 });
  const packets = Array.from({ length: PACKETS }, (_, i) => Uint8Array.of(0xf8, i, 0x55));
  writeFileSync(
    join(cacheDir, 'tone-440hz-0.2s.opus'),
    Buffer.concat([writer.header(), ...packets.map((p) => writer.packet(p, 960)), writer.end()]),
  );
}

const talker = (uid: number, refid: string): Talker => ({
  uid,
  ext_id: String(uid),
  name: `u${uid}`,
  priority: 1,
  emergency: 0,
  since: 0,
  until: 60_000,
  refid,
});
const status = (talking: Talker | null, extra: Record<string, unknown> = {}) => ({
  msg_code: 'notice_ptt_status',
  tgid: TGID,
  state: talking ? 1 : 0,
  talker: talking,
  previous: null,
  queue: [],
  ...extra,
});

/** A service answering req_ptt_on with `floor`, recording requests and frames. */
function scripted(floor: Record<string, unknown>, grantTimeoutMs = 2_000) {
  const requests: string[] = [];
  const frames: Uint8Array[] = [];
  const link: TalkLink = {
    uid: () => ME,
    request: (code) => {
      requests.push(code);
      if (code === 'req_ptt_on') return Promise.resolve({ tgid: TGID, talker: null, max_hold_s: 60, ...floor });
      return Promise.resolve({ tgid: TGID });
    },
    sendBinary: (frame) => {
      frames.push(frame);
      return true;
    },
  };
  const talk = new TerminalTalk(link, { cacheDir, grantTimeoutMs });
  return { talk, requests, frames };
}

const until = async (probe: () => boolean) => {
  const end = Date.now() + 10_000;
  while (!probe()) {
    if (Date.now() > end) throw new Error('not in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('TerminalTalk.talk', () => {
  it('enters the group, talks its packets paced every 20 ms in sequence, then lets go', async () => {
    const { talk, requests, frames } = scripted({ result: 'granted', talker: talker(ME, 'r1') });
    const started = Date.now();
    const said = await talk.talk(TGID, { seconds: 0.2 });
    expect(Date.now() - started).toBeGreaterThanOrEqual((PACKETS - 1) * 20 - 5);
    expect(said).toEqual({ tgid: TGID, result: 'granted', sent: PACKETS, refid: 'r1' });
    expect(requests).toEqual(['req_enter_group', 'req_ptt_on', 'req_ptt_off']);
    const decoded = frames.map((f) => decodeAudioFrame(f)!);
    expect(decoded.map((f) => f.seq)).toEqual([...Array(PACKETS).keys()]);
    expect(decoded.every((f) => f.tgid === TGID && f.uid === 0 && f.flags === 0)).toBe(true);
    expect([...decoded[3]!.opus]).toEqual([0xf8, 3, 0x55]);
    expect(talk.stats).toEqual({ bursts: 1, framesSent: PACKETS, denied: 0, timedOut: 0, cut: 0 });
  });

  it('sends nothing when denied, and says why', async () => {
    const { talk, requests, frames } = scripted({ result: 'denied', reason: 'busy' });
    expect(await talk.talk(TGID, { seconds: 0.2 })).toEqual({ tgid: TGID, result: 'denied', reason: 'busy', sent: 0 });
    expect(frames).toHaveLength(0);
    expect(requests).not.toContain('req_ptt_off');
    expect(talk.stats.denied).toBe(1);
  });

  it('queued, talks once a notice names it the talker', async () => {
    const { talk, requests, frames } = scripted({ result: 'queued', position: 1, talker: talker(9, 'other') });
    const said = talk.talk(TGID, { seconds: 0.2, emergency: true });
    await until(() => requests.includes('req_ptt_on'));
    // its own queued notice and somebody else's turn change nothing
    talk.notice(status(talker(9, 'other'), { result: 'queued', queue: [ME] }));
    talk.notice(status(talker(8, 'another')));
    expect(frames).toHaveLength(0);
    talk.notice(status(talker(ME, 'r2'), { previous: talker(8, 'another'), reason: 'released' }));
    expect(await said).toMatchObject({ result: 'granted', sent: PACKETS, refid: 'r2' });
    expect(frames.every((f) => decodeAudioFrame(f)!.flags === 1)).toBe(true);
  });

  it('queued too long, leaves the queue', async () => {
    const { talk, requests, frames } = scripted({ result: 'queued', position: 2, talker: talker(9, 'other') }, 200);
    const started = Date.now();
    expect(await talk.talk(TGID, { seconds: 0.2 })).toEqual({ tgid: TGID, result: 'queued', sent: 0 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(195);
    expect(requests.at(-1)).toBe('req_ptt_off');
    expect(frames).toHaveLength(0);
    expect(talk.stats.timedOut).toBe(1);
  });

  it('pre-empted, stops sending at once and says why', async () => {
    const { talk, frames } = scripted({ result: 'granted', talker: talker(ME, 'r3') });
    const said = talk.talk(TGID, { seconds: 0.2 });
    await until(() => frames.length >= 3);
    talk.notice(status(talker(2, 'desk'), { previous: talker(ME, 'r3'), reason: 'preempted' }));
    const result = await said;
    expect(result).toMatchObject({ result: 'granted', reason: 'preempted', refid: 'r3' });
    expect(result.sent).toBeLessThan(PACKETS);
    expect(frames).toHaveLength(result.sent);
    expect(talk.stats.cut).toBe(1);
  });

  it('talks one burst at a time', async () => {
    const { talk } = scripted({ result: 'granted', talker: talker(ME, 'r4') });
    const first = talk.talk(TGID, { seconds: 0.2 });
    await expect(talk.talk(TGID, { seconds: 0.2 })).rejects.toThrow(/already talking/);
    await first;
  });
});
