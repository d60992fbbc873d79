import type { FastifyInstance } from 'fastify';
import { registerSessionChannel } from '../../realtime/session-channel';
import { registerAlarms } from './alarms.routes';

/** Alarms and the session push channel that delivers them (issue 5). */
export async function registerAlarmsModule(app: FastifyInstance): Promise<void> {
  await registerAlarms(app);
  await registerSessionChannel(app);
}
