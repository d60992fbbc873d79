import { type Language } from '@bwc/protocol';
import type { AppError } from '../../../http/errors';
import { t } from '../../../http/i18n';

/** Headers a browser client may read besides tus's own. */
export const EVIDENCE_ITEM_HEADER = 'Evidence-Item';
export const EVIDENCE_ERROR_HEADER = 'Evidence-Error';

/** A refusal in tus's form: status and a text body (tus clients show the response text). */
export class TusRefusal {
  constructor(
    readonly status_code: number,
    readonly body: string,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** HTTP status of an AppError on the tus routes: the envelope code where it is a 4xx, else its own status. */
function statusOf(err: AppError): number {
  if (err.httpStatus !== 200) return err.httpStatus;
  return err.code >= 400 && err.code < 500 ? err.code : 500;
}

/** The translated refusal; `Evidence-Error` carries the catalogue key for clients that translate themselves. */
export function refusal(lang: Language, err: AppError, headers: Record<string, string> = {}): TusRefusal {
  return new TusRefusal(statusOf(err), `${t(lang, err.key, err.params)}\n`, {
    [EVIDENCE_ERROR_HEADER]: err.key,
    ...headers,
  });
}
