/** What went wrong in RTP or PS input; every parser here throws or returns only this. */
export type PsErrorCode =
  | 'rtp-truncated'
  | 'rtp-version'
  | 'rtp-padding'
  | 'rtp-too-long'
  | 'rtp-empty'
  | 'ps-truncated'
  | 'ps-start-code'
  | 'ps-marker'
  | 'ps-mpeg1'
  | 'ps-length'
  | 'ps-too-large'
  | 'ps-resync';

export class PsError extends Error {
  constructor(
    readonly code: PsErrorCode,
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = 'PsError';
  }
}
