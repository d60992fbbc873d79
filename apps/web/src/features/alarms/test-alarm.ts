import type { Alarm, AlarmLevel } from '@bwc/protocol';

/** An alarm row as the server answers it (an unread, unacknowledged SOS), for the alarm tests. */
export function testAlarm(id: number, level: AlarmLevel, extra: Partial<Alarm> = {}): Alarm {
  return {
    id,
    eid: `sos:${id}`,
    type: '1',
    alerm_level: level,
    hostname: `cam${id}`,
    hostcode: `C${id}`,
    hostbody: `HB${id}`,
    gbbm: `HB${id}`,
    unitname: 'unit',
    unit_id: 1,
    device_id: id,
    alarm_time: '2026-11-21T10:00:00.000Z',
    status: '0',
    insert_time: '2026-11-21T10:00:00.000Z',
    boutefence: '',
    fence_direction: '',
    lat: 22.5,
    lng: 114,
    message: '',
    hasRead: 0,
    sure: 0,
    sure_user: '',
    sure_note: '',
    sure_time: '',
    sure_type: null,
    index: '01',
    hostNameCode: `cam${id}(C${id})`,
    typeName_cur: 'SOS',
    dname: 'unit',
    picture: null,
    ...extra,
  };
}
