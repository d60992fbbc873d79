import { CmdStatus, ResultCode } from '@bwc/protocol';
import { type AppError, type MsgParams } from '../../http/errors';

/**
 * The one error of a console-service handler: a cmd_status and a key of the shared catalogues
 * (`console.*`, `validation.*`, `errors.*`) with its params; the dispatcher answers it as the
 * response's cmd_status and error_reason in the connection's language. Nothing is stored when a
 * handler throws before its write.
 */
export class ConsoleError extends Error {
  constructor(
    readonly status: number,
    readonly key: string,
    readonly params: MsgParams = {},
  ) {
    super(key);
    this.name = 'ConsoleError';
  }
}

const list = (ids: (number | string)[]) => ids.join(', ');

/** Factories for the errors handlers raise; prefer these over `new ConsoleError`. */
export const ConsoleErrors = {
  badJson: () => new ConsoleError(CmdStatus.BAD_JSON, 'console.badJson'),
  missingCode: () => new ConsoleError(CmdStatus.UNKNOWN_CODE, 'console.missingCode'),
  unknownCode: (code: string) => new ConsoleError(CmdStatus.UNKNOWN_CODE, 'console.unknownCode', { code }),
  tooLarge: (size: number, max: number) => new ConsoleError(CmdStatus.TOO_LARGE, 'console.tooLarge', { size, max }),
  badCmdType: () => new ConsoleError(CmdStatus.BAD_CMD_TYPE, 'console.badCmdType'),
  /** a field fails its schema: `validation.field` names it */
  field: (field: string, messageKey: string, params: MsgParams = {}) =>
    new ConsoleError(CmdStatus.BAD_PAYLOAD, 'validation.field', { field, message: messageKey, ...params }),
  notLoggedOn: () => new ConsoleError(CmdStatus.NOT_LOGGED_ON, 'console.notLoggedOn'),
  alreadyLoggedOn: () => new ConsoleError(CmdStatus.ALREADY_LOGGED_ON, 'console.alreadyLoggedOn'),
  badCredentials: () => new ConsoleError(CmdStatus.BAD_CREDENTIALS, 'console.badCredentials'),
  forbidden: (menus: readonly number[], action: string) =>
    new ConsoleError(CmdStatus.FORBIDDEN, 'console.forbidden', {
      menus: menus.join(' / '),
      action: `errors.actions.${action}`,
    }),
  consoleOnly: (code: string) => new ConsoleError(CmdStatus.WRONG_CLIENT, 'console.consoleOnly', { code }),
  terminalOnly: (code: string) => new ConsoleError(CmdStatus.WRONG_CLIENT, 'console.terminalOnly', { code }),
  /** refused for a reason the key names (another user's password, ...) */
  refused: (key: string, params: MsgParams = {}) => new ConsoleError(CmdStatus.FORBIDDEN, key, params),
  outOfScope: (ids: (number | string)[]) =>
    new ConsoleError(CmdStatus.FORBIDDEN, 'console.outOfScope', { ids: list(ids) }),
  userNotFound: (ids: (number | string)[]) =>
    new ConsoleError(CmdStatus.NOT_FOUND, 'console.userNotFound', { ids: list(ids) }),
  notFound: (key: string, params: MsgParams = {}) => new ConsoleError(CmdStatus.NOT_FOUND, key, params),
  conflict: (key: string, params: MsgParams = {}) => new ConsoleError(CmdStatus.CONFLICT, key, params),
  invalid: (key: string, params: MsgParams = {}) => new ConsoleError(CmdStatus.BAD_PAYLOAD, key, params),
  notAvailable: (code: string) => new ConsoleError(CmdStatus.NOT_AVAILABLE, 'console.notAvailable', { code }),
  server: (id: string) => new ConsoleError(CmdStatus.SERVER_ERROR, 'console.serverError', { id }),
};

/** An AppError of a shared service (groups, auth, ...) as the console service answers it. */
export function fromAppError(err: AppError): ConsoleError {
  const status =
    err.code === ResultCode.INVALID
      ? CmdStatus.BAD_PAYLOAD
      : err.code === ResultCode.FORBIDDEN
        ? CmdStatus.FORBIDDEN
        : err.code === ResultCode.NOT_FOUND
          ? CmdStatus.NOT_FOUND
          : err.code === ResultCode.CONFLICT
            ? CmdStatus.CONFLICT
            : err.code === ResultCode.UNAUTHENTICATED
              ? CmdStatus.NOT_LOGGED_ON
              : CmdStatus.SERVER_ERROR;
  return new ConsoleError(status, err.key, err.params);
}
