import type { FastifyInstance } from 'fastify';
import { registerMessageRoutes } from './messages.routes';
import type { ConsolePresence } from './messages.service';

export interface MessagesModuleDeps {
  /** delivery states of the recipients: whether each terminal is logged on (the console service) */
  presence: ConsolePresence;
}

/** Message push (menu 10105): the routes only (no services to build, no bus subscriptions, no start/stop hooks). */
export async function registerMessagesModule(app: FastifyInstance, { presence }: MessagesModuleDeps): Promise<void> {
  await registerMessageRoutes(app, { presence });
}
