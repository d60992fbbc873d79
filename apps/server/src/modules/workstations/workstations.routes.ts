import { ResultCode, WORKSTATION_HEARTBEAT_S } from '@bwc/protocol';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { unitScope } from '../../http/scope';
import { sameHash, sha256Hex } from '../devices/credentials';
import { provisioningKey } from '../devices/device-api.routes';
import type { WorkstationService } from './workstations.service';

/** Ops centre registry (workAdmin 10313) and the workstation API (login, heartbeat, provision). */
export async function registerWorkstationRoutes(app: FastifyInstance, service: WorkstationService): Promise<void> {
  defineRoute(app, {
    api: 'workstationList',
    handler: async ({ db, user, query }) => service.list(await unitScope(db, user), query),
  });

  defineRoute(app, {
    api: 'workstationAdd',
    msg: 'success.added',
    handler: async ({ db, user, body, req }) => {
      const out = await service.add(await unitScope(db, user), body);
      req.audit.target = out.workstation.id;
      return out;
    },
  });

  defineRoute(app, {
    api: 'workstationUpdate',
    msg: 'success.updated',
    handler: async ({ db, user, body }) => service.update(await unitScope(db, user), body),
  });

  defineRoute(app, {
    api: 'workstationDelete',
    msg: 'success.deleted',
    handler: async ({ db, user, body }) => {
      await service.remove(await unitScope(db, user), body.id);
      return null;
    },
  });

  defineRoute(app, {
    api: 'workstationResetSecret',
    msg: 'success.workstation.secretReset',
    handler: async ({ db, user, body }) => service.resetSecret(await unitScope(db, user), body.id),
  });

  defineRoute(app, {
    api: 'workstationLogin',
    selfAuth: true,
    handler: async ({ body, req }) => ({
      ...(await service.login(body.code, body.secret, req.ip)),
      heartbeat_s: WORKSTATION_HEARTBEAT_S,
    }),
  });

  defineRoute(app, {
    api: 'workstationHeartbeat',
    selfAuth: true,
    handler: async ({ body, req }) => service.heartbeat(await service.authenticate(req), body, req.ip),
  });

  const key = provisioningKey(app);
  defineRoute(app, {
    api: 'workstationProvision',
    selfAuth: true,
    msg: 'success.added',
    handler: async ({ req, body }) => {
      if (!key) throw new AppError(ResultCode.FORBIDDEN, 'errors.device.provisionDisabled');
      const header = req.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
      if (!given || !sameHash(sha256Hex(given), sha256Hex(key)))
        throw new AppError(ResultCode.UNAUTHENTICATED, 'errors.device.provisionKey');
      req.audit.actor = { username: 'device-provisioning' };
      const out = await service.provision(body);
      req.audit.target = out.id;
      return out;
    },
  });
}
