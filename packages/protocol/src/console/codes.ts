import { z } from 'zod';
import { MenuId, type Action } from '../permissions';
import { Cbid, CmdType, NoticeFields, ResponseFields, SessionId } from './envelope';
import * as Call from './call';
import * as Conference from './conference';
import * as Emergency from './emergency';
import * as Gps from './gps';
import * as Groups from './groups';
import * as Im from './im';
import * as Media from './media';
import * as Session from './session';
import * as Talk from './talk';
import * as Users from './users';
import * as Video from './video';

/**
 * Who may send a request code. Consoles are checked against their user's role (menu ids + action,
 * read at logon and refreshed) and, in the handler, their unit scope; terminals against their unit.
 * - `open`: no login needed (heartbeat, logon, logout);
 * - `login`: any logged-on client;
 * - `terminal`: terminals only;
 * - `console`: consoles whose role holds `action` on one of `menus`;
 * - `any`: terminals, and consoles whose role holds `action` on one of `menus`.
 */
export type ConsoleRule =
  | { kind: 'open' }
  | { kind: 'login' }
  | { kind: 'terminal' }
  | { kind: 'console' | 'any'; menus: readonly number[]; action: Action };

const open = { kind: 'open' } as const;
const login = { kind: 'login' } as const;
const terminal = { kind: 'terminal' } as const;
const consoleWith = (action: Action, ...menus: number[]) => ({ kind: 'console', menus, action }) as const;
const anyWith = (action: Action, ...menus: number[]) => ({ kind: 'any', menus, action }) as const;

/** The dispatch screens that use the service: emergency map, cluster talk, message push. */
const DISPATCH = [MenuId.EMERGENCY, MenuId.CLUSTER, MenuId.MSG_MANAGE];
const TALK = [MenuId.EMERGENCY, MenuId.CLUSTER];
const MESSAGES = [MenuId.EMERGENCY, MenuId.MSG_MANAGE];
const VIDEO = [MenuId.EMERGENCY, MenuId.DISPATCH_VIDEO];

/** Handler families: one server file per family (apps/server/src/realtime/console/handlers). */
export type ConsoleFamily =
  'session' | 'users' | 'gps' | 'im' | 'emergency' | 'groups' | 'video' | 'media' | 'talk' | 'call' | 'conference';

export interface ConsoleCodeDef {
  family: ConsoleFamily;
  request: z.ZodType;
  /** payload of the response (besides the envelope fields) when cmd_status is 0 */
  answer: z.ZodType;
  /** the SDK calls back `true` at once instead of waiting for the response (spec part 1 section 7) */
  fireAndForget: boolean;
  rule: ConsoleRule;
  /** not in the spec: a code a trunking system or messenger has, documented where it is defined */
  ours?: true;
}

// F keeps fireAndForget a literal type, so that the SDK's result type follows from the registry
function def<R extends z.ZodType, A extends z.ZodType, F extends boolean = false>(
  family: ConsoleFamily,
  request: R,
  answer: A,
  rule: ConsoleRule,
  extra: { fireAndForget?: F; ours?: true } = {},
) {
  return {
    family,
    request,
    answer,
    rule,
    fireAndForget: (extra.fireAndForget ?? false) as F,
    ...(extra.ours ? { ours: true as const } : {}),
  };
}
const ff = { fireAndForget: true } as const;
/** Calls and the media requests: the talk screens and dispatch video. */
const MEDIA_RULE = anyWith('view', ...TALK, MenuId.DISPATCH_VIDEO);
const media = <R extends z.ZodType, F extends boolean>(request: R, fireAndForget: F) =>
  def('media', request, Media.NotAvailableAnswer, MEDIA_RULE, { fireAndForget });

/** Every request code of the service with its schemas and rule (the `Api` registry of the websocket). */
export const ConsoleCodes = {
  heartbeat: def('session', Session.Heartbeat, Session.HeartbeatAnswer, open),
  req_logon: def('session', Session.LogonRequest, Session.LogonAnswer, open),
  req_logout: def('session', Session.LogoutRequest, Session.LogoutAnswer, open),
  req_change_passwd: def('session', Session.ChangePasswdRequest, Session.ChangePasswdAnswer, login),

  req_user_profile: def('users', Users.UserProfileRequest, Users.UserProfileAnswer, anyWith('view', ...DISPATCH)),
  req_params_set: def('users', Users.ParamsSetRequest, Users.ParamsSetAnswer, consoleWith('edit', MenuId.EMERGENCY)),
  req_user_state: def('users', Users.UserStateRequest, Users.UserStateAnswer, anyWith('view', ...DISPATCH), ff),
  req_add_admin_users: def(
    'users',
    Users.AddAdminUsersRequest,
    Users.AddAdminUsersAnswer,
    consoleWith('edit', MenuId.EMERGENCY),
  ),

  req_query_gps: def('gps', Gps.QueryGpsRequest, Gps.GpsAnswer, anyWith('view', ...DISPATCH), ff),
  req_query_history_gps: def(
    'gps',
    Gps.QueryHistoryGpsRequest,
    Gps.HistoryGpsAnswer,
    consoleWith('view', MenuId.EMERGENCY, MenuId.HISTORY, MenuId.TRACK),
  ),
  req_report_gps: def('gps', Gps.ReportGpsRequest, Gps.ReportGpsAnswer, terminal, { ours: true }),

  req_send_im: def('im', Im.SendImRequest, Im.SendImAnswer, anyWith('view', ...MESSAGES)),
  req_send_file_done: def('im', Im.SendFileDoneRequest, Im.SendFileDoneAnswer, anyWith('view', ...MESSAGES)),
  req_im_list: def('im', Im.ImListRequest, Im.ImListAnswer, anyWith('view', ...MESSAGES)),
  req_im_sessions: def('im', Im.ImSessionsRequest, Im.ImSessionsAnswer, anyWith('view', ...MESSAGES), { ours: true }),

  req_emergency: def('emergency', Emergency.EmergencyRequest, Emergency.EmergencyAnswer, terminal, { ours: true }),
  req_emergency_handled: def(
    'emergency',
    Emergency.EmergencyHandledRequest,
    Emergency.EmergencyHandledAnswer,
    consoleWith('edit', MenuId.DISPATCH_ALARM, MenuId.MONITOR_ALARM),
    ff,
  ),

  req_grp_profile: def('groups', Groups.GrpProfileRequest, Groups.GrpProfileAnswer, anyWith('view', ...TALK)),
  req_group_attach_info: def(
    'groups',
    Groups.GroupAttachInfoRequest,
    Groups.GroupAttachInfoAnswer,
    anyWith('view', ...TALK),
  ),
  req_create_grp: def('groups', Groups.CreateGrpRequest, Groups.CreateGrpAnswer, consoleWith('add', MenuId.EMERGENCY)),
  req_delete_grp: def('groups', Groups.TgidRequest, Groups.DeleteGrpAnswer, consoleWith('edit', MenuId.EMERGENCY)),
  req_enter_group: def('groups', Groups.EnterGroupRequest, Groups.GroupUsersAnswer, anyWith('view', ...TALK), ff),
  req_leave_group: def('groups', Groups.LeaveGroupRequest, Groups.GroupUsersAnswer, anyWith('view', ...TALK), ff),
  req_force_enter_group: def(
    'groups',
    Groups.GroupUsersRequest,
    Groups.GroupUsersAnswer,
    consoleWith('edit', MenuId.EMERGENCY),
    ff,
  ),
  req_force_leave_group: def(
    'groups',
    Groups.GroupUsersRequest,
    Groups.GroupUsersAnswer,
    consoleWith('edit', MenuId.EMERGENCY),
    ff,
  ),
  req_add_grp_mem: def(
    'groups',
    Groups.GroupUsersRequest,
    Groups.GroupUsersAnswer,
    consoleWith('edit', MenuId.EMERGENCY),
    ff,
  ),
  req_rem_grp_mem: def(
    'groups',
    Groups.GroupUsersRequest,
    Groups.GroupUsersAnswer,
    consoleWith('edit', MenuId.EMERGENCY),
    ff,
  ),

  req_get_video_list: def('video', Video.VideoListRequest, Video.VideoListAnswer, consoleWith('view', ...VIDEO)),
  req_transform_video: def(
    'video',
    Video.TransformVideoRequest,
    Video.TransformVideoAnswer,
    consoleWith('edit', ...VIDEO),
  ),
  req_get_push_video_users: def(
    'video',
    Video.PushVideoUsersRequest,
    Video.PushVideoUsersAnswer,
    consoleWith('view', ...VIDEO),
  ),
  req_report_video: def('video', Video.ReportVideoRequest, Video.ReportVideoAnswer, terminal, { ours: true }),

  req_call: def('call', Call.CallRequest, Call.CallAnswer, MEDIA_RULE, ff),
  req_call_status: def('call', Call.CallStatusRequest, Call.CallAnswer, MEDIA_RULE, ff),
  req_dtmf: def('call', Call.DtmfRequest, Call.DtmfAnswer, MEDIA_RULE, ff),
  req_ptt_on: def('talk', Talk.PttOnRequest, Talk.PttOnAnswer, anyWith('view', ...TALK), ff),
  req_ptt_off: def('talk', Talk.PttOffRequest, Talk.PttOffAnswer, anyWith('view', ...TALK), ff),
  req_ptt_replay: def('talk', Talk.PttReplayRequest, Talk.PttReplayAnswer, anyWith('view', ...TALK), ff),
  req_ptt_release: def('talk', Talk.PttReleaseRequest, Talk.PttOffAnswer, consoleWith('edit', ...TALK), { ours: true }),
  req_ptt_records: def('talk', Talk.PttRecordsRequest, Talk.PttRecordsAnswer, anyWith('view', ...TALK), { ours: true }),
  req_play_video: def(
    'media',
    Media.PlayVideoRequest,
    Media.PlayVideoAnswer,
    anyWith('view', ...TALK, MenuId.DISPATCH_VIDEO),
    ff,
  ),
  req_stop_play_video: def(
    'media',
    Media.PlayVideoRequest,
    Media.PlayVideoAnswer,
    anyWith('view', ...TALK, MenuId.DISPATCH_VIDEO),
    ff,
  ),
  req_switch_camera: media(Media.SwitchCameraRequest, true),
  req_video_mute: media(Media.VideoMuteRequest, true),
  req_update_video_set: media(Media.VideoSetRequest, false),
  // a console starts a conference; any participant (terminals too) shares; stop: the demander or edit (handler)
  req_start_video_conf: def(
    'conference',
    Conference.VideoConfRequest,
    Conference.ConferenceAnswer,
    consoleWith('view', ...TALK, MenuId.DISPATCH_VIDEO),
  ),
  req_stop_video_conf: def('conference', Conference.VideoConfRequest, Conference.StopConfNotice, MEDIA_RULE),
  req_share_video_in_video_conf: def(
    'conference',
    Conference.ShareVideoRequest,
    Conference.ShareConfNotice,
    MEDIA_RULE,
  ),
  req_stop_share_video_in_video_conf: def(
    'conference',
    Conference.ShareVideoRequest,
    Conference.ShareConfNotice,
    MEDIA_RULE,
  ),
} as const satisfies Record<string, ConsoleCodeDef>;

export type ConsoleCode = keyof typeof ConsoleCodes;
export type ConsoleRequestOf<C extends ConsoleCode> = z.input<(typeof ConsoleCodes)[C]['request']>;
export type ConsoleAnswerOf<C extends ConsoleCode> = z.input<(typeof ConsoleCodes)[C]['answer']>;

export function isConsoleCode(code: string): code is ConsoleCode {
  return Object.prototype.hasOwnProperty.call(ConsoleCodes, code);
}

/** Every notice the service pushes, with its payload (besides the envelope fields). */
export const ConsoleNotices = {
  notice_logon: Session.LogonNotice,
  notice_logout: Session.LogoutNotice,
  notice_error: Session.ErrorNotice,
  notice_user_profile: Users.UserProfileNotice,
  notice_params_set: Users.ParamsSetNotice,
  notice_user_state: Users.UserStateNotice,
  notice_gps: Gps.GpsNotice,
  notice_query_gps: Gps.QueryGpsNotice,
  notice_im: Im.ImNotice,
  notice_im_state: Im.ImStateNotice,
  notice_emergency: Emergency.EmergencyNotice,
  notice_emergency_handled: Emergency.EmergencyHandledNotice,
  notice_group_attach_info: Groups.GroupAttachInfoNotice,
  notice_create_grp: Groups.CreateGrpNotice,
  notice_update_grp: Groups.UpdateGrpNotice,
  notice_delete_grp: Groups.DeleteGrpNotice,
  notice_enter_group: Groups.EnterLeaveNotice,
  notice_leave_group: Groups.EnterLeaveNotice,
  notice_add_grp_mem: Groups.MembersNotice,
  notice_rem_grp_mem: Groups.MembersNotice,
  notice_grp_mem_status: Groups.GrpMemStatusNotice,
  notice_transform_video: Video.TransformVideoNotice,
  notice_call_status: Call.CallNotice,
  notice_dtmf: Call.DtmfNotice,
  notice_ptt_status: Talk.PttStatusNotice,
  notice_ptt_replay: Talk.PttReplayNotice,
  notice_play_video: Media.MediaNotice,
  notice_stop_play_video: Media.MediaNotice,
  notice_switch_camera: Media.MediaNotice,
  notice_video_mute: Media.MediaNotice,
  notice_update_video_set: Media.MediaNotice,
  notice_start_video_conf: Conference.StartConfNotice,
  notice_stop_video_conf: Conference.StopConfNotice,
  notice_share_video_in_video_conf: Conference.ShareConfNotice,
  notice_stop_share_video_in_video_conf: Conference.ShareConfNotice,
} as const satisfies Record<string, z.ZodObject>;
export type ConsoleNoticeCode = keyof typeof ConsoleNotices;
export type ConsoleNoticeOf<N extends ConsoleNoticeCode> = z.input<(typeof ConsoleNotices)[N]>;

const responseCode = (code: string) => (code === 'heartbeat' ? 'heartbeat' : `rsp_${code.slice(4)}`);
const entries = Object.entries(ConsoleCodes) as [ConsoleCode, ConsoleCodeDef][];
/** The plain shape of a payload schema (its refinements are checked by the code's own schema). */
const shapeOf = (schema: z.ZodType): z.ZodRawShape => {
  if (schema instanceof z.ZodObject) return schema.shape;
  throw new Error('console payloads are objects');
};
type NonEmpty = [z.ZodObject, ...z.ZodObject[]];

/**
 * One zod discriminated union per direction (by msg_code), and one of all three (by cmd_type):
 * what the SDK reads (responses and notices) and what the service reads (requests). Requests
 * with refinements are checked in full by `ConsoleCodes[code].request`; here their shape is used.
 */
export const ConsoleRequest = z.discriminatedUnion(
  'msg_code',
  entries.map(([code, d]) =>
    z.object({
      ...shapeOf(d.request),
      msg_code: z.literal(code),
      cmd_type: z.literal(CmdType.REQUEST),
      session: SessionId.optional(),
      cbid: Cbid.optional(),
    }),
  ) as unknown as NonEmpty,
);
export const ConsoleResponse = z.discriminatedUnion('msg_code', [
  ...entries.map(([code, d]) =>
    // an error response carries only the envelope: the payload fields are optional
    z.object({
      ...Object.fromEntries(Object.entries(shapeOf(d.answer)).map(([k, v]) => [k, (v as z.ZodType).optional()])),
      msg_code: z.literal(responseCode(code)),
      ...ResponseFields,
    }),
  ),
  z.object({ msg_code: z.literal('rsp_error'), ...ResponseFields }),
] as unknown as NonEmpty);
export const ConsoleNotice = z.discriminatedUnion(
  'msg_code',
  (Object.entries(ConsoleNotices) as [string, z.ZodObject][]).map(([code, payload]) =>
    payload.extend({ msg_code: z.literal(code), ...NoticeFields }),
  ) as unknown as NonEmpty,
);
/** Any message of the service, discriminated by cmd_type (0 request, 1 response, 2 notice), then by msg_code. */
export const ConsoleMessage = z.discriminatedUnion('cmd_type', [ConsoleRequest, ConsoleResponse, ConsoleNotice]);
export type ConsoleMessage = z.infer<typeof ConsoleMessage>;
