import { ALARM_TYPE } from '@bwc/protocol';
import type { IngestInput } from '../alarms/alarms.service';
import type { Db } from '../../db/connection';
import { findGbDevice } from './gb-devices.repository';
import type { GbAlarm } from './gb-runtime';

/** Alarm type of GB device alarms in the alarms table. */
export const GB_ALARM_TYPE = ALARM_TYPE.GB_DEVICE;
/** GB/T 28181-2016 A.2.5.3 AlarmMethod names, for the message. */
const METHODS = ['', 'phone', 'device', 'SMS', 'GPS', 'video', 'device fault', 'other'];

/** A.2.1 local time (+08:00) as ISO; the input as is when it does not parse. */
export function gbTimeToIso(time: string, offsetMinutes = 480): string {
  const t = Date.parse(`${time.replace(' ', 'T').slice(0, 19)}Z`);
  return Number.isFinite(t) ? new Date(t - offsetMinutes * 60_000).toISOString() : time;
}

/**
 * A device's Alarm (NOTIFY or MESSAGE) as an alarm of the alarms pipeline: no `devices` row
 * (device_id null), the GB device's unit, name and id as hostname / hostbody, the channel (alarm
 * source) as hostcode; one alarm per source, time and method (eid).
 */
export async function gbAlarmInput(db: Db, a: GbAlarm): Promise<IngestInput | null> {
  const device = await findGbDevice(db, a.deviceId);
  if (!device) return null;
  const method = METHODS[a.method] ?? String(a.method);
  return {
    eid: `gb:${a.sourceId}:${a.time.replace(' ', 'T').slice(0, 19)}:${a.method}`,
    type: GB_ALARM_TYPE,
    device_id: null,
    unit_id: device.unit_id,
    hostname: device.name || device.gbid,
    hostcode: a.sourceId,
    hostbody: device.gbid,
    alarm_time: gbTimeToIso(a.time),
    lat: a.latitude ?? device.lat,
    lng: a.longitude ?? device.lng,
    message: `GB alarm (${method}, priority ${a.priority})${a.description ? `: ${a.description}` : ''}`.slice(0, 500),
  };
}
