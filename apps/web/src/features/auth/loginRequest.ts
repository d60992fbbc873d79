import { encodeLoginInfo, hashPasswordForLogin, signPayload, type LoginRequest } from '@bwc/protocol';

export interface LoginFormValues {
  username: string;
  password: string;
  captcha_code: string;
}

/** Browser environment signals kept with the login record: user agent, screen, time zone. */
export function collectPeSignals(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return JSON.stringify({
    ua: navigator.userAgent,
    screen: `${window.screen.width}x${window.screen.height}`,
    tz: zone,
  }).slice(0, 2048);
}

/**
 * The signed LoginRequest: login_info = encodeLoginInfo(username, sha256(password)), the captcha
 * token, pe_signals, timestamp (ms) and signature = signPayload(all other fields).
 */
export function buildLoginRequest(
  values: LoginFormValues,
  captchaToken: string,
  now: number = Date.now(),
  peSignals: string = collectPeSignals(),
): LoginRequest {
  const unsigned = {
    login_info: encodeLoginInfo(values.username.trim(), hashPasswordForLogin(values.password)),
    token: captchaToken,
    captcha_code: values.captcha_code.trim(),
    pe_signals: peSignals,
    timestamp: now,
  };
  return { ...unsigned, signature: signPayload(unsigned) };
}
