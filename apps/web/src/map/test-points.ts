import type { DevicePoint } from '@bwc/protocol';

/** A device point for tests (Shenzhen, online, flags on). */
export function point(id: number, over: Partial<DevicePoint> = {}): DevicePoint {
  return {
    id,
    did: `SIM${id}`,
    hostbody: `SIM${id}`,
    imei: '490154203237518',
    hostname: `Officer ${id}`,
    hostcode: `C${id}`,
    jq_hostcode: '',
    unit_id: 1,
    lineon: 1,
    remote_kill: 0,
    typecate: [1, 1, 1, 1],
    lat: 22.5 + id / 1000,
    lng: 114.05 + id / 1000,
    speed: null,
    course: null,
    battery: 80,
    gps_time: '2026-01-01T00:00:00.000Z',
    sos: 0,
    ...over,
  };
}
