import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AudioKind, decodeAudioFrame, encodeAudioFrame, OggOpusWriter } from '@bwc/protocol';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { TerminalConference } from './terminal-conference';
import type { TalkLink } from './terminal-talk';

/**
 * Conference audio of a simulated terminal against scripted notices (the real service:
 * apps/server/src/realtime/console/handlers/conference.test.ts). The clip comes from the cache,
 * written here, so no ffmpeg runs.
 */

const ME = 5;
const TGID = 7;
const cacheDir = mkdtempSync(join(tmpdir(), 'conference-unit-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));
{
  const writer = new OggOpusWriter({ serial: 1 });
  const packets = Array.from({ length: 10 }, (_, i) => Uint8Array.of(0xf8, i, 0x55));
  writeFileSync(
    join(cacheDir, 'tone-440hz-2s.opus'),
    Buffer.concat([writer.header(), ...packets.map((p) => writer.packet(p, 960)), writer.end()]),
  );
}

const participant = (uid: number, terminal: 0 | 1) => ({ uid, ext_id: String(uid), name: `u${uid}`, terminal });
const started = (uids: number[], tgid = TGID) => ({
  msg_code: 'notice_start_video_conf',
  cmd_type: 2,
  tgid,
  tg_name: 'g',
  demander: 100_000_001,
  extdemander: 'itrunk_d',
  participants: [participant(100_000_001, 0), ...uids.map((u) => participant(u, 1))],
  vsid: null,
  started: 1,
  event: 'started',
});
const stopped = {
  msg_code: 'notice_stop_video_conf',
  cmd_type: 2,
  tgid: TGID,
  demander: 1,
  extdemander: 'x',
  reason: 'stopped',
  by: 1,
};
const frameFrom = (uid: number, tgid = TGID, kind: number = AudioKind.CONFERENCE) =>
  encodeAudioFrame({ kind, flags: 0, tgid, uid, seq: 0, clock: 0, opus: Uint8Array.of(0xf8, 1) });

function setup() {
  const sent: Uint8Array[] = [];
  const link: TalkLink = {
    uid: () => ME,
    request: vi.fn(async () => ({ cmd_status: 0 })),
    sendBinary: (frame) => {
      sent.push(frame);
      return true;
    },
  };
  return { sent, conference: new TerminalConference(link, { source: { tone: 440 }, cacheDir }) };
}

describe('a terminal in a conference', () => {
  it('says its clip as conference frames of the group until the conference stops', async () => {
    const { sent, conference } = setup();
    conference.notice(started([ME, 6]));
    await vi.waitFor(() => expect(sent.length).toBeGreaterThanOrEqual(3));
    const frames = sent.map((f) => decodeAudioFrame(f, AudioKind.CONFERENCE)!);
    expect(frames.every((f) => f.tgid === TGID)).toBe(true);
    expect(frames.map((f) => f.seq).slice(0, 3)).toEqual([0, 1, 2]);
    conference.notice(stopped);
    const count = sent.length;
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(sent.length).toBeLessThanOrEqual(count + 1);
    expect(conference.summary()).toMatchObject({ tgid: null, conferences: 1 });
  });

  it("counts what it hears of its conference by sender, and leaves other frames to the others' handlers", () => {
    const { conference } = setup();
    conference.notice(started([ME], TGID));
    expect(conference.binary(frameFrom(6))).toBe(true);
    expect(conference.binary(frameFrom(6))).toBe(true);
    expect(conference.binary(frameFrom(100_000_001))).toBe(true);
    // another group's conference: its kind, not counted
    expect(conference.binary(frameFrom(6, TGID + 1))).toBe(true);
    // group talk or a call: not its frame
    expect(conference.binary(frameFrom(6, TGID, AudioKind.GROUP))).toBe(false);
    expect(conference.summary()).toMatchObject({ framesHeard: 3, heardFrom: { 6: 2, 100000001: 1 } });
    conference.notice(stopped);
  });

  it('ignores a conference it does not take part in', () => {
    const { sent, conference } = setup();
    conference.notice(started([6]));
    expect(conference.summary().tgid).toBeNull();
    expect(sent).toEqual([]);
  });
});
