import type { z } from 'zod';
import { ManscdpError } from './errors';
import { encodePtz, type PtzInput } from './ptz';
import {
  MANSCDP_ROOTS,
  MANSCDP_SCHEMAS,
  type CatalogItem,
  type ManscdpMessage,
  type ManscdpRoot,
  type MessageOf,
  type RecordItem,
} from './schemas';
import { readXml, writeXml, type ManscdpCharset, type WritableObject, type XmlObject } from './xml';

/** A well-formed body whose root or CmdType this module does not know (the SIP layer answers 200 and logs). */
export interface ManscdpUnsupported {
  kind: 'unsupported';
  root: string;
  CmdType: string;
  SN?: number;
  DeviceID?: string;
}

export type ManscdpDecoded = ManscdpMessage | ManscdpUnsupported;

function issuePath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (s, k) => (typeof k === 'number' ? `${s}[${k}]` : s ? `${s}.${String(k)}` : String(k)),
    '',
  );
}

function textOf(content: XmlObject, name: string): string | undefined {
  const v = content[name];
  return typeof v === 'string' ? v.trim() : undefined;
}

/**
 * A MANSCDP body (GB2312, GBK or UTF-8 as its declaration says) to a typed message. Throws only
 * ManscdpError: see readXml for the refusals; 'invalid' with `field` when an element is missing or
 * wrong (e.g. `DeviceList[2].DeviceID`).
 */
export function decodeManscdp(body: Buffer): ManscdpDecoded {
  try {
    const { root, content } = readXml(body);
    const cmdType = textOf(content, 'CmdType');
    if (!cmdType) throw new ManscdpError('invalid', 'missing', 'CmdType');
    const byCmd = (MANSCDP_ROOTS as string[]).includes(root)
      ? (MANSCDP_SCHEMAS[root as ManscdpRoot] as Record<string, z.ZodType>)
      : undefined;
    const schema = byCmd && Object.hasOwn(byCmd, cmdType) ? byCmd[cmdType] : undefined;
    if (!schema) {
      const sn = textOf(content, 'SN');
      const deviceId = textOf(content, 'DeviceID');
      return {
        kind: 'unsupported',
        root,
        CmdType: cmdType,
        ...(sn && /^\d{1,10}$/.test(sn) ? { SN: Number(sn) } : {}),
        ...(deviceId ? { DeviceID: deviceId } : {}),
      };
    }
    const parsed = schema.safeParse(content);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ManscdpError('invalid', issue?.message ?? 'invalid', issue ? issuePath(issue.path) : undefined);
    }
    return { kind: root, ...(parsed.data as object) } as ManscdpMessage;
  } catch (err) {
    if (err instanceof ManscdpError) throw err;
    throw new ManscdpError('malformed', err instanceof Error ? err.message : String(err));
  }
}

/** decodeManscdp as a result instead of a throw. */
export function tryDecodeManscdp(
  body: Buffer,
): { ok: true; message: ManscdpDecoded } | { ok: false; error: ManscdpError } {
  try {
    return { ok: true, message: decodeManscdp(body) };
  } catch (err) {
    return { ok: false, error: err as ManscdpError };
  }
}

/**
 * A message to its body; elements are written in the message's key order (the builders keep the
 * standard's). The body is read back through decodeManscdp, so what a peer would refuse (a short id,
 * a page over the size limit, a bad PTZCmd) throws the same ManscdpError here.
 */
export function encodeManscdp(message: ManscdpMessage, charset: ManscdpCharset = 'GB2312'): Buffer {
  const { kind, ...content } = message;
  const body = writeXml(kind, content as unknown as WritableObject, charset);
  decodeManscdp(body);
  return body;
}

// Builders: what the platform sends.

type Addr = { sn: number; deviceId: string };

export function catalogQuery(a: Addr & { startTime?: string; endTime?: string }): MessageOf<'Query', 'Catalog'> {
  return {
    kind: 'Query',
    CmdType: 'Catalog',
    SN: a.sn,
    DeviceID: a.deviceId,
    StartTime: a.startTime,
    EndTime: a.endTime,
  };
}

export function deviceInfoQuery(a: Addr): MessageOf<'Query', 'DeviceInfo'> {
  return { kind: 'Query', CmdType: 'DeviceInfo', SN: a.sn, DeviceID: a.deviceId };
}

export function deviceStatusQuery(a: Addr): MessageOf<'Query', 'DeviceStatus'> {
  return { kind: 'Query', CmdType: 'DeviceStatus', SN: a.sn, DeviceID: a.deviceId };
}

export function recordInfoQuery(
  a: Addr & { startTime: string; endTime: string; type?: RecordItem['Type']; secrecy?: number },
): MessageOf<'Query', 'RecordInfo'> {
  return {
    kind: 'Query',
    CmdType: 'RecordInfo',
    SN: a.sn,
    DeviceID: a.deviceId,
    StartTime: a.startTime,
    EndTime: a.endTime,
    FilePath: undefined,
    Address: undefined,
    Secrecy: a.secrecy ?? 0,
    Type: a.type ?? 'all',
    RecorderID: undefined,
    IndistinctQuery: undefined,
  };
}

/** The body of an Alarm SUBSCRIBE (priorities 1-4, methods as digits, e.g. '0' all). */
export function alarmSubscription(
  a: Addr & { startPriority?: number; endPriority?: number; method?: string; startTime?: string; endTime?: string },
): MessageOf<'Query', 'Alarm'> {
  return {
    kind: 'Query',
    CmdType: 'Alarm',
    SN: a.sn,
    DeviceID: a.deviceId,
    StartAlarmPriority: a.startPriority ?? 1,
    EndAlarmPriority: a.endPriority ?? 4,
    AlarmMethod: a.method ?? '0',
    AlarmType: undefined,
    StartAlarmTime: a.startTime,
    EndAlarmTime: a.endTime,
  };
}

/** The body of a MobilePosition SUBSCRIBE: a report every `interval` seconds. */
export function mobilePositionSubscription(a: Addr & { interval: number }): MessageOf<'Query', 'MobilePosition'> {
  return { kind: 'Query', CmdType: 'MobilePosition', SN: a.sn, DeviceID: a.deviceId, Interval: a.interval };
}

export function ptzControl(a: Addr & { ptz: PtzInput }): MessageOf<'Control', 'DeviceControl'> {
  return {
    kind: 'Control',
    CmdType: 'DeviceControl',
    SN: a.sn,
    DeviceID: a.deviceId,
    PTZCmd: encodePtz(a.ptz),
    TeleBoot: undefined,
    RecordCmd: undefined,
    GuardCmd: undefined,
    AlarmCmd: undefined,
    Info: undefined,
  };
}

export function alarmResponse(a: Addr & { result?: 'OK' | 'ERROR' }): MessageOf<'Response', 'Alarm'> {
  return { kind: 'Response', CmdType: 'Alarm', SN: a.sn, DeviceID: a.deviceId, Result: a.result ?? 'OK' };
}

// Builders: what a device sends.

export function keepalive(a: Addr & { status?: 'OK' | 'ERROR' }): MessageOf<'Notify', 'Keepalive'> {
  return { kind: 'Notify', CmdType: 'Keepalive', SN: a.sn, DeviceID: a.deviceId, Status: a.status ?? 'OK' };
}

/** A Catalog answer split into pages of `pageSize` items, each with the same SN and SumNum (A.2.6.4). */
export function catalogResponsePages(
  a: Addr & { items: CatalogItem[]; pageSize?: number },
): MessageOf<'Response', 'Catalog'>[] {
  const size = Math.max(1, Math.floor(a.pageSize ?? 20));
  const pages: MessageOf<'Response', 'Catalog'>[] = [];
  for (let i = 0; i === 0 || i < a.items.length; i += size) {
    pages.push({
      kind: 'Response',
      CmdType: 'Catalog',
      SN: a.sn,
      DeviceID: a.deviceId,
      SumNum: a.items.length,
      DeviceList: a.items.slice(i, i + size),
    });
  }
  return pages;
}

export function deviceInfoResponse(
  a: Addr & { name?: string; manufacturer?: string; model?: string; firmware?: string; channels?: number },
): MessageOf<'Response', 'DeviceInfo'> {
  return {
    kind: 'Response',
    CmdType: 'DeviceInfo',
    SN: a.sn,
    DeviceID: a.deviceId,
    DeviceName: a.name,
    Result: 'OK',
    Manufacturer: a.manufacturer,
    Model: a.model,
    Firmware: a.firmware,
    Channel: a.channels,
  };
}

export function mobilePositionNotify(
  a: Addr & {
    time: string;
    longitude: number;
    latitude: number;
    speed?: number;
    direction?: number;
    altitude?: number;
  },
): MessageOf<'Notify', 'MobilePosition'> {
  return {
    kind: 'Notify',
    CmdType: 'MobilePosition',
    SN: a.sn,
    DeviceID: a.deviceId,
    Time: a.time,
    Longitude: a.longitude,
    Latitude: a.latitude,
    Speed: a.speed,
    Direction: a.direction,
    Altitude: a.altitude,
  };
}

export function alarmNotify(
  a: Addr & {
    priority: number;
    method: number;
    time: string;
    description?: string;
    longitude?: number;
    latitude?: number;
    alarmType?: number;
  },
): MessageOf<'Notify', 'Alarm'> {
  return {
    kind: 'Notify',
    CmdType: 'Alarm',
    SN: a.sn,
    DeviceID: a.deviceId,
    AlarmPriority: a.priority,
    AlarmMethod: a.method,
    AlarmTime: a.time,
    AlarmDescription: a.description,
    Longitude: a.longitude,
    Latitude: a.latitude,
    Info: a.alarmType === undefined ? undefined : { AlarmType: a.alarmType },
  };
}

/** GB28181 local time for a Date, YYYY-MM-DDTHH:mm:ss, in the given UTC offset (minutes; China +480). */
export function gbTime(date: Date, offsetMinutes = 480): string {
  return new Date(date.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 19);
}
