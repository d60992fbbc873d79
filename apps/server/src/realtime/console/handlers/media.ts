import type { ConsoleCode } from '@bwc/protocol';
import { ConsoleErrors } from '../errors';
import { defineHandler, type ConsoleHandler } from '../handler';

/**
 * Calls, push-to-talk, live video and video conferences: their media comes with later issues.
 * Until then each request is checked (rule, then schema, by the dispatcher) and answered
 * NOT_AVAILABLE naming its code, never dropped.
 */
const MEDIA_CODES = [
  'req_call',
  'req_call_status',
  'req_dtmf',
  'req_ptt_on',
  'req_ptt_off',
  'req_ptt_replay',
  'req_play_video',
  'req_stop_play_video',
  'req_switch_camera',
  'req_video_mute',
  'req_update_video_set',
  'req_start_video_conf',
  'req_stop_video_conf',
  'req_share_video_in_video_conf',
  'req_stop_share_video_in_video_conf',
] as const satisfies readonly ConsoleCode[];

export const mediaHandlers: ConsoleHandler[] = MEDIA_CODES.map((code) =>
  defineHandler({
    code,
    handler: async () => {
      throw ConsoleErrors.notAvailable(code);
    },
  }),
);
