import { describe, expect, it } from 'vitest';
import { JitterBuffer, type Placement } from './jitterBuffer';

const at = (p: Placement) => (p.kind === 'play' ? p.at : p.kind);

/** Frames `from`..`to` arriving every 20 ms from `start`, each `jitter(seq)` ms late. */
function feed(
  buffer: JitterBuffer,
  from: number,
  to: number,
  start: number,
  jitter: (seq: number) => number = () => 0,
) {
  const out: (number | string)[] = [];
  for (let seq = from; seq <= to; seq++)
    out.push(at(buffer.place(seq & 0xffff, start + (seq - from) * 20 + jitter(seq))));
  return out;
}

describe('talk jitter buffer', () => {
  it('plays a steady burst 60 ms after its first frame, back to back', () => {
    const buffer = new JitterBuffer();
    expect(feed(buffer, 0, 4, 1000)).toEqual([1060, 1080, 1100, 1120, 1140]);
    expect(buffer.bufferMs).toBe(60);
    expect([buffer.played, buffer.late, buffer.lost, buffer.delayMs]).toEqual([5, 0, 0, 60]);
  });

  it('absorbs jitter within the delay without moving anything', () => {
    const buffer = new JitterBuffer();
    const plays = feed(buffer, 0, 9, 0, (seq) => (seq % 3 === 1 ? 45 : 0));
    expect(plays).toEqual([60, 80, 100, 120, 140, 160, 180, 200, 220, 240]);
    expect(buffer.underruns).toBe(0);
    // the frames that came 45 ms late had 15 ms to spare
    expect(buffer.bufferMs).toBe(60);
  });

  it('grows the delay on an underrun and plays the late frame after a short silence', () => {
    const buffer = new JitterBuffer();
    const plays = feed(buffer, 0, 5, 0, (seq) => (seq >= 3 ? 70 : 0));
    // frame 3 was due at 120 and came at 130: it plays at 130 + 5 + 20, the rest follow it
    expect(plays).toEqual([60, 80, 100, 155, 175, 195]);
    expect([buffer.late, buffer.underruns, buffer.delayMs]).toEqual([1, 1, 80]);
    // the next burst starts with the grown delay
    expect(at(buffer.place(0, 5_000))).toBe(5_080);
  });

  it('never grows beyond its maximum', () => {
    const buffer = new JitterBuffer({ maxMs: 100 });
    feed(buffer, 0, 20, 0, (seq) => seq * 30);
    expect(buffer.delayMs).toBe(100);
  });

  it('counts frames never seen as lost, fills a gap with a frame still on time and drops one too late', () => {
    const buffer = new JitterBuffer();
    expect(at(buffer.place(0, 0))).toBe(60);
    expect(at(buffer.place(3, 60))).toBe(120);
    expect(buffer.lost).toBe(2);
    // frame 1 comes after frame 3 and its place (80) is still ahead: it fills the gap
    expect(at(buffer.place(1, 61))).toBe(80);
    expect(buffer.lost).toBe(1);
    // frame 2's place (100) has passed: late, dropped
    expect(at(buffer.place(2, 101))).toBe('late');
    // a duplicate is dropped too
    expect(at(buffer.place(3, 102))).toBe('late');
    expect([buffer.played, buffer.late, buffer.lost]).toEqual([3, 2, 1]);
  });

  it('follows the sequence number across its wrap', () => {
    const buffer = new JitterBuffer();
    expect(feed(buffer, 65_534, 65_537, 0)).toEqual([60, 80, 100, 120]);
    expect(buffer.lost).toBe(0);
  });

  it('starts a new burst after silence or when the sequence starts over', () => {
    const buffer = new JitterBuffer();
    feed(buffer, 0, 99, 0);
    // the same talker presses again at once: sequence 0 again, 2 s of talk earlier
    expect(at(buffer.place(0, 2_000))).toBe(2_060);
    // silence: the next frame starts a burst of its own
    expect(at(buffer.place(7, 3_000))).toBe(3_060);
    expect(buffer.bursts).toBe(3);
    expect(buffer.lost).toBe(0);
  });

  it('shrinks a delay grown too long slowly, one frame at a time, not below its minimum', () => {
    const buffer = new JitterBuffer({ shrinkWindowMs: 1_000 });
    // a bad moment grows the delay to 120 ms
    feed(buffer, 0, 4, 0, (seq) => (seq === 1 ? 70 : seq === 2 ? 150 : 0));
    expect(buffer.delayMs).toBe(100);
    // then 10 s of frames exactly on time
    const plays = feed(buffer, 5, 504, 100);
    const skips = plays.filter((p) => p === 'skip').length;
    // three frames shrink the delay; the others catch up the lag the late frames left behind
    expect(skips).toBeGreaterThanOrEqual(3);
    expect(buffer.delayMs).toBe(40);
    expect(buffer.bufferMs).toBeLessThanOrEqual(buffer.delayMs + 20);
    // what plays stays back to back: every gap is one frame, or two where one was left out
    const times = plays.filter((p): p is number => typeof p === 'number');
    const gaps = new Set(times.slice(1).map((t, i) => t - times[i]!));
    expect([...gaps].sort()).toEqual([20]);
    expect(buffer.bufferMs).toBeGreaterThanOrEqual(40);
  });

  it('catches up after a stall: the burst is not heard late for the rest of it', () => {
    const buffer = new JitterBuffer();
    feed(buffer, 0, 49, 0);
    expect(buffer.bufferMs).toBe(60);
    // the page stalls 300 ms: frames 50 to 64 come at once, late; the burst moves later
    for (let seq = 50; seq < 65; seq++) buffer.place(seq, 1_300);
    const behind = buffer.bufferMs;
    expect(behind).toBeGreaterThan(buffer.delayMs + 100);
    // then frames on time again: within 3 s the lag is gone, at most 5 frames left out each half second
    const plays = feed(buffer, 65, 215, 1_300);
    expect(buffer.bufferMs).toBeLessThanOrEqual(buffer.delayMs + 20);
    const skips = plays.filter((p) => p === 'skip').length;
    expect(skips).toBeGreaterThan(0);
    expect(skips).toBeLessThanOrEqual(6 * 5 + 1);
    // and what plays stays back to back
    const times = plays.filter((p): p is number => typeof p === 'number');
    expect(new Set(times.slice(1).map((t, i) => t - times[i]!))).toEqual(new Set([20]));
  });
});
