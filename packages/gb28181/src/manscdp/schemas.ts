import { z } from 'zod';
import { GB_ID_RE } from './ids';
import { tryDecodePtz } from './ptz';
import { MANSCDP_LIMITS } from './xml';

/**
 * The MANSCDP messages of GB/T 28181-2016 Appendix A as zod schemas over the parsed XML (all text),
 * keyed by the standard's element names; the output has numbers where the standard has integers or
 * decimals. Unknown elements are dropped; an empty element counts as absent.
 */

const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);
function opt<T extends z.ZodType>(schema: T) {
  return z.preprocess(blankToUndefined, schema.optional());
}

export const GbIdSchema = z.string().trim().regex(GB_ID_RE, { error: 'must be a 20-digit GB28181 id' });
const Text = z.string().trim().max(256);
const Int = z
  .string()
  .trim()
  .regex(/^-?\d{1,10}$/, { error: 'must be an integer' })
  .transform(Number);
const NonNegInt = Int.pipe(z.number().int().min(0));
const Decimal = z
  .string()
  .trim()
  .regex(/^[-+]?(\d+\.?\d*|\.\d+)$/, { error: 'must be a decimal number' })
  .transform(Number)
  .pipe(z.number().finite());
const Longitude = Decimal.pipe(z.number().min(-180).max(180));
const Latitude = Decimal.pipe(z.number().min(-90).max(90));
/** Local time as A.2.1 writes it: 2016-01-01T12:00:00 (a space instead of T is accepted as sent). */
const GbTime = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d{1,3})?$/, { error: 'must be YYYY-MM-DDTHH:mm:ss' });
const Sn = z
  .string()
  .trim()
  .regex(/^\d{1,10}$/, { error: 'must be an unsigned integer' })
  .transform(Number);
const Result = z.enum(['OK', 'ERROR']);
const OnOff = z.preprocess(
  (v) =>
    typeof v === 'string' ? ({ ONLINE: 'ON', OFFLINE: 'OFF' }[v.trim().toUpperCase()] ?? v.trim().toUpperCase()) : v,
  z.enum(['ON', 'OFF']),
);

/** A list element: its <Item> children (the Num attribute is not trusted; the items are counted). */
function list<T extends z.ZodType>(item: T) {
  return z.preprocess((v) => {
    if (v === '' || v === undefined) return [];
    if (v && typeof v === 'object' && !Array.isArray(v)) return (v as { Item?: unknown }).Item ?? [];
    return v;
  }, z.array(item).max(MANSCDP_LIMITS.maxListItems));
}

const base = { SN: Sn, DeviceID: GbIdSchema };

// Query (A.2.4)
export const CatalogQuery = z.object({
  CmdType: z.literal('Catalog'),
  ...base,
  StartTime: opt(GbTime),
  EndTime: opt(GbTime),
});
export const DeviceInfoQuery = z.object({ CmdType: z.literal('DeviceInfo'), ...base });
export const DeviceStatusQuery = z.object({ CmdType: z.literal('DeviceStatus'), ...base });
export const RecordType = z.enum(['time', 'alarm', 'manual', 'all']);
export const RecordInfoQuery = z.object({
  CmdType: z.literal('RecordInfo'),
  ...base,
  StartTime: GbTime,
  EndTime: GbTime,
  FilePath: opt(Text),
  Address: opt(Text),
  Secrecy: opt(NonNegInt),
  Type: opt(RecordType),
  RecorderID: opt(Text),
  IndistinctQuery: opt(NonNegInt),
});
/** Alarm query, also the body of an Alarm SUBSCRIBE (A.2.4.8). */
export const AlarmQuery = z.object({
  CmdType: z.literal('Alarm'),
  ...base,
  StartAlarmPriority: opt(NonNegInt),
  EndAlarmPriority: opt(NonNegInt),
  AlarmMethod: opt(
    z
      .string()
      .trim()
      .regex(/^\d{1,8}$/, { error: 'must be alarm method digits' }),
  ),
  AlarmType: opt(Text),
  StartAlarmTime: opt(GbTime),
  EndAlarmTime: opt(GbTime),
});
/** MobilePosition query, also the body of a MobilePosition SUBSCRIBE: Interval in seconds. */
export const MobilePositionQuery = z.object({
  CmdType: z.literal('MobilePosition'),
  ...base,
  Interval: opt(NonNegInt),
});

// Notify (A.2.5)
export const KeepaliveNotify = z.object({ CmdType: z.literal('Keepalive'), ...base, Status: Result });

/** A Catalog item (A.2.6.4): a device, channel, business group or virtual organisation. */
export const CatalogItem = z.object({
  DeviceID: GbIdSchema,
  Name: opt(Text),
  Manufacturer: opt(Text),
  Model: opt(Text),
  Owner: opt(Text),
  CivilCode: opt(Text),
  Block: opt(Text),
  Address: opt(Text),
  Parental: opt(NonNegInt),
  ParentID: opt(Text),
  SafetyWay: opt(NonNegInt),
  RegisterWay: opt(NonNegInt),
  CertNum: opt(Text),
  Certifiable: opt(NonNegInt),
  ErrCode: opt(NonNegInt),
  EndTime: opt(GbTime),
  Secrecy: opt(NonNegInt),
  IPAddress: opt(Text),
  Port: opt(NonNegInt.pipe(z.number().max(65535))),
  Password: opt(Text),
  Status: opt(OnOff),
  Longitude: opt(Longitude),
  Latitude: opt(Latitude),
  /** subscription notifies (A.2.5.4): ON, OFF, VLOST, DEFECT, ADD, DEL, UPDATE */
  Event: opt(z.enum(['ON', 'OFF', 'VLOST', 'DEFECT', 'ADD', 'DEL', 'UPDATE'])),
  /** A.2.6.4 extension: PTZType 1 dome, 2 half-dome, 3 fixed, 4 remote-controlled (other values: unknown) */
  Info: opt(z.object({ PTZType: opt(NonNegInt) })),
});
export const CatalogNotify = z.object({
  CmdType: z.literal('Catalog'),
  ...base,
  SumNum: NonNegInt,
  DeviceList: list(CatalogItem),
});
export const MobilePositionNotify = z.object({
  CmdType: z.literal('MobilePosition'),
  ...base,
  Time: GbTime,
  Longitude,
  Latitude,
  Speed: opt(Decimal),
  Direction: opt(Decimal.pipe(z.number().min(0).max(360))),
  Altitude: opt(Decimal),
});
export const AlarmNotify = z.object({
  CmdType: z.literal('Alarm'),
  ...base,
  /** 1 first-level (highest) .. 4 */
  AlarmPriority: NonNegInt.pipe(z.number().min(1).max(4)),
  /** 1 phone, 2 device, 3 SMS, 4 GPS, 5 video, 6 device fault, 7 other */
  AlarmMethod: NonNegInt.pipe(z.number().min(1).max(7)),
  AlarmTime: GbTime,
  AlarmDescription: opt(Text),
  Longitude: opt(Longitude),
  Latitude: opt(Latitude),
  Info: opt(z.object({ AlarmType: opt(NonNegInt) })),
});

// Response (A.2.6)
export const CatalogResponse = CatalogNotify;
export const DeviceInfoResponse = z.object({
  CmdType: z.literal('DeviceInfo'),
  ...base,
  DeviceName: opt(Text),
  Result,
  Manufacturer: opt(Text),
  Model: opt(Text),
  Firmware: opt(Text),
  Channel: opt(NonNegInt),
});
export const DeviceStatusResponse = z.object({
  CmdType: z.literal('DeviceStatus'),
  ...base,
  Result,
  Online: z.enum(['ONLINE', 'OFFLINE']),
  Status: Result,
  Reason: opt(Text),
  Encode: opt(OnOff),
  Record: opt(OnOff),
  DeviceTime: opt(GbTime),
  Alarmstatus: opt(list(z.object({ DeviceID: GbIdSchema, DutyStatus: z.enum(['ONDUTY', 'OFFDUTY', 'ALARM']) }))),
});
export const RecordItem = z.object({
  DeviceID: GbIdSchema,
  Name: opt(Text),
  FilePath: opt(Text),
  Address: opt(Text),
  StartTime: GbTime,
  EndTime: GbTime,
  Secrecy: opt(NonNegInt),
  Type: opt(RecordType),
  RecorderID: opt(Text),
  FileSize: opt(NonNegInt),
});
export const RecordInfoResponse = z.object({
  CmdType: z.literal('RecordInfo'),
  ...base,
  Name: opt(Text),
  SumNum: NonNegInt,
  RecordList: list(RecordItem),
});
export const DeviceControlResponse = z.object({ CmdType: z.literal('DeviceControl'), ...base, Result });
/** The platform's answer to an Alarm notify (A.2.6.2). */
export const AlarmResponse = z.object({ CmdType: z.literal('Alarm'), ...base, Result });

// Control (A.2.3)
export const DeviceControl = z.object({
  CmdType: z.literal('DeviceControl'),
  ...base,
  PTZCmd: opt(
    z
      .string()
      .trim()
      .refine((hex) => tryDecodePtz(hex) !== null, { error: 'must be an A.3 PTZ command with valid checks' }),
  ),
  TeleBoot: opt(z.literal('Boot')),
  RecordCmd: opt(z.enum(['Record', 'StopRecord'])),
  GuardCmd: opt(z.enum(['SetGuard', 'ResetGuard'])),
  AlarmCmd: opt(z.literal('ResetAlarm')),
  Info: opt(z.object({ ControlPriority: opt(NonNegInt) })),
});

/** Schemas by root element and CmdType. */
export const MANSCDP_SCHEMAS = {
  Query: {
    Catalog: CatalogQuery,
    DeviceInfo: DeviceInfoQuery,
    DeviceStatus: DeviceStatusQuery,
    RecordInfo: RecordInfoQuery,
    Alarm: AlarmQuery,
    MobilePosition: MobilePositionQuery,
  },
  Notify: {
    Keepalive: KeepaliveNotify,
    Catalog: CatalogNotify,
    MobilePosition: MobilePositionNotify,
    Alarm: AlarmNotify,
  },
  Response: {
    Catalog: CatalogResponse,
    DeviceInfo: DeviceInfoResponse,
    DeviceStatus: DeviceStatusResponse,
    RecordInfo: RecordInfoResponse,
    DeviceControl: DeviceControlResponse,
    Alarm: AlarmResponse,
  },
  Control: { DeviceControl },
} as const;

type Schemas = typeof MANSCDP_SCHEMAS;
export type ManscdpRoot = keyof Schemas;
export const MANSCDP_ROOTS = Object.keys(MANSCDP_SCHEMAS) as ManscdpRoot[];

/** One known message: `kind` is its root element, the rest its elements. */
export type ManscdpMessage = {
  [R in ManscdpRoot]: { [C in keyof Schemas[R]]: { kind: R } & z.output<Schemas[R][C] & z.ZodType> }[keyof Schemas[R]];
}[ManscdpRoot];

export type MessageOf<R extends ManscdpRoot, C extends string> = Extract<ManscdpMessage, { kind: R; CmdType: C }>;

export type CatalogItem = z.output<typeof CatalogItem>;
export type RecordItem = z.output<typeof RecordItem>;
