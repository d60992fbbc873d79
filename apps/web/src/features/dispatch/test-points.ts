import type { DevicePoint } from '@bwc/protocol';

/** A console-service terminal (cluster number 9<id>) of unit 1 on the map, for component tests. */
export function point(id: number, lineon: number): DevicePoint {
  return {
    id,
    did: `HB${id}`,
    hostbody: `HB${id}`,
    imei: '',
    hostname: `Officer ${id}`,
    hostcode: '',
    jq_hostcode: `9${id}`,
    unit_id: 1,
    lineon,
    remote_kill: 0,
    typecate: [1, 1, 1, 1],
    lat: 22.5,
    lng: 114,
    speed: null,
    course: null,
    battery: null,
    gps_time: null,
    sos: 0,
  };
}
