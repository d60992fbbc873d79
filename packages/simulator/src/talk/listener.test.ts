import { AudioKind, encodeAudioFrame, readOggOpusPackets } from '@bwc/protocol';
import { describe, expect, it } from 'vitest';
import { TalkListener } from './listener';

const opus = (n: number) => Uint8Array.of(0xf8, n & 0xff, 7);
const frame = (tgid: number, uid: number, seq: number, flags = 0) =>
  encodeAudioFrame({ kind: AudioKind.GROUP, flags, tgid, uid, seq, clock: 0, opus: opus(seq) });

function listener(keepPackets = false) {
  let now = 1_000;
  const l = new TalkListener({ listensTo: (tgid) => tgid === 31 || tgid === 32, keepPackets, now: () => (now += 20) });
  return l;
}

describe('TalkListener', () => {
  it('counts frames per group and per talker, the lost ones from the gaps of the sequence numbers', () => {
    const l = listener();
    for (const seq of [0, 1, 2, 5, 6, 9]) l.receive(frame(31, 7, seq));
    for (const seq of [0, 1]) l.receive(frame(32, 8, seq));
    expect(l.stats).toMatchObject({ frames: 8, lost: 4, bursts: 2, invalid: 0, foreign: 0 });
    expect(l.stats.groups[31]).toEqual({ frames: 6, bytes: 18, lost: 4, bursts: 1, talkers: { 7: 6 } });
    expect(l.stats.groups[32]).toMatchObject({ frames: 2, lost: 0, talkers: { 8: 2 } });
    expect(l.lastBurst(31)).toMatchObject({ uid: 7, frames: 6, lost: 4, lastSeq: 9 });
    expect(l.lastBurst()).toMatchObject({ tgid: 32, uid: 8 });
  });

  it('starts a new burst with a new talker or a sequence starting again, counting the frames missed at its start', () => {
    const l = listener();
    for (const seq of [0, 1, 2]) l.receive(frame(31, 7, seq));
    for (const seq of [3, 4]) l.receive(frame(31, 9, seq));
    for (const seq of [0, 1]) l.receive(frame(31, 7, seq));
    expect(l.stats.groups[31]).toMatchObject({ frames: 7, bursts: 3, lost: 3, talkers: { 7: 5, 9: 2 } });
    expect(l.lastBurst(31)).toMatchObject({ uid: 7, frames: 2, lost: 0 });
  });

  it('counts across the wrap of the sequence number', () => {
    const l = listener();
    for (const seq of [65_534, 65_535, 1]) l.receive(frame(31, 7, seq));
    expect(l.lastBurst(31)).toMatchObject({ frames: 3, lost: 1 });
  });

  it('sets apart frames that do not decode and frames of groups it does not listen to', () => {
    const l = listener();
    expect(l.receive(new Uint8Array(10))).toBeNull();
    expect(l.receive(Uint8Array.of(2, ...new Uint8Array(17)))).toBeNull();
    expect(l.receive(frame(33, 7, 0))).toBeNull();
    expect(l.receive(frame(31, 7, 0, 1))).toMatchObject({ tgid: 31, uid: 7, flags: 1 });
    expect(l.stats).toMatchObject({ frames: 1, invalid: 2, foreign: 1 });
    expect(l.lastBurst(31)?.emergency).toBe(true);
  });

  it('keeps the last burst of a group as an Ogg Opus file when asked to', () => {
    expect(listener(false).lastBurstOgg()).toBeNull();
    const l = listener(true);
    for (const seq of [0, 1, 2]) l.receive(frame(31, 7, seq));
    for (const seq of [0, 1, 3]) l.receive(frame(31, 7, seq));
    const stream = readOggOpusPackets(l.lastBurstOgg(31)!);
    expect(stream.packets).toEqual([opus(0), opus(1), opus(3)]);
    expect(stream.granule).toBe(3 * 960);
    expect(l.lastBurst(31)).toMatchObject({ firstAt: 1_080, lastAt: 1_120 });
  });
});
