import { HISTORY_GPS_MAX_DAYS, HISTORY_GPS_MAX_POINTS, type GpsFix } from '@bwc/protocol';
import { ConsoleErrors } from '../errors';
import { requireTerminals, terminalsInScope } from '../directory';
import { historyFixes, latestFixes } from '../gps.repository';
import { defineHandler, type ConsoleHandler } from '../handler';

/**
 * GPS family: the latest fixes (req_query_gps, whose answer the SDK turns into a gps notice, and
 * which asks a named terminal that is logged on to report at once), a terminal's history
 * (req_query_history_gps) and terminals' own reports (req_report_gps), which go through the
 * device ingest like device API positions: the same position store, track history and fences,
 * and the `positions` bus event from which notice_gps is made (gps-fanout.ts).
 */
const DAY_MS = 86_400_000;

export const gpsHandlers: ConsoleHandler[] = [
  defineHandler({
    code: 'req_query_gps',
    handler: async ({ body, login, db, service }) => {
      const named = body.target !== undefined || body.exttarget !== undefined;
      const terminals = named
        ? await requireTerminals(
            db,
            login,
            body.target !== undefined ? [body.target] : [],
            body.exttarget !== undefined ? [body.exttarget] : [],
          )
        : await terminalsInScope(db, login);
      const ext = new Map(terminals.map((t) => [t.uid, t.ext_id]));
      const rows = await latestFixes(db, [...ext.keys()]);
      const gps: GpsFix[] = rows.map((r) => ({
        uid: r.id,
        ext_id: ext.get(r.id)!,
        lat: r.lat!,
        lng: r.lng!,
        speed: r.speed,
        course: r.course,
        accuracy: r.accuracy,
        battery: r.battery,
        time: r.gps_time!,
      }));
      if (named)
        service.notify({ uids: terminals.map((t) => t.uid) }, 'notice_query_gps', {
          demander: login.uid,
          extdemander: login.ext_id,
        });
      return { gps };
    },
  }),

  defineHandler({
    code: 'req_query_history_gps',
    handler: async ({ body, login, db }) => {
      if (body.endtime - body.starttime > HISTORY_GPS_MAX_DAYS * DAY_MS)
        throw ConsoleErrors.invalid('console.historyRange', { days: HISTORY_GPS_MAX_DAYS });
      const [terminal] = await requireTerminals(
        db,
        login,
        body.target !== undefined ? [body.target] : [],
        body.target === undefined && body.exttarget !== undefined ? [body.exttarget] : [],
      );
      const rows = await historyFixes(
        db,
        terminal!.uid,
        new Date(body.starttime).toISOString(),
        new Date(body.endtime).toISOString(),
        HISTORY_GPS_MAX_POINTS + 1,
      );
      const truncated = rows.length > HISTORY_GPS_MAX_POINTS;
      return {
        uid: terminal!.uid,
        ext_id: terminal!.ext_id,
        gps: rows.slice(0, HISTORY_GPS_MAX_POINTS).map((r) => ({ uid: terminal!.uid, ext_id: terminal!.ext_id, ...r })),
        truncated: truncated ? 1 : 0,
      };
    },
  }),

  defineHandler({
    code: 'req_report_gps',
    handler: async ({ body, login, deps, lang }) => {
      const device = await deps.devices.findByIdent(login.device!.hostbody);
      if (!device) throw ConsoleErrors.userNotFound([login.uid]);
      const { rows, rejected } = deps.devices.validateBatch(device, body.gps, lang);
      await deps.devices.ingest(device, rows);
      // the device ingest names items `positions.N.field`; this request calls the list `gps`
      const rename = (text: string) => text.replace(/\bpositions\./g, 'gps.');
      return {
        accepted: rows.length,
        rejected: rejected.map((r) => ({ index: r.index, field: rename(r.field), msg: rename(r.msg) })),
      };
    },
  }),
];
