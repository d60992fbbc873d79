import type { ConsoleAnswerOf, ConsoleCode, ConsoleCodes, Language, RequestEnvelope } from '@bwc/protocol';
import type { z } from 'zod';
import type { Db } from '../../db/connection';
import type { MsgParams } from '../../http/errors';
import type { Connection } from './connection';
import type { Login } from './login';
import type { ConsoleDeps, ConsoleService } from './service';

export type RequestOf<C extends ConsoleCode> = z.output<(typeof ConsoleCodes)[C]['request']>;

export interface HandlerContext<C extends ConsoleCode> {
  code: C;
  /** the parsed payload (zod output of the code's request schema) */
  body: RequestOf<C>;
  /** msg_code, cmd_type, session, cbid as received */
  envelope: RequestEnvelope;
  conn: Connection;
  /** the connection's login; throws 10104 on an open code sent without one */
  readonly login: Login;
  service: ConsoleService;
  /** the service's declared dependencies (db, bus, log, config, the terminals' devices) */
  deps: ConsoleDeps;
  db: Db;
  lang: Language;
  t: (key: string, params?: MsgParams) => string;
  /** run `task` once the response has been sent (deliveries that must follow the answer) */
  after: (task: () => Promise<void> | void) => void;
}

export interface HandlerSpec<C extends ConsoleCode> {
  /** request code of the protocol's `ConsoleCodes` registry: gives request schema, answer schema and rule */
  code: C;
  /** Returns the payload of the success response (cmd_status 0). Errors are thrown (errors.ts). */
  handler: (ctx: HandlerContext<C>) => Promise<ConsoleAnswerOf<C>>;
}

/** A handler of any code, as the dispatcher keeps them. */
export type ConsoleHandler = { [C in ConsoleCode]: HandlerSpec<C> }[ConsoleCode];

/**
 * Declare the handler of one request code (the websocket counterpart of `defineRoute`): the
 * dispatcher checks the code's rule (login, client kind, menu ids + action) before it parses the
 * payload with the code's schema, then calls the handler and answers its payload with cmd_status 0.
 * One file per family in handlers/ exports its handlers as a list.
 */
export function defineHandler<C extends ConsoleCode>(spec: HandlerSpec<C>): ConsoleHandler {
  return spec as unknown as ConsoleHandler;
}
