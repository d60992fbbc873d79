import type { Generated, Selectable } from 'kysely';

/**
 * Tables of the GB devices (migration 0030_gb_devices), merged into the `Database` interface of
 * db/types.ts by declaration merging.
 */
export interface GbDeviceTable {
  id: Generated<number>;
  /** the device's 20-digit GB id */
  gbid: string;
  /** DeviceInfo DeviceName, else the GB id */
  name: Generated<string>;
  unit_id: number;
  manufacturer: Generated<string>;
  model: Generated<string>;
  firmware: Generated<string>;
  /** udp | tcp of its registration */
  transport: Generated<string>;
  /** ip:port it registered from */
  address: Generated<string>;
  /** 1 registered and alive */
  online: Generated<number>;
  registered_at: Generated<string | null>;
  keepalive_at: Generated<string | null>;
  /** last MobilePosition */
  lng: Generated<number | null>;
  lat: Generated<number | null>;
  position_time: Generated<string | null>;
  created: string;
}

/** A device's channels from its Catalog (the set is replaced on each full Catalog answer). */
export interface GbChannelTable {
  id: Generated<number>;
  device_id: number;
  gbid: string;
  name: string;
  /** Catalog ParentID */
  parent: string;
  /** 1 Status ON */
  status: number;
  ptz_type: number;
  manufacturer: string;
  model: string;
  lng: number | null;
  lat: number | null;
}

export type GbDeviceRow = Selectable<GbDeviceTable>;
export type GbChannelRow = Selectable<GbChannelTable>;

declare module '../../db/types' {
  interface Database {
    gb_devices: GbDeviceTable;
    gb_channels: GbChannelTable;
  }
}
