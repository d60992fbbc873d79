import type { FastifyBaseLogger } from 'fastify';
import type { EventBus } from './bus';
import type { Config } from './config';
import type { Db } from './db/connection';

/**
 * What a domain service may use of the server: the database, the configuration, the domain bus
 * and the log. Services take this (or a `Pick` of it), never the Fastify instance: what else a
 * service needs (another module's service, the licence, the console service) is a declared
 * dependency passed by modules/registry.ts. The Fastify instance satisfies it, so a route passes
 * `app`.
 */
export interface ServerDeps {
  db: Db;
  config: Config;
  bus: EventBus;
  log: FastifyBaseLogger;
}
