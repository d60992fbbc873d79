/** Why an SDP body was refused or an SSRC could not be given; the SDP code throws only this. */
export type SdpErrorCode =
  | 'too-large' // body, line or count over a limit
  | 'malformed' // a line that is not `<letter>=<value>`, or a field out of shape
  | 'missing' // a mandatory line (v, o, s, c, t, m) absent
  | 'invalid' // a value out of range (port, address, SSRC, payload type)
  | 'ssrc-exhausted'; // all 10,000 SSRCs of a kind are open

export class SdpError extends Error {
  constructor(
    readonly code: SdpErrorCode,
    message: string,
    /** the SDP line type (`m`, `y`, ...) at fault, where there is one */
    readonly line?: string,
  ) {
    super(line ? `${code}: ${line}=: ${message}` : `${code}: ${message}`);
    this.name = 'SdpError';
  }
}
