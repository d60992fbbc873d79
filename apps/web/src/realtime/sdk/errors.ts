import { SdkCode, sdkMessageKey } from '@bwc/protocol';
import { translateKey } from '../../i18n';

/**
 * An SDK failure (spec part 1 section 8): its SDK code, the description in the console's language
 * (10001: the failed response's error_reason when it has one), and the response's cmd_status.
 */
export class SdkError extends Error {
  constructor(
    readonly code: SdkCode,
    message: string,
    readonly cmdStatus?: number,
  ) {
    super(message);
    this.name = 'SdkError';
  }
}

/** The description of an SDK code in the current language. */
export const sdkText = (code: SdkCode): string => translateKey(sdkMessageKey(code));

export function sdkError(code: SdkCode, reason?: string, cmdStatus?: number): SdkError {
  const text = code === SdkCode.FAILURE && reason ? reason : sdkText(code);
  return new SdkError(code, text, cmdStatus);
}
