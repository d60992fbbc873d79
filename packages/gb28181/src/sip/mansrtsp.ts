// the limits alone: the protocol's index brings its JSON catalogues, which some loaders (Playwright's) refuse
import { GB_PLAYBACK_MAX_S, GB_PLAYBACK_SCALES, type GbPlaybackScale } from '@bwc/protocol/limits';

/**
 * MANSRTSP (GB/T 28181-2016 9.8.2, Appendix B): the playback controls a platform sends in an INFO
 * of the playback's dialog, body type Application/MANSRTSP. PAUSE stops the device's stream at
 * its current point (`PauseTime: now`); PLAY with `Range: npt=now-` resumes from there, with
 * `Range: npt=<s>-` plays from `s` seconds past the playback's start (a seek), with `Scale: <x>`
 * plays at x times real time. Requests are written with `RTSP/1.0`, as devices in the field take
 * them; `MANSRTSP/1.0` is read too.
 */
export const MANSRTSP_CONTENT_TYPE = 'Application/MANSRTSP';

/** What a control asks of the device (a seek or a speed is a PLAY, so it also ends a pause). */
export type MansrtspControl =
  | { command: 'pause' }
  | { command: 'resume' }
  /** play from `offset` seconds past the playback's start time */
  | { command: 'seek'; offset: number }
  /** play at `scale` times real time */
  | { command: 'speed'; scale: GbPlaybackScale };

export type MansrtspCommand = MansrtspControl['command'];

export type MansrtspRequest = MansrtspControl & { cseq: number };

/** Is `x` one of the speeds a playback may be set to (GB_PLAYBACK_SCALES)? */
export function isPlaybackScale(x: number): x is GbPlaybackScale {
  return (GB_PLAYBACK_SCALES as readonly number[]).includes(x);
}

/** A seek offset must be a time within a playback: finite, not negative, at most GB_PLAYBACK_MAX_S. */
function checkOffset(offset: number, text: string): void {
  if (!Number.isFinite(offset) || offset < 0) throw new RangeError(`MANSRTSP Range npt=${text}- is not a time`);
  if (offset > GB_PLAYBACK_MAX_S)
    throw new RangeError(`MANSRTSP Range npt=${text}- is past ${GB_PLAYBACK_MAX_S} s (the longest playback)`);
}

function checkScale(scale: number, text: string): asserts scale is GbPlaybackScale {
  if (!isPlaybackScale(scale))
    throw new RangeError(`MANSRTSP Scale ${text} is not one of ${GB_PLAYBACK_SCALES.join(', ')}`);
}

/** The body of an INFO asking for `control`. */
export function buildMansrtsp(control: MansrtspControl, cseq: number): string {
  if (!Number.isInteger(cseq) || cseq < 0 || cseq > 0xffffffff) throw new RangeError(`MANSRTSP CSeq ${cseq}`);
  const head = (method: string) => `${method} RTSP/1.0\r\nCSeq: ${cseq}\r\n`;
  switch (control.command) {
    case 'pause':
      return `${head('PAUSE')}PauseTime: now\r\n`;
    case 'resume':
      return `${head('PLAY')}Range: npt=now-\r\n`;
    case 'seek':
      checkOffset(control.offset, String(control.offset));
      return `${head('PLAY')}Range: npt=${control.offset}-\r\n`;
    case 'speed':
      checkScale(control.scale, String(control.scale));
      // written as WVP writes it: 1.0, 2.0, 0.25
      return `${head('PLAY')}Scale: ${Number.isInteger(control.scale) ? control.scale.toFixed(1) : control.scale}\r\n`;
  }
}

/** Bodies longer than this are not MANSRTSP. */
const MAX_BODY = 1024;

/**
 * Reads an INFO body: PAUSE; PLAY resuming from the pause point (no Range, or `npt=now-`), seeking
 * (`npt=<s>-`) or setting the speed (`Scale`, with no Range or `npt=now-`). Throws a RangeError
 * naming what is wrong otherwise (other methods, a Range that is not a time in a playback, a
 * speed not offered, a seek and a speed in one PLAY).
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
  let offset: number | null = null;
  if (range !== undefined && !/^npt\s*=\s*now\s*-$/i.test(range)) {
    const npt = /^npt\s*=\s*(\S+?)\s*-$/i.exec(range);
    if (!npt) throw new RangeError(`MANSRTSP Range ${range.slice(0, 60)}`);
    const text = npt[1]!.slice(0, 30);
    offset = /^\d+(?:\.\d+)?$/.test(npt[1]!) ? Number(npt[1]) : NaN;
    checkOffset(offset, text);
  }
  const scaleText = headers.get('scale');
  if (scaleText !== undefined) {
    if (offset !== null) throw new RangeError('MANSRTSP Range and Scale in one PLAY');
    const scale = scaleText === '' ? NaN : Number(scaleText);
    checkScale(scale, scaleText.slice(0, 30));
    return { command: 'speed', scale, cseq };
  }
  return offset === null ? { command: 'resume', cseq } : { command: 'seek', offset, cseq };
}
