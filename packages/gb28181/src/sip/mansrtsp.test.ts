import { describe, expect, it } from 'vitest';
import { buildMansrtsp, parseMansrtsp } from './mansrtsp';

const play = (header: string) => `PLAY RTSP/1.0\r\nCSeq: 5\r\n${header}\r\n`;

describe('MANSRTSP playback controls', () => {
  it('writes PAUSE and PLAY as GB/T 28181-2016 Appendix B shows them and reads them back', () => {
    expect(buildMansrtsp({ command: 'pause' }, 2)).toBe('PAUSE RTSP/1.0\r\nCSeq: 2\r\nPauseTime: now\r\n');
    expect(buildMansrtsp({ command: 'resume' }, 3)).toBe('PLAY RTSP/1.0\r\nCSeq: 3\r\nRange: npt=now-\r\n');
    expect(parseMansrtsp(buildMansrtsp({ command: 'pause' }, 2))).toEqual({ command: 'pause', cseq: 2 });
    expect(parseMansrtsp(buildMansrtsp({ command: 'resume' }, 3))).toEqual({ command: 'resume', cseq: 3 });
    // MANSRTSP/1.0, bare LF and a PLAY without Range (resume at the pause point) are read too
    expect(parseMansrtsp('PLAY MANSRTSP/1.0\nCSeq: 9\n')).toEqual({ command: 'resume', cseq: 9 });
  });

  it('writes and reads a seek (Range: npt=<seconds>-) and a speed (Scale) as WVP sends them', () => {
    expect(buildMansrtsp({ command: 'seek', offset: 125 }, 4)).toBe('PLAY RTSP/1.0\r\nCSeq: 4\r\nRange: npt=125-\r\n');
    expect(buildMansrtsp({ command: 'seek', offset: 0 }, 4)).toBe('PLAY RTSP/1.0\r\nCSeq: 4\r\nRange: npt=0-\r\n');
    expect(buildMansrtsp({ command: 'speed', scale: 2 }, 6)).toBe('PLAY RTSP/1.0\r\nCSeq: 6\r\nScale: 2.0\r\n');
    expect(buildMansrtsp({ command: 'speed', scale: 0.25 }, 7)).toBe('PLAY RTSP/1.0\r\nCSeq: 7\r\nScale: 0.25\r\n');
    expect(parseMansrtsp(buildMansrtsp({ command: 'seek', offset: 125 }, 4))).toEqual({
      command: 'seek',
      offset: 125,
      cseq: 4,
    });
    for (const scale of [0.25, 0.5, 1, 2, 4] as const)
      expect(parseMansrtsp(buildMansrtsp({ command: 'speed', scale }, 8))).toEqual({
        command: 'speed',
        scale,
        cseq: 8,
      });
    // fractional npt, spaces, 'Scale: 1.000000' with 'Range: npt=now-' (speed at the current point)
    expect(parseMansrtsp(play('Range: npt = 12.5 -'))).toEqual({ command: 'seek', offset: 12.5, cseq: 5 });
    expect(parseMansrtsp(play('Range: npt=now-\r\nScale: 1.000000'))).toEqual({ command: 'speed', scale: 1, cseq: 5 });
  });

  it('refuses what it does not do, naming it', () => {
    expect(() => parseMansrtsp('TEARDOWN RTSP/1.0\r\nCSeq: 1\r\n')).toThrow(/request line/);
    expect(() => parseMansrtsp('PLAY RTSP/1.0\r\nRange: npt=now-\r\n')).toThrow(/CSeq missing/);
    expect(() => parseMansrtsp('PAUSE RTSP/1.0\r\nCSeq: 5\r\nbroken\r\n')).toThrow(/header/);
    expect(() => parseMansrtsp('x'.repeat(2000))).toThrow(/over 1024/);
    expect(() => buildMansrtsp({ command: 'pause' }, -1)).toThrow(RangeError);
  });

  it('refuses a Range that is not a time in a playback and a speed not offered', () => {
    expect(() => parseMansrtsp(play('Range: npt=-5-'))).toThrow(/npt=-5- is not a time/);
    expect(() => parseMansrtsp(play('Range: npt=abc-'))).toThrow(/npt=abc- is not a time/);
    expect(() => parseMansrtsp(play('Range: npt=NaN-'))).toThrow(/npt=NaN- is not a time/);
    expect(() => parseMansrtsp(play('Range: npt=1e3-'))).toThrow(/not a time/);
    expect(() => parseMansrtsp(play('Range: npt=604801-'))).toThrow(/past 604800 s/);
    expect(() => parseMansrtsp(play('Range: npt=10-20'))).toThrow(/Range npt=10-20/);
    expect(() => parseMansrtsp(play('Range: clock=20260101T000000Z-'))).toThrow(/Range clock=/);
    expect(() => parseMansrtsp(play('Scale: 3'))).toThrow(/Scale 3 is not one of 0.25, 0.5, 1, 2, 4/);
    expect(() => parseMansrtsp(play('Scale: -1'))).toThrow(/Scale -1/);
    expect(() => parseMansrtsp(play('Scale: fast'))).toThrow(/Scale fast/);
    expect(() => parseMansrtsp(play('Scale:'))).toThrow(/Scale/);
    expect(() => parseMansrtsp(play('Range: npt=10-\r\nScale: 2.0'))).toThrow(/Range and Scale in one PLAY/);
    expect(() => buildMansrtsp({ command: 'seek', offset: -1 }, 1)).toThrow(/not a time/);
    expect(() => buildMansrtsp({ command: 'seek', offset: NaN }, 1)).toThrow(/not a time/);
    expect(() => buildMansrtsp({ command: 'seek', offset: 10 * 86_400 }, 1)).toThrow(/past/);
    expect(() => buildMansrtsp({ command: 'speed', scale: 3 as never }, 1)).toThrow(/Scale 3/);
  });
});
