import { z } from 'zod';
import { AckType } from '../schemas/alarm-record';
import { Latitude, Longitude } from '../schemas/device-fields';
import { intIn, maybe, numeric, OptionalExtId, OptionalUid, RequiredText, StringLike, Text } from './fields';

/**
 * Emergencies (spec part 1 sections 3 and 7). A terminal's emergency (`req_emergency`, ours: the
 * spec names only the console side) is an SOS: it raises an alarm through the alarm module (the
 * same bell, history and acknowledgement as a device API SOS) and every console that sees the
 * terminal's unit gets `notice_emergency` (an SOS through the device API gives the same notice).
 * `req_emergency_handled` acknowledges the terminal's open SOS alarms and notifies every console
 * of that scope and the terminal.
 */

export const EmergencyRequest = z.object({
  lat: maybe(numeric(Latitude)),
  lng: maybe(numeric(Longitude)),
  message: maybe(Text(255)),
});
export type EmergencyRequest = z.infer<typeof EmergencyRequest>;
export const EmergencyAnswer = z.object({ event_id: z.number().int() });

/** notice_emergency: a terminal's SOS. */
export const EmergencyNotice = z.object({
  uid: z.number().int(),
  ext_id: z.string(),
  display_name: z.string(),
  hostbody: z.string(),
  unit_id: z.number().int(),
  /** the device event; the alarm's eid is `sos:<event_id>` */
  event_id: z.number().int(),
  lat: z.number().nullable(),
  lng: z.number().nullable(),
  message: z.string(),
  /** ISO */
  time: z.string(),
});
export type EmergencyNotice = z.infer<typeof EmergencyNotice>;

/** req_emergency_handled (fire-and-forget in the SDK). `processor` is recorded as the handler. */
export const EmergencyHandledRequest = z
  .object({
    uid: OptionalUid,
    extUid: OptionalExtId,
    processor: RequiredText(64),
    timestamp: maybe(StringLike(40)),
    ack_type: intIn(0, 99).default(AckType.HANDLED),
  })
  .refine((m) => m.uid !== undefined || m.extUid !== undefined, { error: 'validation.required', path: ['uid'] });
export type EmergencyHandledRequest = z.infer<typeof EmergencyHandledRequest>;
export const EmergencyHandledAnswer = z.object({
  uid: z.number().int(),
  extUid: z.string(),
  /** alarms acknowledged (0 when none was open) */
  handled: z.number().int(),
});
/** notice_emergency_handled */
export const EmergencyHandledNotice = z.object({
  uid: z.number().int(),
  extUid: z.string(),
  processor: z.string(),
  timestamp: z.string(),
  ack_type: z.number().int(),
  handled: z.number().int(),
  /** uid of the console that handled it */
  handler: z.number().int(),
});
export type EmergencyHandledNotice = z.infer<typeof EmergencyHandledNotice>;
