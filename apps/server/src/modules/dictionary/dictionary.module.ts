import type { FastifyInstance } from 'fastify';
import { registerDictionaryRoutes } from './dictionary.routes';

/** DataDictionary (menu 10450): the routes only (no services to build, no bus subscriptions, no start/stop hooks). */
export async function registerDictionaryModule(app: FastifyInstance): Promise<void> {
  await registerDictionaryRoutes(app);
}
