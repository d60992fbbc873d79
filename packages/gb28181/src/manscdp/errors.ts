/** Why a MANSCDP body or a PTZ command was refused. */
export type ManscdpErrorCode =
  'too_large' | 'encoding' | 'doctype' | 'entity' | 'malformed' | 'too_deep' | 'too_many' | 'root' | 'invalid' | 'ptz';

/** The one error the MANSCDP layer throws; `field` names the element at fault where there is one. */
export class ManscdpError extends Error {
  constructor(
    readonly code: ManscdpErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(field ? `${code}: ${field}: ${message}` : `${code}: ${message}`);
    this.name = 'ManscdpError';
  }
}
