import type { FastifyInstance } from 'fastify';

/**
 * A problem the operator must act on (a port that is taken, ...): logged, and also written to
 * stderr, which `npm start` leaves on the terminal that started it (stdout goes to server.log).
 * Operator messages are English, like the server's other start-up messages.
 */
export function tellOperator(app: FastifyInstance, err: unknown, message: string): void {
  app.log.error({ err }, message);
  process.stderr.write(`${message}\n`);
}
