import { HTTP_STATUS_NOT_ACCEPTABLE, ResultCode, type Action } from '@bwc/protocol';

export type MsgParams = Record<string, string | number>;

/**
 * The one error type of the server: an envelope `code`, an i18n key of the shared catalogues
 * (`errors.*` / `validation.*`) and its params. Param values that are themselves catalogue keys
 * (`errors.what.user`) are translated too. `httpStatus` stays 200 except for the two cases of
 * protocol codes.ts (406 licence expired, 404 unknown route).
 */
export class AppError extends Error {
  constructor(
    readonly code: number,
    readonly key: string,
    readonly params: MsgParams = {},
    readonly httpStatus = 200,
  ) {
    super(key);
    this.name = 'AppError';
  }
}

/** Invalid input: the msg names the field (`validation.field`). */
export class FieldError extends AppError {
  constructor(
    readonly field: string,
    messageKey: string,
    messageParams: MsgParams = {},
  ) {
    super(ResultCode.INVALID, 'validation.field', { field, message: messageKey, ...messageParams });
    this.name = 'FieldError';
  }
}

export type NotFoundWhat = 'announcement' | 'download' | 'user' | 'file' | 'unit' | 'role' | 'dictEntry' | 'dictType';

/** Factories for every error a route may raise; prefer these over `new AppError`. */
export const Errors = {
  unauthenticated: () => new AppError(ResultCode.UNAUTHENTICATED, 'errors.unauthenticated'),
  sessionExpired: () => new AppError(ResultCode.UNAUTHENTICATED, 'errors.sessionExpired'),
  forcedOffline: () => new AppError(ResultCode.UNAUTHENTICATED, 'errors.forcedOffline'),
  forbidden: (menu: number, action: Action) =>
    new AppError(ResultCode.FORBIDDEN, 'errors.forbidden', { menu, action: `errors.actions.${action}` }),
  adminOnly: () => new AppError(ResultCode.FORBIDDEN, 'errors.adminOnly'),
  outOfScope: () => new AppError(ResultCode.FORBIDDEN, 'errors.outOfScope'),
  notFound: (what: NotFoundWhat) =>
    new AppError(ResultCode.NOT_FOUND, 'errors.notFound', { what: `errors.what.${what}` }),
  routeNotFound: (path: string) => new AppError(ResultCode.NOT_FOUND, 'errors.routeNotFound', { path }, 404),
  field: (field: string, messageKey: string, params: MsgParams = {}) => new FieldError(field, messageKey, params),
  invalid: (key: string, params: MsgParams = {}) => new AppError(ResultCode.INVALID, key, params),
  badJson: () => new AppError(ResultCode.INVALID, 'errors.badJson'),
  badBody: () => new AppError(ResultCode.INVALID, 'errors.badBody'),
  tooLarge: () => new AppError(ResultCode.INVALID, 'errors.tooLarge'),
  conflict: (key: string, params: MsgParams = {}) => new AppError(ResultCode.CONFLICT, key, params),
  locked: (minutes: number) => new AppError(ResultCode.LOCKED, 'errors.login.locked', { minutes }),
  throttled: (seconds: number) => new AppError(ResultCode.THROTTLED, 'errors.login.throttled', { seconds }),
  licence: (key: string, params: MsgParams = {}) => new AppError(ResultCode.UNREGISTERED, key, params),
  alreadyRegistered: () => new AppError(ResultCode.FORBIDDEN, 'errors.licence.alreadyRegistered'),
  captcha: (key: 'errors.captcha.wrong' | 'errors.captcha.expired') => new AppError(ResultCode.CAPTCHA, key),
  signature: () => new AppError(ResultCode.SIGNATURE, 'errors.signature'),
  /** licence expired: HTTP 406 sends every console to /406 */
  notAcceptable: () => new AppError(HTTP_STATUS_NOT_ACCEPTABLE, 'errors.notAcceptable', {}, HTTP_STATUS_NOT_ACCEPTABLE),
  server: (requestId: string) => new AppError(ResultCode.SERVER_ERROR, 'errors.server', { requestId }),
};
