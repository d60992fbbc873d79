import { describe, expect, it } from 'vitest';
import { buildMansrtsp, parseMansrtsp } from './mansrtsp';

describe('MANSRTSP playback controls', () => {
  it('writes PAUSE and PLAY as GB/T 28181-2016 Appendix B shows them and reads them back', () => {
    expect(buildMansrtsp('pause', 2)).toBe('PAUSE RTSP/1.0\r\nCSeq: 2\r\nPauseTime: now\r\n');
    expect(buildMansrtsp('resume', 3)).toBe('PLAY RTSP/1.0\r\nCSeq: 3\r\nRange: npt=now-\r\n');
    expect(parseMansrtsp(buildMansrtsp('pause', 2))).toEqual({ command: 'pause', cseq: 2 });
    expect(parseMansrtsp(buildMansrtsp('resume', 3))).toEqual({ command: 'resume', cseq: 3 });
    // MANSRTSP/1.0, bare LF and a PLAY without Range (resume at the pause point) are read too
    expect(parseMansrtsp('PLAY MANSRTSP/1.0\nCSeq: 9\n')).toEqual({ command: 'resume', cseq: 9 });
    expect(parseMansrtsp('PLAY MANSRTSP/1.0\r\nCSeq: 4\r\nScale: 1.0\r\n')).toEqual({ command: 'resume', cseq: 4 });
  });

  it('refuses what it does not do, naming it', () => {
    expect(() => parseMansrtsp('TEARDOWN RTSP/1.0\r\nCSeq: 1\r\n')).toThrow(/request line/);
    expect(() => parseMansrtsp('PLAY RTSP/1.0\r\nRange: npt=now-\r\n')).toThrow(/CSeq missing/);
    expect(() => parseMansrtsp('PLAY RTSP/1.0\r\nCSeq: 5\r\nRange: npt=100-\r\n')).toThrow(/Range npt=100-/);
    expect(() => parseMansrtsp('PLAY RTSP/1.0\r\nCSeq: 5\r\nScale: 2.0\r\n')).toThrow(/Scale/);
    expect(() => parseMansrtsp('PAUSE RTSP/1.0\r\nCSeq: 5\r\nbroken\r\n')).toThrow(/header/);
    expect(() => parseMansrtsp('x'.repeat(2000))).toThrow(/over 1024/);
    expect(() => buildMansrtsp('pause', -1)).toThrow(RangeError);
  });
});
