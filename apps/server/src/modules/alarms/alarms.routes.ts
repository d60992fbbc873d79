import {
  type Alarm,
  ALARM_BELL_LINES_MAX,
  ALARM_EXPORT_MAX,
  ALARM_LEVELS,
  type AlarmExportQuery,
  type AlarmListResponse,
  ResultCode,
  type Language,
} from '@bwc/protocol';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/connection';
import { now } from '../../db/connection';
import { readSettings } from '../../db/settings';
import type { AuthUser } from '../../http/auth';
import { AppError, Errors } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { unitScope, unitSubtree, assertInScope, type UnitScope } from '../../http/scope';
import { contentDisposition } from '../system/file-store';
import * as repo from './alarms.repository';
import { presentAlarm, type AlarmService } from './alarms.service';
import { alarmWorkbook } from './alarms.export';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const notFound = () => new AppError(ResultCode.NOT_FOUND, 'errors.notFound', { what: 'errors.what.alarm' });

async function filterOf(db: Db, scope: UnitScope, q: AlarmExportQuery): Promise<repo.AlarmFilter> {
  let unitIds: number[] | undefined;
  if (q.unit_id !== undefined) {
    assertInScope(scope, q.unit_id);
    unitIds = await unitSubtree(db, q.unit_id);
  }
  return {
    start: q.start,
    end: q.end,
    type: q.type,
    level: q.alarmNavActive !== undefined ? ALARM_LEVELS[q.alarmNavActive] : undefined,
    unitIds,
    device: q.device || undefined,
    read: q.read,
    sure: q.sure,
  };
}

/** Tell the bus which alarms an acknowledgement closed (nothing when none was open). */
function announceAck(app: FastifyInstance, alarms: repo.AckedAlarm[], by: repo.AlarmAck): void {
  if (alarms.length === 0) return;
  app.bus.emit('alarm.acknowledged', {
    alarms,
    user_id: by.user_id,
    processor: by.name,
    ack_type: by.ack_type,
    time: by.time,
  });
}

/** The alarm routes: bell, history, acknowledgement, export (the AI engine's are in ai/). */
export async function registerAlarmRoutes(app: FastifyInstance, service: AlarmService): Promise<void> {
  const present = async (rows: repo.AlarmView[], lang: Language, offset = 0): Promise<Alarm[]> => {
    const names = await service.typeNames.get();
    return rows.map((r, i) => presentAlarm(r, names, lang, offset + i + 1));
  };

  const bellList = async (db: Db, user: AuthUser, lang: Language): Promise<AlarmListResponse> => {
    const scope = await unitScope(db, user);
    const counts = await repo.countUnread(db, user.id, scope);
    const lines = {} as AlarmListResponse['lines'];
    for (const level of ALARM_LEVELS) {
      lines[level] = await present(await repo.listUnread(db, user.id, scope, level, ALARM_BELL_LINES_MAX), lang);
    }
    return { count: { total: counts.criticle + counts.middle + counts.normal, ...counts }, lines };
  };

  defineRoute(app, {
    api: 'alarmSettings',
    handler: async ({ db }) => {
      const s = await readSettings(db, 'alarmset');
      return { sos_alarm_time: s.sos_alarm_time, sos_alarm_audio: s.sos_alarm_audio };
    },
  });

  defineRoute(app, {
    api: 'alarmIsAlarm',
    handler: async ({ db, user }) => {
      return { is_alarm: (await repo.hasUnread(db, user.id, await unitScope(db, user))) ? (1 as const) : (0 as const) };
    },
  });

  defineRoute(app, {
    api: 'alarmList',
    handler: async ({ db, user, lang }) => {
      return bellList(db, user, lang);
    },
  });

  defineRoute(app, {
    api: 'alarmLight',
    handler: async ({ db, user, lang }) => {
      return bellList(db, user, lang);
    },
  });

  defineRoute(app, {
    api: 'alarmRead',
    msg: 'success.alarm.read',
    handler: async ({ db, user, body, req }) => {
      const scope = await unitScope(db, user);
      const ids = body.ids.map((x) => x.id);
      req.audit.target = ids.join(',');
      const rows = await repo.findAlarms(db, user.id, { all: true }, ids);
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const { id, eid } of body.ids) {
        const row = byId.get(id);
        if (!row) throw notFound();
        assertInScope(scope, Number(row.unit_id));
        if (row.eid !== eid) throw Errors.field('ids', 'errors.alarm.eidMismatch', { id });
      }
      return { count: await repo.markRead(db, user.id, ids, now()) };
    },
  });

  defineRoute(app, {
    api: 'alarmReadAll',
    msg: 'success.alarm.read',
    handler: async ({ db, user }) => {
      return { count: await repo.markAllRead(db, user.id, await unitScope(db, user), now()) };
    },
  });

  defineRoute(app, {
    api: 'alarmPosition',
    handler: async ({ db, user, body }) => {
      const rows = await repo.devicePositions(db, await unitScope(db, user), body.hostbody);
      return rows.map((r) => ({ hostbody: r.hostbody, lat: r.lat, lng: r.lng }));
    },
  });

  defineRoute(app, {
    api: 'alarmGbPosition',
    handler: async ({ db, user, body }) => {
      // a body camera named by its key, or a GB28181 device by its GB id
      const scope = await unitScope(db, user);
      const cameras = await repo.devicePositions(db, scope, body.gbbm);
      const gb = await repo.gbDevicePositions(db, scope, body.gbbm);
      return {
        data: [
          ...cameras.map((r) => ({ gbbm: r.hostbody, lat: r.lat, lng: r.lng })),
          ...gb.map((r) => ({ gbbm: r.gbid, lat: r.lat, lng: r.lng })),
        ],
      };
    },
  });

  defineRoute(app, {
    api: 'alarmCategories',
    handler: async ({ db, lang }) => {
      const rows = await repo.alarmTypeEntries(db);
      return rows.map((r) => ({ key: r.key, label: lang === 'en-US' ? r.label_en || r.label : r.label }));
    },
  });

  for (const api of ['alarmSearch', 'alarmGbSearch'] as const) {
    defineRoute(app, {
      api,
      handler: async ({ db, user, body, lang }) => {
        const scope = await unitScope(db, user);
        const filter = await filterOf(db, scope, body);
        const offset = (body.page - 1) * body.limit;
        const { total, rows } = await repo.searchAlarms(db, user.id, scope, filter, { offset, limit: body.limit });
        return { total, page: body.page, limit: body.limit, list: await present(rows, lang, offset) };
      },
    });
  }

  for (const api of ['alarmExport', 'alarmGbExport'] as const) {
    defineRoute(app, {
      api,
      handler: async ({ db, user, query, reply, req, t, lang }) => {
        const scope = await unitScope(db, user);
        const filter = await filterOf(db, scope, query);
        const { total, rows } = await repo.searchAlarms(db, user.id, scope, filter, {
          offset: 0,
          limit: ALARM_EXPORT_MAX,
        });
        if (total > ALARM_EXPORT_MAX)
          throw Errors.invalid('errors.log.exportTooMany', { n: total, max: ALARM_EXPORT_MAX });
        const alarms = await present(rows, lang);
        const { fileName, content } = await alarmWorkbook(alarms, await repo.levelLabels(db), lang, t);
        req.result = { code: 200, msg: fileName };
        return reply
          .header('content-type', XLSX_TYPE)
          .header('content-disposition', contentDisposition(fileName))
          .header('cache-control', 'no-store')
          .send(content);
      },
    });
  }

  for (const api of ['alarmSure', 'alarmGbSure'] as const) {
    defineRoute(app, {
      api,
      msg: 'success.alarm.sure',
      handler: async ({ db, user, body, req }) => {
        const scope = await unitScope(db, user);
        req.audit.target = body.ids.join(',');
        const rows = await repo.findAlarms(db, user.id, { all: true }, body.ids);
        if (rows.length !== new Set(body.ids).size) throw notFound();
        assertInScope(scope, ...rows.map((r) => Number(r.unit_id)));
        const by = {
          user_id: user.id,
          name: user.hostname || user.username,
          note: body.note,
          time: now(),
          ack_type: body.ack_type,
        };
        const acked = await repo.sureAlarms(db, scope, body.ids, by);
        announceAck(app, acked, by);
        return { count: acked.length };
      },
    });
  }

  for (const api of ['alarmSureAll', 'alarmGbSureAll'] as const) {
    defineRoute(app, {
      api,
      msg: 'success.alarm.sure',
      handler: async ({ db, user, query }) => {
        const by = {
          user_id: user.id,
          name: user.hostname || user.username,
          note: query.note,
          time: now(),
          ack_type: query.ack_type,
        };
        const acked = await repo.sureAlarms(db, await unitScope(db, user), 'all', by);
        announceAck(app, acked, by);
        return { count: acked.length };
      },
    });
  }
}
