import { AckType, ALARM_TYPE, UserType } from '@bwc/protocol';
import type { DomainEvents } from '../../../bus';
import { now } from '../../../db/connection';
import { sureDeviceAlarms } from '../../../modules/alarms/alarms.repository';
import { requireTerminals } from '../directory';
import { consoleUidOf } from '../login';
import { ConsoleErrors } from '../errors';
import { clusterNumbers } from '../gps.repository';
import { defineHandler, type ConsoleHandler } from '../handler';
import type { ConsoleService } from '../service';

/**
 * Emergencies. A terminal's `req_emergency` is an SOS of its device (`deps.devices.sos`): the alarm
 * module raises the alarm in the same transaction (the same bell, history and acknowledgement as a
 * device API SOS) and the `device.sos` bus event follows, from which every console that sees the
 * terminal's unit gets notice_emergency. `req_emergency_handled` acknowledges the terminal's open
 * SOS alarms (handler: the processor named) and notifies the consoles of that scope and the terminal.
 */

/** A device raised an SOS (device API or the service): consoles of its unit get notice_emergency if it is a terminal. */
export async function announceEmergency(service: ConsoleService, e: DomainEvents['device.sos']): Promise<void> {
  const ext = (await clusterNumbers(service.deps.db, [e.device_id])).get(e.device_id);
  if (!ext) return;
  service.notify({ seeing: [e.unit_id] }, 'notice_emergency', {
    uid: e.device_id,
    ext_id: ext,
    display_name: e.hostname || e.hostbody,
    hostbody: e.hostbody,
    unit_id: e.unit_id,
    event_id: e.event_id,
    lat: e.lat,
    lng: e.lng,
    message: e.message,
    time: e.time,
  });
}

/**
 * SOS alarms acknowledged in the console (bell, alarm history): the terminals whose emergency it
 * was and the consoles that see them get notice_emergency_handled, as after req_emergency_handled.
 */
export async function announceAcknowledged(
  service: ConsoleService,
  e: DomainEvents['alarm.acknowledged'],
): Promise<void> {
  const perDevice = new Map<number, { unit_id: number; count: number }>();
  for (const alarm of e.alarms) {
    if (alarm.type !== ALARM_TYPE.SOS || alarm.device_id === null) continue;
    const seen = perDevice.get(alarm.device_id) ?? { unit_id: alarm.unit_id, count: 0 };
    seen.count++;
    perDevice.set(alarm.device_id, seen);
  }
  if (perDevice.size === 0) return;
  const ext = await clusterNumbers(service.deps.db, [...perDevice.keys()]);
  const handler = e.handler ?? (e.user_id === null ? 0 : consoleUidOf(e.user_id));
  for (const [uid, { unit_id, count }] of perDevice) {
    const extUid = ext.get(uid);
    if (!extUid) continue;
    service.notify({ seeing: [unit_id], uids: [uid] }, 'notice_emergency_handled', {
      uid,
      extUid,
      processor: e.processor,
      timestamp: e.time,
      ack_type: e.ack_type,
      handled: count,
      handler,
    });
  }
}

/** The acknowledgement note recorded with the alarm, by ack_type. */
const ACK_LABELS: Record<number, string> = {
  [AckType.HANDLED]: 'console.ack.handled',
  [AckType.FALSE_ALARM]: 'console.ack.falseAlarm',
  [AckType.TRANSFERRED]: 'console.ack.transferred',
};

export const emergencyHandlers: ConsoleHandler[] = [
  defineHandler({
    code: 'req_emergency',
    handler: async ({ body, login, deps }) => {
      const device = await deps.devices.findByIdent(login.device!.hostbody);
      if (!device) throw ConsoleErrors.userNotFound([login.uid]);
      const eventId = await deps.devices.sos(device, { lat: body.lat, lng: body.lng, message: body.message });
      return { event_id: eventId };
    },
  }),

  defineHandler({
    code: 'req_emergency_handled',
    handler: async ({ body, login, db, service, t }) => {
      const [terminal] = await requireTerminals(
        db,
        login,
        body.uid !== undefined ? [body.uid] : [],
        body.uid === undefined && body.extUid !== undefined ? [body.extUid] : [],
      );
      const handled = await sureDeviceAlarms(db, terminal!.uid, [ALARM_TYPE.SOS], {
        user_id: login.user_type === UserType.CONSOLE ? login.user!.id : null,
        name: body.processor,
        note: t(ACK_LABELS[body.ack_type] ?? 'console.ack.other', { type: body.ack_type }),
        time: now(),
        ack_type: body.ack_type,
      });
      service.notify({ seeing: [terminal!.unit_id], uids: [terminal!.uid] }, 'notice_emergency_handled', {
        uid: terminal!.uid,
        extUid: terminal!.ext_id,
        processor: body.processor,
        timestamp: body.timestamp ?? now(),
        ack_type: body.ack_type,
        handled: handled.length,
        handler: login.uid,
      });
      return { uid: terminal!.uid, extUid: terminal!.ext_id, handled: handled.length };
    },
  }),
];
