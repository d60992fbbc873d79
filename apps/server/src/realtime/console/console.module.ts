import type { AddressInfo } from 'node:net';
import { CONSOLE_WS_PATH } from '@bwc/protocol';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { ensureWebsocket } from '../connections/websocket';
import { registerFileRoutes } from './files';
import type { WsSocket } from './connection';
import type { ConsoleHandler } from './handler';
import { announceAcknowledged, announceEmergency, emergencyHandlers } from './handlers/emergency';
import { gpsHandlers } from './handlers/gps';
import { announceGroupChange, announceMemberStatus, groupHandlers } from './handlers/groups';
import { imHandlers } from './handlers/im';
import { callHandlers } from './handlers/call';
import { conferenceHandlers } from './handlers/conference';
import { mediaHandlers } from './handlers/media';
import { videoHandlers } from './handlers/video';
import { talkHandlers } from './handlers/talk';
import { registerReplayRoute } from './talk/replay';
import { TalkService } from './talk/talk.service';
import { CallService } from './call/call.service';
import { ConferenceService } from './conference/conference.service';
import { sessionHandlers } from './handlers/session';
import { announcePresence, userHandlers } from './handlers/users';
import { LOGIN_REFRESH_MS } from './logins.service';
import { ConsoleService, type TerminalDevices } from './service';
import type { LiveService } from '../../modules/media/live.service';
import { tellOperator } from '../../operator';

/** Every handler family of the service; a new family is one file in handlers/ and one entry here. */
export const consoleHandlers = (): ConsoleHandler[] => [
  ...sessionHandlers,
  ...userHandlers,
  ...gpsHandlers,
  ...imHandlers,
  ...emergencyHandlers,
  ...groupHandlers,
  ...videoHandlers,
  ...mediaHandlers,
  ...talkHandlers,
  ...callHandlers,
  ...conferenceHandlers,
];

/** The routes of the service on one Fastify server (the main one, or the listener on CONSOLE_PORT). */
async function serveOn(server: FastifyInstance, service: ConsoleService, paths: string[]): Promise<void> {
  await ensureWebsocket(server);
  await registerFileRoutes(server, service.deps);
  await registerReplayRoute(server, service.deps);
  for (const path of paths) {
    server.get(path, { websocket: true }, (socket, req) => {
      service.accept(socket as unknown as WsSocket, req as FastifyRequest);
    });
  }
}

/**
 * The console service: the msg_code protocol of packages/protocol/src/console
 * over websockets, on its own port (CONSOLE_PORT, default 9080; the SDK tries 9080, then 3001-3005)
 * and under CONSOLE_WS_PATH of the main port for deployments behind one reverse proxy. The port
 * listener starts once the main server listens; a port that is taken is logged and the path
 * still serves.
 */
/** What the console service is given by the registry. */
export interface ConsoleModuleDeps {
  /** terminals are devices with a cluster number (logon, positions, emergencies) */
  devices: TerminalDevices;
  /** live video on demand (req_play_video of a terminal) */
  live?: LiveService;
}

export async function registerConsoleService(
  app: FastifyInstance,
  { devices, live }: ConsoleModuleDeps,
): Promise<ConsoleService> {
  const service = new ConsoleService(
    { db: app.db, bus: app.bus, log: app.log, config: app.config, devices, live, cluster: app.cluster },
    consoleHandlers(),
  );
  app.decorate('consoleService', service);
  service.talk = new TalkService(service, { maxHoldMs: app.config.pttMaxHoldMs });
  service.calls = new CallService(service, { ringTimeoutMs: app.config.callRingTimeoutMs });
  service.conference = new ConferenceService(service);
  app.bus.on('console.notice', (e) => service.deliver(e));
  app.bus.on('console.login.ended', (e) => service.logins.ended(e));
  // facts turned into notices (events of their own, delivered by every node): once, where they happen
  app.bus.onOrigin('console.presence', (e) => {
    announcePresence(service, e);
    announceMemberStatus(service, e).catch((err) => app.log.error({ err }, 'console service: member status'));
  });
  app.bus.on('console.presence', (e) => service.presenceElsewhere(e));
  app.bus.on('positions', ({ positions }) => {
    service.gps.queue(positions).catch((err) => app.log.error({ err }, 'console service: gps notices'));
  });
  app.bus.on('device.changed', (e) => service.gps.forget(e.device_id));
  app.bus.onOrigin('group.changed', (e) => {
    announceGroupChange(service, e).catch((err) => app.log.error({ err }, 'console service: group change notice'));
  });
  app.bus.onOrigin('alarm.acknowledged', (e) => {
    announceAcknowledged(service, e).catch((err) =>
      app.log.error({ err }, 'console service: emergency handled notice'),
    );
  });
  app.bus.onOrigin('device.sos', (e) => {
    announceEmergency(service, e).catch((err) => app.log.error({ err }, 'console service: emergency notice'));
  });
  app.bus.on('console.im', ({ message, recipients }) => {
    service.im.deliver(message, recipients).catch((err) => app.log.error({ err }, 'console service: im delivery'));
  });
  service.onLogon((conn, login) => service.im.backlog(conn, login).then(() => undefined));
  // a remotely killed terminal loses its login at once (other changes: the periodic refresh)
  app.bus.on('device.remote', (e) => {
    const conn = service.connectionOf(e.device_id);
    if (e.action === 'remote_kill' && conn?.login?.device)
      void service.logins
        .invalidate(conn.login, 'console.reason.device')
        .catch((err) => app.log.error({ err }, 'console service: kill'));
  });
  service.onUnbind((login) => {
    void service.logins.released(login).catch((err) => app.log.error({ err }, 'console service: release'));
  });
  let refreshing = false;
  service.addTimer(
    setInterval(() => {
      if (refreshing) return;
      refreshing = true;
      service.logins
        .refresh()
        // one node alone has no other node to follow (its stale bindings are cleared at start)
        .then(() => (app.cluster.distributed ? service.syncElsewhere() : 0))
        .catch((err) => app.log.error({ err }, 'console service refresh failed'))
        .finally(() => (refreshing = false));
    }, LOGIN_REFRESH_MS).unref(),
  );
  // who is online on the other nodes; the bindings of nodes that died before this one started
  app.addHook('onReady', async () => void (await service.syncElsewhere()));
  await serveOn(app, service, [CONSOLE_WS_PATH]);

  let listener: FastifyInstance | null = null;
  app.addHook('onListen', async () => {
    const port = app.config.consolePort ?? 0;
    if (port <= 0 || listener) return;
    const server = Fastify({ logger: false });
    await serveOn(server, service, ['/', CONSOLE_WS_PATH]);
    try {
      await server.listen({ port, host: app.config.host });
      listener = server;
      service.listeningPort = (server.server.address() as AddressInfo).port;
      app.log.info({ port }, 'console service listening');
    } catch (err) {
      await server.close();
      tellOperator(
        app,
        err,
        `console service cannot listen on port ${port} (${(err as NodeJS.ErrnoException).code ?? 'error'}): set CONSOLE_PORT to a free port (0: only ${CONSOLE_WS_PATH} of the main port)`,
      );
    }
  });
  app.addHook('preClose', async () => {
    await service.close();
    service.listeningPort = null;
    await listener?.close();
  });
  return service;
}
