/**
 * Realtime SDK result codes (spec part 1 section 8). Descriptions live in the shared i18n
 * catalogues under `sdk.<code>` (zh-CN canonical, en-US complete); 10001's description is the
 * error_reason of the failed response when it has one.
 */
export const SdkCode = {
  SUCCESS: 10000,
  FAILURE: 10001,
  EXCEPTION: 10002,
  WS_INIT_FAILED: 10101,
  VUE_INIT_FAILED: 10102,
  VIEW_INIT_FAILED: 10103,
  NOT_LOGGED_IN: 10104,
  ALREADY_LOGGED_IN: 10105,
  INIT_NOT_EXECUTED: 10106,
  INIT_NOT_FINISHED: 10107,
} as const;
export type SdkCode = (typeof SdkCode)[keyof typeof SdkCode];
export const SDK_CODES = Object.values(SdkCode);

/** i18n key of an SDK code's description. */
export const sdkMessageKey = (code: SdkCode): string => `sdk.${code}`;
