import type { FastifyInstance } from 'fastify';
import { registerSessionChannel } from '../../realtime/session/session-channel';
import type { DeviceRuntime } from '../devices/runtime';
import { AiEngineToken } from './ai/ai-engine-token';
import { registerAiRoutes } from './ai/ai.routes';
import { PictureStore } from './ai/picture-store';
import { registerAlarmRoutes } from './alarms.routes';
import { AlarmService, sosStateOf } from './alarms.service';

/** What the alarms module uses of other modules. */
export interface AlarmsModuleDeps {
  /** the devices module: SOS transactions and the point snapshot's SOS state */
  devices: DeviceRuntime;
}

/**
 * Alarms and the session push channel that delivers them: the alarm service, the two hooks it
 * provides to the devices module, its bus sources (fence crossings, devices going offline), the
 * recovery of alarms missed before a restart, the routes, and the AI engine's token, picture
 * store and routes (ai/).
 */
export async function registerAlarmsModule(app: FastifyInstance, { devices }: AlarmsModuleDeps): Promise<void> {
  const service = new AlarmService({ db: app.db, bus: app.bus });
  app.decorate('alarms', service);
  const aiToken = new AiEngineToken(app.config.dataDir);
  app.decorate('aiEngineToken', aiToken);
  const pictures = new PictureStore(app.config.dataDir);

  // an SOS's alarm is written in the device runtime's SOS transaction (group commit), not after it
  devices.sosTransaction.provide((trx, events) => service.sosAlarms(trx, events));
  // the dispatch map's point snapshot carries the SOS state, read from the open SOS alarms
  devices.sosState.provide(sosStateOf);

  const report = (err: unknown, what: string) => app.log.error({ err }, `alarm ingest from ${what} failed`);
  // each crossing or offline is stored once, by the node where it happened
  app.bus.onOrigin('fence.crossed', (e) => void service.fromFence(e).catch((err) => report(err, 'fence.crossed')));
  app.bus.onOrigin('device.offline', (e) => void service.fromOffline(e).catch((err) => report(err, 'device.offline')));
  const recover = async () => {
    const raised = await service.recover();
    if (raised) app.log.warn({ raised }, 'alarms raised for source events stored before a restart');
  };
  app.addHook('onReady', async () => {
    // the token exists from the start (DATA_DIR/ai-engine.token unless AI_ENGINE_TOKEN is set), so a
    // local AI engine such as the simulator can read it before the first result
    aiToken.token();
    // in a cluster, the node holding the scheduler lease (also the one that takes it over)
    if (app.cluster.scheduler.held) await recover();
  });
  const offLease = app.cluster.scheduler.onChange((held) => {
    if (held) recover().catch((err) => report(err, 'recovery'));
  });
  app.addHook('onClose', async () => offLease());

  await registerAlarmRoutes(app, service);
  await registerAiRoutes(app, { service, token: aiToken, pictures });
  await registerSessionChannel(app, { alarms: service });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the AI engine's bearer token (modules/alarms/ai) */
    aiEngineToken: AiEngineToken;
  }
}
