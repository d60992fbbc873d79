import { randomUUID } from 'node:crypto';
import {
  CmdStatus,
  CmdType,
  CONSOLE_MESSAGE_MAX_BYTES,
  ConsoleCodes,
  isConsoleCode,
  RequestEnvelope,
  responseCodeOf,
  UserType,
  type ConsoleCode,
  type ConsoleRule,
} from '@bwc/protocol';
import type { z } from 'zod';
import { AppError } from '../../http/errors';
import { t } from '../../http/i18n';
import { issueToFieldError } from '../../http/validation';
import type { Connection } from './connection';
import { ConsoleError, ConsoleErrors, fromAppError } from './errors';
import type { ConsoleHandler, HandlerContext } from './handler';
import { can, type Login } from './login';
import type { ConsoleService } from './service';

/**
 * The field error of a payload issue. A cross-field rule (`refine`: "one of target and exttarget",
 * "text needs content") states its own message, which holds whatever the field's value.
 */
function payloadError(issue: z.core.$ZodIssue, code: string): ConsoleError {
  if (issue.code === 'custom' && issue.message.startsWith('validation.'))
    return ConsoleErrors.field(issue.path.map(String).join('.') || code, issue.message);
  return fromAppError(issueToFieldError(issue, code));
}

/** The caller may send a code with this rule, or the error saying why not. */
export function checkRule(code: ConsoleCode, rule: ConsoleRule, login: Login | null): ConsoleError | null {
  if (rule.kind === 'open') return null;
  if (!login) return ConsoleErrors.notLoggedOn();
  if (rule.kind === 'login') return null;
  if (rule.kind === 'terminal') return login.user_type === UserType.TERMINAL ? null : ConsoleErrors.terminalOnly(code);
  if (login.user_type === UserType.TERMINAL) return rule.kind === 'any' ? null : ConsoleErrors.consoleOnly(code);
  return can(login, rule.menus, rule.action) ? null : ConsoleErrors.forbidden(rule.menus, rule.action);
}

/**
 * Reads one message and answers it. In order: size, JSON, envelope, code, rule (before the payload
 * is parsed: a caller without the right learns nothing about the input rules), payload schema,
 * handler. Every failure is answered with a response naming the problem; the connection stays
 * open and nothing is stored.
 */
export class Dispatcher {
  private readonly handlers = new Map<ConsoleCode, ConsoleHandler>();

  constructor(
    private readonly service: ConsoleService,
    handlers: ConsoleHandler[],
  ) {
    for (const h of handlers) {
      if (this.handlers.has(h.code)) throw new Error(`two console handlers for ${h.code}`);
      this.handlers.set(h.code, h);
    }
  }

  /** Codes with a handler (tests: every code of the registry has one). */
  codes(): ConsoleCode[] {
    return [...this.handlers.keys()];
  }

  async handle(conn: Connection, data: Buffer): Promise<void> {
    conn.lastHeard = Date.now();
    if (data.byteLength > CONSOLE_MESSAGE_MAX_BYTES) {
      return this.fail(conn, {}, ConsoleErrors.tooLarge(data.byteLength, CONSOLE_MESSAGE_MAX_BYTES));
    }
    let message: unknown;
    try {
      message = JSON.parse(data.toString('utf8'));
    } catch {
      return this.fail(conn, {}, ConsoleErrors.badJson());
    }
    if (!message || typeof message !== 'object' || Array.isArray(message)) {
      return this.fail(conn, {}, ConsoleErrors.badJson());
    }
    const raw = message as Record<string, unknown>;
    // what can be echoed even when the envelope is bad
    const echo = {
      msg_code: typeof raw.msg_code === 'string' ? raw.msg_code : undefined,
      session: typeof raw.session === 'string' || typeof raw.session === 'number' ? raw.session : undefined,
      cbid: typeof raw.cbid === 'string' || typeof raw.cbid === 'number' ? raw.cbid : undefined,
    };
    const envelope = RequestEnvelope.safeParse(raw);
    if (!envelope.success) {
      const issue = envelope.error.issues[0]!;
      if (issue.path[0] === 'cmd_type') return this.fail(conn, echo, ConsoleErrors.badCmdType());
      if (issue.path[0] === 'msg_code' && raw.msg_code === undefined)
        return this.fail(conn, echo, ConsoleErrors.missingCode());
      if (issue.path[0] === 'msg_code' && typeof raw.msg_code !== 'string')
        return this.fail(conn, { ...echo, msg_code: undefined }, ConsoleErrors.unknownCode(String(raw.msg_code)));
      return this.fail(conn, echo, fromAppError(issueToFieldError(issue, 'message')));
    }
    const env = envelope.data;
    const code = env.msg_code;
    if (!isConsoleCode(code)) return this.fail(conn, env, ConsoleErrors.unknownCode(code));
    const def = ConsoleCodes[code];
    const refused = checkRule(code, def.rule, conn.login);
    if (refused) return this.fail(conn, env, refused);
    const parsed = def.request.safeParse(raw, { reportInput: true });
    if (!parsed.success) return this.fail(conn, env, payloadError(parsed.error.issues[0]!, code));
    const handler = this.handlers.get(code);
    if (!handler) return this.fail(conn, env, ConsoleErrors.notAvailable(code));

    const afterTasks: (() => Promise<void> | void)[] = [];
    const ctx: HandlerContext<ConsoleCode> = {
      code,
      body: parsed.data as never,
      envelope: env,
      conn,
      get login(): Login {
        if (!conn.login) throw ConsoleErrors.notLoggedOn();
        return conn.login;
      },
      service: this.service,
      deps: this.service.deps,
      db: this.service.deps.db,
      lang: conn.lang,
      t: (key, params) => t(conn.lang, key, params),
      after: (task) => afterTasks.push(task),
    };
    let answer: object;
    try {
      answer = (await (handler.handler as (c: typeof ctx) => Promise<object>)(ctx)) ?? {};
    } catch (err) {
      return this.fail(conn, env, this.asConsoleError(err, code));
    }
    this.respond(conn, env, CmdStatus.OK, '', answer);
    for (const task of afterTasks) {
      try {
        await task();
      } catch (err) {
        this.service.deps.log.error({ err, code }, 'console service: task after the response failed');
      }
    }
  }

  private asConsoleError(err: unknown, code: string): ConsoleError {
    if (err instanceof ConsoleError) return err;
    if (err instanceof AppError) return fromAppError(err);
    const id = randomUUID();
    this.service.deps.log.error({ err, code, errorId: id }, 'console service handler failed');
    return ConsoleErrors.server(id);
  }

  private fail(
    conn: Connection,
    env: { msg_code?: string; session?: unknown; cbid?: unknown },
    err: ConsoleError,
  ): void {
    this.respond(conn, env, err.status, t(conn.lang, err.key, err.params), {});
  }

  private respond(
    conn: Connection,
    env: { msg_code?: string; session?: unknown; cbid?: unknown },
    status: number,
    reason: string,
    answer: object,
  ): void {
    conn.send(
      JSON.stringify({
        ...answer,
        msg_code: responseCodeOf(env.msg_code),
        cmd_type: CmdType.RESPONSE,
        ...(env.session !== undefined ? { session: env.session } : {}),
        ...(env.cbid !== undefined ? { cbid: env.cbid } : {}),
        cmd_status: status,
        error_reason: reason,
      }),
    );
  }
}
