import type { Alarm } from '@bwc/protocol';
import { call } from '../../../api/http';
import { markerPosition, type Coordinate } from '../locate';

export interface LocatePoint {
  lng: Coordinate;
  lat: Coordinate;
}

/**
 * Where the bell's 'locate' puts the marker: the device's last position as the position call
 * answers it (spec part 1 section 7: by GB device code in GB mode, by device key in dispatch mode),
 * else the position the alarm itself carried. Both missing: lng/lat null, and the dialog says
 * 'marker position not found'.
 */
export async function alarmLocatePoint(alarm: Alarm, gb: boolean): Promise<LocatePoint> {
  let first: LocatePoint | undefined;
  if (gb) {
    if (alarm.gbbm) {
      const answer = (await call('alarmGbPosition', { gbbm: [alarm.gbbm] })) as { data: LocatePoint[] };
      first = answer.data[0];
    }
  } else if (alarm.hostbody) {
    const answer = await call('alarmPosition', { hostbody: [alarm.hostbody] });
    first = answer[0];
  }
  if (first && markerPosition(first.lng, first.lat)) return { lng: first.lng, lat: first.lat };
  return { lng: alarm.lng, lat: alarm.lat };
}
