import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';

/**
 * Largest websocket message any channel reads before the socket is closed (code 1009). Each
 * channel answers messages above its own, much smaller limit with an error and keeps the
 * connection: the console service must answer a 1 MB message with "too large", not drop it.
 */
export const WS_MAX_PAYLOAD_BYTES = 4 * 1024 * 1024;

const registered = new WeakSet<FastifyInstance>();

/** Register @fastify/websocket once per server, whichever channel (session push, console service) comes first. */
export async function ensureWebsocket(app: FastifyInstance): Promise<void> {
  if (registered.has(app)) return;
  registered.add(app);
  await app.register(fastifyWebsocket, { options: { maxPayload: WS_MAX_PAYLOAD_BYTES } });
}
