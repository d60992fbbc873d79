/**
 * Body codes of the REST envelope `{code, msg, data}`.
 *
 * The HTTP status of an envelope answer is 200 in every case but two:
 * - 406 Not Acceptable is answered (with an envelope body) when the installation's licence has
 *   expired, so that every console is sent to the /406 page whatever screen it is on. Login page
 *   info, registration (`rest/index/unregistered/*`) and logout stay reachable so that an
 *   administrator can register a new code.
 * - unknown non-`rest/` paths under the API prefix answer 404 with an envelope.
 */
export const ResultCode = {
  OK: 200,
  /** invalid input: msg names the field */
  INVALID: 400,
  /** not logged in, session expired or forced offline: the console goes to Login */
  UNAUTHENTICATED: 401,
  /** logged in but the role lacks the menu id / action, or the target is outside the unit scope */
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  /** state conflict: duplicate name, stale edit, ... */
  CONFLICT: 409,
  /** account locked after its own repeated failed logins */
  LOCKED: 423,
  /** too many failed logins from the source address: wait the seconds the msg names (no account is locked) */
  THROTTLED: 429,
  /** installation not registered or licence limit reached */
  UNREGISTERED: 460,
  /** captcha wrong or expired */
  CAPTCHA: 461,
  /** signature of a login payload is wrong or stale */
  SIGNATURE: 462,
  /** unexpected failure; msg carries a request id, never a stack */
  SERVER_ERROR: 500,
} as const;
export type ResultCode = (typeof ResultCode)[keyof typeof ResultCode];

/** HTTP status that sends the console to /406 (see above). */
export const HTTP_STATUS_NOT_ACCEPTABLE = 406;

/** Session heartbeat answer states (spec part 1 section 4). */
export const HeartbeatState = { SUCCESS: 'success', ERROR: 'error', FAIL: 'fail' } as const;
export type HeartbeatState = (typeof HeartbeatState)[keyof typeof HeartbeatState];
