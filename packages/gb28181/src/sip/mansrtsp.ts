/**
 * MANSRTSP (GB/T 28181-2016 9.8.2, Appendix B): the playback controls a platform sends in an INFO
 * of the playback's dialog, body type Application/MANSRTSP. PAUSE stops the device's stream at
 * its current point (`PauseTime: now`); PLAY with `Range: npt=now-` resumes from there. Requests
 * are written with `RTSP/1.0`, as devices in the field take them; `MANSRTSP/1.0` is read too.
 */
export const MANSRTSP_CONTENT_TYPE = 'Application/MANSRTSP';

export type MansrtspCommand = 'pause' | 'resume';

export interface MansrtspRequest {
  command: MansrtspCommand;
  cseq: number;
}

/** The body of an INFO asking for `command`. */
export function buildMansrtsp(command: MansrtspCommand, cseq: number): string {
  if (!Number.isInteger(cseq) || cseq < 0 || cseq > 0xffffffff) throw new RangeError(`MANSRTSP CSeq ${cseq}`);
  return command === 'pause'
    ? `PAUSE RTSP/1.0\r\nCSeq: ${cseq}\r\nPauseTime: now\r\n`
    : `PLAY RTSP/1.0\r\nCSeq: ${cseq}\r\nRange: npt=now-\r\n`;
}

/** Bodies longer than this are not MANSRTSP. */
const MAX_BODY = 1024;

/**
 * Reads an INFO body: PAUSE, or PLAY resuming from the pause point (no Range, or `npt=now-`).
 * Throws a RangeError naming what is wrong otherwise (other methods, seeks and speeds included).
 */
export function parseMansrtsp(body: string): MansrtspRequest {
  if (body.length > MAX_BODY) throw new RangeError(`MANSRTSP body over ${MAX_BODY} bytes`);
  const [first = '', ...rest] = body.split(/\r?\n/);
  const line = /^(PLAY|PAUSE) (?:MANS)?RTSP\/1\.0$/i.exec(first.trim());
  if (!line) throw new RangeError(`MANSRTSP request line: ${first.slice(0, 60)}`);
  const headers = new Map<string, string>();
  for (const h of rest) {
    if (!h.trim()) continue;
    const at = h.indexOf(':');
    if (at <= 0) throw new RangeError(`MANSRTSP header: ${h.slice(0, 60)}`);
    headers.set(h.slice(0, at).trim().toLowerCase(), h.slice(at + 1).trim());
  }
  const cseq = Number(headers.get('cseq'));
  if (!headers.has('cseq') || !Number.isInteger(cseq) || cseq < 0) throw new RangeError('MANSRTSP CSeq missing');
  if (line[1]!.toUpperCase() === 'PAUSE') return { command: 'pause', cseq };
  const range = headers.get('range');
  if (headers.has('scale') && Number(headers.get('scale')) !== 1)
    throw new RangeError('MANSRTSP Scale is not supported');
  if (range !== undefined && !/^npt\s*=\s*now\s*-$/i.test(range)) throw new RangeError(`MANSRTSP Range ${range}`);
  return { command: 'resume', cseq };
}
