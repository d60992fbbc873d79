import { describe, expect, it } from 'vitest';
import { sharedCatalogs, translate } from '../i18n';
import {
  CmdStatus,
  CmdType,
  ConsoleCodes,
  ConsoleMessage,
  ConsoleNotice,
  ConsoleNotices,
  ConsoleRequest,
  ConsoleResponse,
  CONSOLE_PORT_DEFAULT,
  EmergencyHandledRequest,
  gfileUploadUrl,
  ImType,
  LogonRequest,
  QueryHistoryGpsRequest,
  REALTIME_PORTS,
  RequestEnvelope,
  responseCodeOf,
  SDK_CODES,
  sdkMessageKey,
  SendImRequest,
  TimeInput,
  TransformVideoRequest,
  VideoListRequest,
} from '.';

describe('console service envelope', () => {
  it('answers req_x with rsp_x, the heartbeat with heartbeat, anything else with rsp_error', () => {
    expect(responseCodeOf('req_logon')).toBe('rsp_logon');
    expect(responseCodeOf('heartbeat')).toBe('heartbeat');
    expect(responseCodeOf('notice_gps')).toBe('rsp_error');
    expect(responseCodeOf(undefined)).toBe('rsp_error');
    expect(responseCodeOf('req_<script>')).toBe('rsp_error');
  });

  it('reads a request envelope: cmd_type defaults to 0, other cmd_types are refused', () => {
    expect(RequestEnvelope.parse({ msg_code: 'heartbeat' })).toEqual({ msg_code: 'heartbeat', cmd_type: 0 });
    expect(RequestEnvelope.parse({ msg_code: 'req_logon', cmd_type: 0, cbid: 7, session: 's1' })).toMatchObject({
      cbid: 7,
      session: 's1',
    });
    expect(RequestEnvelope.safeParse({ msg_code: 'req_logon', cmd_type: 1 }).success).toBe(false);
    expect(RequestEnvelope.safeParse({ cmd_type: 0 }).success).toBe(false);
  });

  it('has the spec ports and timings', () => {
    expect(REALTIME_PORTS).toEqual([9080, 3001, 3002, 3003, 3004, 3005]);
    expect(CONSOLE_PORT_DEFAULT).toBe(9080);
    expect(CmdType).toEqual({ REQUEST: 0, RESPONSE: 1, NOTICE: 2 });
    expect(CmdStatus.VIDEO_ID_EMPTY).toBe(2);
    expect(CmdStatus.VIDEO_URL_EMPTY).toBe(3);
    expect(CmdStatus.LOGIN_INVALID).toBe(52001);
    expect(CmdStatus.ALREADY_LOGGED_ON).toBe(10105);
  });

  it('builds the group-file upload address from ip, port, token and uid', () => {
    expect(gfileUploadUrl({ ip: '10.0.0.5', port: 9080, token: 'a b', uid: 12 })).toBe(
      'http://10.0.0.5:9080/gfile/upload?token=a+b&uid=12',
    );
  });
});

describe('console service codes', () => {
  it('registers every request code the spec lists, with the spec fire-and-forget set', () => {
    const withCallback = [
      'req_logon',
      'req_logout',
      'req_change_passwd',
      'req_user_profile',
      'req_params_set',
      'req_grp_profile',
      'req_group_attach_info',
      'req_query_history_gps',
      'req_send_im',
      'req_send_file_done',
      'req_im_list',
      'req_create_grp',
      'req_delete_grp',
      'req_update_video_set',
      'req_start_video_conf',
      'req_stop_video_conf',
      'req_share_video_in_video_conf',
      'req_stop_share_video_in_video_conf',
      'req_get_video_list',
      'req_transform_video',
      'req_get_push_video_users',
      'req_add_admin_users',
    ];
    const fireAndForget = [
      'req_call',
      'req_emergency_handled',
      'req_query_gps',
      'req_enter_group',
      'req_leave_group',
      'req_force_enter_group',
      'req_force_leave_group',
      'req_add_grp_mem',
      'req_rem_grp_mem',
      'req_user_state',
      'req_call_status',
      'req_ptt_on',
      'req_ptt_off',
      'req_ptt_replay',
      'req_dtmf',
      'req_play_video',
      'req_stop_play_video',
      'req_switch_camera',
      'req_video_mute',
    ];
    for (const code of withCallback) expect(ConsoleCodes, code).toHaveProperty(code + '.fireAndForget', false);
    for (const code of fireAndForget) expect(ConsoleCodes, code).toHaveProperty(code + '.fireAndForget', true);
    const ours = Object.entries(ConsoleCodes)
      .filter(([, d]) => 'ours' in d)
      .map(([c]) => c);
    expect(ours.sort()).toEqual([
      'req_emergency',
      'req_im_sessions',
      'req_ptt_records',
      'req_ptt_release',
      'req_report_gps',
      'req_report_video',
    ]);
    expect(Object.keys(ConsoleCodes).length).toBe(withCallback.length + fireAndForget.length + ours.length + 1);
  });

  it('registers every notice the spec lists', () => {
    for (const n of [
      'logon',
      'logout',
      'emergency',
      'emergency_handled',
      'user_profile',
      'params_set',
      'user_state',
      'gps',
      'query_gps',
      'im',
      'group_attach_info',
      'enter_group',
      'leave_group',
      'add_grp_mem',
      'rem_grp_mem',
      'grp_mem_status',
      'error',
    ])
      expect(ConsoleNotices).toHaveProperty(`notice_${n}`);
  });

  it('parses whole messages by cmd_type and msg_code', () => {
    const req = ConsoleMessage.parse({ msg_code: 'req_enter_group', cmd_type: 0, cbid: 'c1', tgid: '12' });
    expect(req).toMatchObject({ msg_code: 'req_enter_group', tgid: 12, mute: 0 });
    const rsp = ConsoleMessage.parse({
      msg_code: 'rsp_logon',
      cmd_type: 1,
      cbid: 'c1',
      cmd_status: CmdStatus.BAD_CREDENTIALS,
      error_reason: 'Wrong account or password',
    });
    expect(rsp).toMatchObject({ msg_code: 'rsp_logon', cmd_status: 40101 });
    const notice = ConsoleNotice.parse({
      msg_code: 'notice_user_state',
      cmd_type: 2,
      uid: 5,
      ext_id: '9001',
      user_type: 0,
      state: 7,
      unit_id: 2,
      time: 1,
    });
    expect(notice).toMatchObject({ state: 7 });
    expect(
      ConsoleResponse.safeParse({ msg_code: 'rsp_nothing', cmd_type: 1, cmd_status: 0, error_reason: '' }).success,
    ).toBe(false);
    expect(ConsoleRequest.safeParse({ msg_code: 'rsp_logon', cmd_type: 0 }).success).toBe(false);
    expect(ConsoleMessage.safeParse({ msg_code: 'notice_gps', cmd_type: 0 }).success).toBe(false);
  });
});

describe('console service payloads', () => {
  const logon = { logon_name: 'dispatcher', passwd: 'x' };

  it('logon: client_alive_time 0 or empty becomes 0; the console is the default user_type', () => {
    expect(LogonRequest.parse({ ...logon, client_alive_time: '' }).client_alive_time).toBe(0);
    expect(LogonRequest.parse(logon).client_alive_time).toBe(0);
    expect(LogonRequest.parse({ ...logon, client_alive_time: '30' }).client_alive_time).toBe(30);
    expect(LogonRequest.parse(logon).user_type).toBe(1);
    expect(LogonRequest.safeParse({ ...logon, client_alive_time: -1 }).success).toBe(false);
    expect(LogonRequest.safeParse({ logon_name: 'x' }).error?.issues[0]).toMatchObject({
      path: ['passwd'],
      message: 'validation.required',
    });
  });

  it('video list: start below 0 becomes 0, length 0 or less becomes 100', () => {
    expect(VideoListRequest.parse({ start: -5, length: 0 })).toMatchObject({ start: 0, length: 100 });
    expect(VideoListRequest.parse({ start: '3', length: '-2' })).toMatchObject({ start: 3, length: 100 });
    expect(VideoListRequest.parse({ length: 20 })).toMatchObject({ start: 0, length: 20 });
  });

  it('transform video lets empty ids through (the service answers 2 / 3)', () => {
    expect(TransformVideoRequest.parse({})).toEqual({ videoid: '', videourl: '' });
  });

  it('instant messages: text needs content, files need a fid; one of target and exttarget', () => {
    expect(SendImRequest.safeParse({ target: 3, im_type: ImType.TEXT, content: 'hi' }).success).toBe(true);
    expect(SendImRequest.safeParse({ target: 3, im_type: ImType.TEXT, content: '  ' }).error?.issues[0]?.path).toEqual([
      'content',
    ]);
    expect(SendImRequest.safeParse({ target: 3, im_type: ImType.IMAGE }).error?.issues[0]?.path).toEqual(['fid']);
    expect(SendImRequest.safeParse({ im_type: ImType.TEXT, content: 'x' }).error?.issues[0]?.path).toEqual(['target']);
    expect(SendImRequest.safeParse({ exttarget: '9001', im_type: ImType.FILE, fid: 'abcdefgh12' }).success).toBe(true);
  });

  it('emergency handled needs uid or extUid and the processor', () => {
    expect(EmergencyHandledRequest.safeParse({ uid: 3, processor: 'Li' }).data).toMatchObject({ ack_type: 0 });
    expect(EmergencyHandledRequest.safeParse({ extUid: '9001' }).error?.issues[0]?.path).toEqual(['processor']);
  });

  it('reads times as ISO, local date-time or Unix seconds / milliseconds', () => {
    expect(TimeInput.parse('2024-05-01T00:00:00Z')).toBe(Date.UTC(2024, 4, 1));
    expect(TimeInput.parse(1_714_521_600)).toBe(1_714_521_600_000);
    expect(TimeInput.parse('1714521600000')).toBe(1_714_521_600_000);
    expect(TimeInput.parse('2024-05-01 08:30:00')).toBe(new Date(2024, 4, 1, 8, 30, 0).getTime());
    expect(TimeInput.safeParse('yesterday').error?.issues[0]?.message).toBe('validation.datetime');
    const range = QueryHistoryGpsRequest.safeParse({ target: 1, starttime: 2000, endtime: 1000 });
    expect(range.error?.issues[0]).toMatchObject({ path: ['endtime'], message: 'validation.timeRange' });
  });
});

describe('SDK codes and console texts', () => {
  it('describes every SDK code in both languages', () => {
    expect(SDK_CODES).toEqual([10000, 10001, 10002, 10101, 10102, 10103, 10104, 10105, 10106, 10107]);
    for (const code of SDK_CODES) {
      const zh = translate('zh-CN', sdkMessageKey(code));
      const en = translate('en-US', sdkMessageKey(code));
      expect(zh, String(code)).not.toBe(sdkMessageKey(code));
      expect(en, String(code)).not.toBe(sdkMessageKey(code));
      expect(zh).not.toBe(en);
    }
  });

  it('has the same console keys in both languages', () => {
    const keys = (o: object, prefix = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) =>
        typeof v === 'object' ? keys(v as object, `${prefix}${k}.`) : [`${prefix}${k}`],
      );
    expect(keys(sharedCatalogs['en-US'].console).sort()).toEqual(keys(sharedCatalogs['zh-CN'].console).sort());
    expect(keys(sharedCatalogs['en-US'].sdk).sort()).toEqual(keys(sharedCatalogs['zh-CN'].sdk).sort());
  });
});
