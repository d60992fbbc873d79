import { z } from 'zod';
import { between } from '../validators';
import { FlagInput, PageQuery } from '../envelope';
import { Imei, Latitude, Longitude } from './device-fields';
import { numberInput, optionalId, optionalInput } from './inputs';
import { LiveInfo } from './live-stream';

/**
 * Devices (spec part 2 sections 3, 4, 5, 7.1, 7.2, 9): the recorder registry of the
 * operations centre (recorderAdmin 10311, recorderModel 10314), the device API the cameras (and
 * the simulator) speak, the OsmAnd/Traccar ingest, and the `gismoni` position, status and command
 * calls of the dispatch map (Emergency 10101). Coordinates on the wire and in the database are
 * WGS-84; GCJ-02 is a display concern of the console only.
 */

// ---------------------------------------------------------------------------------------------
// Limits
// ---------------------------------------------------------------------------------------------

/** Most positions one device API batch may carry. */
export const DEVICE_POSITION_BATCH_MAX = 500;
/** Most devices one provisioning call may create. */
export const DEVICE_PROVISION_MAX = 1000;
/** Default silence timeout: a device that sent nothing for this long is marked offline. */
export const DEVICE_SILENCE_TIMEOUT_DEFAULT_S = 60;
export const DEVICE_SILENCE_TIMEOUT_MIN_S = 10;
export const DEVICE_SILENCE_TIMEOUT_MAX_S = 3600;
/** Longest long-poll of the device command queue. */
export const DEVICE_COMMAND_WAIT_MAX_S = 30;
/** OsmAnd (Traccar Client) HTTP port, as Traccar uses; config OSMAND_PORT, 0 disables. */
export const OSMAND_DEFAULT_PORT = 5055;
/** Rows of one device import (.xlsx). */
export const DEVICE_IMPORT_MAX_ROWS = 10_000;
/** typecate: position 0 is the device category, positions 1 to 3 are capability flags (spec part 2 section 3). */
export const TYPECATE_DEFAULT = [1, 1, 1, 1] as const;
/** Device categories (typecate[0]). */
export const DEVICE_CATEGORY = { bodyCamera: 1, vehicle: 2, handheld: 3 } as const;

// ---------------------------------------------------------------------------------------------
// Field rules
// ---------------------------------------------------------------------------------------------

const id = numberInput(
  z
    .number({ error: 'validation.required' })
    .int({ error: 'validation.integer' })
    .positive({ error: 'validation.range' }),
);
const text = (max: number) =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(max, { error: 'validation.tooLong' });
const optionalText = (max: number) =>
  z.string({ error: 'validation.type' }).trim().max(max, { error: 'validation.tooLong' });
const keyword = z.string().trim().max(100, { error: 'validation.tooLong' }).optional();

/** Host body number (did): the device's serial, 1 to 32 letters, digits, `_` or `-`. */
export const Hostbody = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .regex(/^[A-Za-z0-9_-]{1,32}$/, { error: 'validation.device.hostbody' });
/** typecate: 4 integers, position 0 the category, 1 to 3 capability flags 0/1. */
export const Typecate = z
  .array(
    z.coerce
      .number({ error: 'validation.number' })
      .int({ error: 'validation.integer' })
      .min(0, { error: 'validation.range' })
      .max(99, { error: 'validation.range' }),
    {
      error: 'validation.type',
    },
  )
  .length(4, { error: 'validation.device.typecate' })
  .refine((a) => a.slice(1).every((f) => f === 0 || f === 1), { error: 'validation.device.typecate' });

// ---------------------------------------------------------------------------------------------
// Device records (recorderAdmin 10311)
// ---------------------------------------------------------------------------------------------

/** One device (recorder) as every device call answers it (spec part 2 section 3, Device). */
export const Device = z.object({
  id: z.number().int(),
  /** device id on the map calls: the host body number */
  did: z.string(),
  hostbody: z.string(),
  imei: z.string(),
  /** the police officer's code shown in brackets after the name */
  hostcode: z.string(),
  /** the platform's device id (= id), what group edit sends */
  hostid: z.number().int(),
  hostname: z.string(),
  /** 0 offline, 1 online */
  lineon: z.number().int(),
  /** 1 while remotely killed */
  remote_kill: z.number().int(),
  /** [category, flag1, flag2, flag3]; kill sets flags 1-3 to 0, wake back to 1 */
  typecate: z.array(z.number().int()),
  /** last WGS-84 position, null before the first fix */
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  /** trunked group-talk (cluster) code, '' when the device has none */
  jq_hostcode: z.string(),
  unit_id: z.number().int(),
  unitname: z.string(),
  dwbh: z.string(),
  model_id: z.number().int().nullable(),
  model_name: z.string(),
  /** the person (account) carrying the device */
  owner_id: z.number().int().nullable(),
  owner_name: z.string(),
  remark: z.string(),
  speed: z.number().nullable(),
  course: z.number().nullable(),
  battery: z.number().nullable(),
  /** time of the last position fix (ISO) */
  gps_time: z.string().nullable(),
  /** last time the device sent anything (ISO) */
  last_seen: z.string().nullable(),
  created: z.string(),
  updated: z.string(),
});
export type Device = z.infer<typeof Device>;

/** GET rest/oam/recorder/get */
export const DeviceListQuery = PageQuery.extend({
  /** part of hostname, hostbody, imei, hostcode or jq_hostcode */
  keyword,
  unit_id: optionalId,
  /** with unit_id: 1 (default) also the devices of its sub-units */
  include_sub: FlagInput.default(1),
  model_id: optionalId,
  lineon: optionalInput(FlagInput),
});
export type DeviceListQuery = z.infer<typeof DeviceListQuery>;

const deviceFields = {
  hostbody: Hostbody,
  imei: Imei,
  hostname: text(50),
  hostcode: optionalText(32).default(''),
  jq_hostcode: optionalText(32).default(''),
  unit_id: id,
  model_id: optionalInput(
    numberInput(
      z
        .number({ error: 'validation.number' })
        .int({ error: 'validation.integer' })
        .positive({ error: 'validation.range' }),
    ).nullable(),
  ),
  owner_id: optionalInput(
    numberInput(
      z
        .number({ error: 'validation.number' })
        .int({ error: 'validation.integer' })
        .positive({ error: 'validation.range' }),
    ).nullable(),
  ),
  typecate: Typecate.optional(),
  remark: optionalText(255).default(''),
};

/** POST rest/oam/recorder/add: refused beyond the licensed device count. */
export const DeviceAddRequest = z.object(deviceFields);
export type DeviceAddRequest = z.infer<typeof DeviceAddRequest>;

/** Answer of add and reset_secret: the device API secret is shown this once (stored hashed). */
export const DeviceWithSecret = z.object({ device: Device, secret: z.string() });
export type DeviceWithSecret = z.infer<typeof DeviceWithSecret>;

/**
 * POST rest/oam/recorder/update: every field but the secret (lineon/remote_kill follow the device).
 * `owner_id` left out keeps the device's owner (a client that does not know the field must not
 * take the camera from its officer with an edit of the remark); `null` takes the owner away. The
 * console's form always sends it (its officer field).
 */
export const DeviceUpdateRequest = z.object({
  id,
  ...deviceFields,
  owner_id: z
    .preprocess(
      (v) => (v === '' ? undefined : typeof v === 'string' ? Number(v) : v),
      z
        .number({ error: 'validation.number' })
        .int({ error: 'validation.integer' })
        .positive({ error: 'validation.range' })
        .nullable()
        .optional(),
    )
    .optional(),
});
export type DeviceUpdateRequest = z.infer<typeof DeviceUpdateRequest>;

/** POST rest/oam/recorder/del and reset_secret: `{id}` */
export const DeviceIdRequest = z.object({ id });
export type DeviceIdRequest = z.infer<typeof DeviceIdRequest>;

/**
 * POST rest/oam/recorder/import (multipart, field `file`, at most UPLOAD_LIMIT_MB.excelImport):
 * an .xlsx workbook (legacy binary .xls is refused with a message asking to save as .xlsx), first
 * sheet, first row the headers (zh or en names of DEVICE_IMPORT_COLUMNS, any order), optional
 * form field `unit_id` as the default unit. Valid rows are created, each bad row reported; nothing
 * of a bad row is written. Secrets of the created devices are in the answer (shown once).
 */
export const DEVICE_IMPORT_COLUMNS = [
  { key: 'hostbody', zh: '设备编号', required: true },
  { key: 'imei', zh: 'IMEI', required: true },
  { key: 'hostname', zh: '使用人', required: true },
  { key: 'hostcode', zh: '警号', required: false },
  { key: 'jq_hostcode', zh: '集群号', required: false },
  { key: 'dwbh', zh: '单位编号', required: false },
  { key: 'model', zh: '型号', required: false },
  { key: 'remark', zh: '备注', required: false },
] as const;
export const DeviceImportResult = z.object({
  total: z.number().int(),
  created: z.number().int(),
  failed: z.number().int(),
  /** row: 1-based sheet row number */
  errors: z.array(z.object({ row: z.number().int(), field: z.string(), msg: z.string() })),
  secrets: z.array(z.object({ id: z.number().int(), hostbody: z.string(), secret: z.string() })),
});
export type DeviceImportResult = z.infer<typeof DeviceImportResult>;

/** Device settings (settings type `devices`): GET rest/oam/recorder/settings_get, POST settings_update. */
export const DeviceSettings = z.object({
  /** seconds without any message before a device is marked offline */
  silence_timeout_s: numberInput(
    between(
      z.number({ error: 'validation.number' }).int({ error: 'validation.integer' }),
      DEVICE_SILENCE_TIMEOUT_MIN_S,
      DEVICE_SILENCE_TIMEOUT_MAX_S,
    ),
  ),
});
export type DeviceSettings = z.infer<typeof DeviceSettings>;
export const DEVICE_SETTINGS_DEFAULTS: DeviceSettings = { silence_timeout_s: DEVICE_SILENCE_TIMEOUT_DEFAULT_S };

// ---------------------------------------------------------------------------------------------
// Recorder models (recorderModel 10314)
// ---------------------------------------------------------------------------------------------

export const RecorderModel = z.object({
  id: z.number().int(),
  name: z.string(),
  vendor: z.string(),
  remark: z.string(),
  /** devices of this model */
  devices: z.number().int(),
  created: z.string(),
  updated: z.string(),
});
export type RecorderModel = z.infer<typeof RecorderModel>;
export const RecorderModelListQuery = z.object({ keyword });
export type RecorderModelListQuery = z.infer<typeof RecorderModelListQuery>;
const modelFields = { name: text(50), vendor: optionalText(50).default(''), remark: optionalText(255).default('') };
export const RecorderModelAddRequest = z.object(modelFields);
export type RecorderModelAddRequest = z.infer<typeof RecorderModelAddRequest>;
export const RecorderModelUpdateRequest = z.object({ id, ...modelFields });
export type RecorderModelUpdateRequest = z.infer<typeof RecorderModelUpdateRequest>;
/** del: refused while devices use the model */
export const RecorderModelIdRequest = z.object({ id });

// ---------------------------------------------------------------------------------------------
// Device API (cameras, Traccar-like clients, the simulator)
// ---------------------------------------------------------------------------------------------

/**
 * POST rest/device/api/login: `device` is the hostbody or the imei. Answers a bearer token for
 * the other device calls (`Authorization: Bearer <token>`); a new login replaces the old token.
 * Every device call also accepts HTTP Basic `hostbody:secret` instead.
 */
export const DeviceLoginRequest = z.object({ device: text(32), secret: text(128) });
export type DeviceLoginRequest = z.infer<typeof DeviceLoginRequest>;
export const DeviceLoginAnswer = z.object({
  token: z.string(),
  id: z.number().int(),
  hostbody: z.string(),
  imei: z.string(),
});
export type DeviceLoginAnswer = z.infer<typeof DeviceLoginAnswer>;

/** One position of a batch. `time` is ISO-8601 or epoch milliseconds. */
export const PositionInput = z.object({
  /** ISO-8601 string or epoch milliseconds; parsed to epoch milliseconds */
  time: z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Date.parse(v)) : v),
    z
      .number({
        error: (issue) =>
          issue.input === undefined || issue.input === null ? 'validation.required' : 'validation.datetime',
      })
      .int({ error: 'validation.datetime' })
      .positive({ error: 'validation.datetime' }),
  ),
  lat: Latitude,
  lng: Longitude,
  /** km/h */
  speed: z
    .number({ error: 'validation.number' })
    .min(0, { error: 'validation.range' })
    .max(1000, { error: 'validation.range' })
    .optional(),
  /** degrees from north, 0 to 360 */
  course: z
    .number({ error: 'validation.number' })
    .min(0, { error: 'validation.range' })
    .max(360, { error: 'validation.range' })
    .optional(),
  /** metres */
  accuracy: z
    .number({ error: 'validation.number' })
    .min(0, { error: 'validation.range' })
    .max(100_000, { error: 'validation.range' })
    .optional(),
  /** percent */
  battery: z
    .number({ error: 'validation.number' })
    .min(0, { error: 'validation.range' })
    .max(100, { error: 'validation.range' })
    .optional(),
});
export type PositionInput = z.infer<typeof PositionInput>;

/**
 * POST rest/device/api/positions `{positions: [...]}` (1 to DEVICE_POSITION_BATCH_MAX). Each item
 * is checked alone: valid ones are stored (in one transaction), bad ones come back in `rejected`
 * with their index and a msg naming the field. The envelope is code 200 when at least the batch
 * itself was well formed. A remotely killed device is refused (code 423).
 */
export const PositionBatchRequest = z.object({
  positions: z
    .array(z.unknown(), { error: 'validation.required' })
    .min(1, { error: 'validation.required' })
    .max(DEVICE_POSITION_BATCH_MAX, { error: 'validation.tooLong' }),
});
export const PositionBatchAnswer = z.object({
  accepted: z.number().int(),
  rejected: z.array(z.object({ index: z.number().int(), field: z.string(), msg: z.string() })),
});
export type PositionBatchAnswer = z.infer<typeof PositionBatchAnswer>;

/** POST rest/device/api/sos: an SOS from the device, stored as a device event (domain event device.sos). */
export const SosRequest = z.object({
  time: z.union([z.number().int().positive(), z.string().min(1).max(40)]).optional(),
  lat: Latitude.optional(),
  lng: Longitude.optional(),
  message: optionalText(255).optional(),
});
export type SosRequest = z.infer<typeof SosRequest>;
/** Answer of an SOS: the stored device event, answered once its alarm is committed. */
export const SosAnswer = z.object({ event_id: z.number().int() });
export type SosAnswer = z.infer<typeof SosAnswer>;

/** POST rest/device/api/status: the device says it goes online or offline. */
export const DeviceStateRequest = z.object({
  state: z.enum(['online', 'offline'], { error: 'validation.choice' }),
  battery: z
    .number({ error: 'validation.number' })
    .min(0, { error: 'validation.range' })
    .max(100, { error: 'validation.range' })
    .optional(),
});
export type DeviceStateRequest = z.infer<typeof DeviceStateRequest>;

/** Commands the console sends a device (gismoni send_cmd types, restart, kill, wake). */
export const SEND_CMD_TYPES = [
  'turnleft',
  'turnright',
  'takephoto',
  'startvideo',
  'startaudio',
  'stopaudio',
  'startmute',
  'stopmute',
] as const;
/** startlive / stoplive: publish live video now (payload StartLivePayload of schemas/live.ts) / stop it. */
export const LIVE_COMMAND_TYPES = ['startlive', 'stoplive'] as const;
export const DEVICE_COMMAND_TYPES = [...SEND_CMD_TYPES, 'restart', 'remote_kill', 'remote_wakeon', ...LIVE_COMMAND_TYPES] as const;
export type DeviceCommandType = (typeof DEVICE_COMMAND_TYPES)[number];
export const DeviceCommand = z.object({
  id: z.number().int(),
  type: z.enum(DEVICE_COMMAND_TYPES),
  created: z.string(),
  /** what the command needs (startlive: {url, expires}, minted when the device fetches it) */
  payload: z.record(z.string(), z.unknown()).optional(),
});
export type DeviceCommand = z.infer<typeof DeviceCommand>;

/**
 * GET rest/device/api/commands?wait=<s>: the device's pending commands (oldest first); with
 * `wait` > 0 the call is held until a command arrives or the wait ends (long poll).
 */
export const DeviceCommandsQuery = z.object({
  wait: numberInput(
    z
      .number({ error: 'validation.number' })
      .int({ error: 'validation.integer' })
      .min(0, { error: 'validation.range' })
      .max(DEVICE_COMMAND_WAIT_MAX_S, { error: 'validation.range' }),
  ).default(0),
});
/** POST rest/device/api/commands/ack `{id, result}` */
export const DeviceCommandAck = z.object({
  id,
  result: z.enum(['ok', 'failed'], { error: 'validation.choice' }).default('ok'),
  message: optionalText(255).default(''),
});
export type DeviceCommandAck = z.infer<typeof DeviceCommandAck>;

/** GET rest/device/api/config: what a device needs to know. */
export const DeviceApiConfig = z.object({
  gpscenter_lon: z.number(),
  gpscenter_lat: z.number(),
  silence_timeout_s: z.number().int(),
  position_batch_max: z.number().int(),
});
export type DeviceApiConfig = z.infer<typeof DeviceApiConfig>;

/**
 * POST rest/device/api/provision with `Authorization: Bearer <provisioning key>` (config
 * DEVICE_PROVISION_KEY; in demo mode generated into DATA_DIR/device-provision.key): create the
 * devices (or give an existing hostbody a new secret) and answer their secrets. Without a unit
 * code the devices are spread over the units. Counts against the licence like any creation.
 */
export const ProvisionRequest = z.object({
  devices: z
    .array(
      z.object({
        hostbody: Hostbody,
        imei: Imei,
        hostname: text(50),
        hostcode: optionalText(32).default(''),
        jq_hostcode: optionalText(32).default(''),
        unit_bh: z
          .string()
          .trim()
          .regex(/^\d{12}$/, { error: 'validation.unit.code' })
          .optional(),
      }),
    )
    .min(1, { error: 'validation.required' })
    .max(DEVICE_PROVISION_MAX, { error: 'validation.tooLong' }),
});
export type ProvisionRequest = z.infer<typeof ProvisionRequest>;
export const ProvisionAnswer = z.object({
  devices: z.array(z.object({ id: z.number().int(), hostbody: z.string(), imei: z.string(), secret: z.string() })),
  config: DeviceApiConfig,
});
export type ProvisionAnswer = z.infer<typeof ProvisionAnswer>;

// ---------------------------------------------------------------------------------------------
// gismoni (dispatch map, Emergency 10101)
// ---------------------------------------------------------------------------------------------

/** A device on the map (get_point, getUnitDevicePoint): position and state, WGS-84. */
export const DevicePoint = z.object({
  id: z.number().int(),
  did: z.string(),
  hostbody: z.string(),
  imei: z.string(),
  hostname: z.string(),
  hostcode: z.string(),
  jq_hostcode: z.string(),
  unit_id: z.number().int(),
  lineon: z.number().int(),
  remote_kill: z.number().int(),
  typecate: z.array(z.number().int()),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  speed: z.number().nullable(),
  course: z.number().nullable(),
  battery: z.number().nullable(),
  gps_time: z.string().nullable(),
  /**
   * 1 while the device has an SOS alarm that is not acknowledged and was raised within
   * MAP_SOS_WINDOW_MS; always 0 for a user without view on the dispatch alarms (10104). The map
   * takes the SOS state from here and from `alarm_data` pushes in between.
   */
  sos: z.union([z.literal(0), z.literal(1)]),
});
export type DevicePoint = z.infer<typeof DevicePoint>;

/** ids of devices (Device.id); unknown or out-of-scope ids are left out of the answer list. */
export const DeviceIdsRequest = z.object({
  ids: z
    .array(
      numberInput(
        z
          .number({ error: 'validation.number' })
          .int({ error: 'validation.integer' })
          .positive({ error: 'validation.range' }),
      ),
      { error: 'validation.required' },
    )
    .min(1, { error: 'validation.required' })
    .max(10_000, { error: 'validation.tooLong' }),
});
export type DeviceIdsRequest = z.infer<typeof DeviceIdsRequest>;

/** getUnitDevicePoint: every device of the caller's scope (or below `unit_id`), `located` 1 keeps only those with a fix. */
export const UnitDevicePointRequest = z.object({ unit_id: optionalId, located: FlagInput.default(0) });
export type UnitDevicePointRequest = z.infer<typeof UnitDevicePointRequest>;

/** gisstatus {imei} */
export const ImeiRequest = z.object({ imei: Imei });
export const DeviceStatus = z.object({
  id: z.number().int(),
  imei: z.string(),
  hostbody: z.string(),
  lineon: z.number().int(),
  remote_kill: z.number().int(),
  typecate: z.array(z.number().int()),
  battery: z.number().nullable(),
  last_seen: z.string().nullable(),
  gps_time: z.string().nullable(),
  /** live video: idle, starting (told to publish) or live; viewers now, since (ISO, live), bits per second */
  live: LiveInfo.optional(),
  /** commands not yet acknowledged by the device */
  pending_commands: z.number().int(),
});
export type DeviceStatus = z.infer<typeof DeviceStatus>;

/** send_restart {imei, hostbody}: both must name the same device. */
export const SendRestartRequest = z.object({ imei: Imei, hostbody: Hostbody });
/** send_cmd {imei, type} */
export const SendCmdRequest = z.object({
  imei: Imei,
  type: z.enum(SEND_CMD_TYPES, { error: 'validation.device.cmdType' }),
});
export type SendCmdRequest = z.infer<typeof SendCmdRequest>;
/** Answer of send_restart / send_cmd: the queued command. */
export const CommandQueued = z.object({ command_id: z.number().int(), type: z.string() });

/**
 * Remote kill or wake {imei, action}: code 200 (compared as string '200'). Kill: remote_kill 1,
 * lineon 0, typecate flags 1-3 set to 0; wake: remote_kill 0, lineon 1, flags 1. The command is
 * also queued for the device.
 */
export const REMOTE_ACTIONS = ['remote_kill', 'remote_wakeon'] as const;
export const RemoteKillRequest = z.object({
  imei: Imei,
  action: z.enum(REMOTE_ACTIONS, { error: 'validation.device.action' }),
});
export type RemoteKillRequest = z.infer<typeof RemoteKillRequest>;
export const RemoteKillAnswer = z.object({
  id: z.number().int(),
  imei: z.string(),
  remote_kill: z.number().int(),
  lineon: z.number().int(),
  typecate: z.array(z.number().int()),
  command_id: z.number().int(),
});
export type RemoteKillAnswer = z.infer<typeof RemoteKillAnswer>;
