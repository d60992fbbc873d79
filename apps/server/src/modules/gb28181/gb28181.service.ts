import { GB_USERNAME, gbUserId, type GbPlayerConfig, type GbSettings, type GbUserCheck } from '@bwc/protocol';

/** The caller as the GB answers need it. */
export interface GbCaller {
  id: number;
  username: string;
}

/** Whether a console user can be used for GB (spec part 2 section 5), and why not. */
export function checkGbUser(settings: GbSettings, user: GbCaller): GbUserCheck {
  const gbid = gbUserId(settings.SipDomain, user.id) ?? '';
  const refuse = (reason: NonNullable<GbUserCheck['reason']>): GbUserCheck => ({
    usable: 0,
    reason,
    username: user.username,
    gbid,
  });
  if (settings.gb_mode !== 1) return refuse('gb_off');
  if (!GB_USERNAME.test(user.username)) return refuse('username');
  if (!gbid) return refuse('id_range');
  return { usable: 1, reason: null, username: user.username, gbid };
}

/**
 * gbconfig/get: the GB settings as the console's GB player reads them. `host` is the address the
 * console reached this server at, given as the platform's address when LocalIp is every interface.
 * `running` stays 0: the SIP platform is not part of the server yet.
 */
export function playerConfig(settings: GbSettings, user: GbCaller, host: string, videoLiveNum: number): GbPlayerConfig {
  return {
    status: settings.gb_mode,
    running: 0,
    ocx_config: {
      userid: user.id,
      username: user.username,
      ocxID: gbUserId(settings.SipDomain, user.id) ?? '',
      SipDomain: settings.SipDomain,
      ocxSip: settings.SipId,
      ocxIp: settings.LocalIp || host,
      ocxPort: settings.LocalPort,
      RegExpires: settings.RegExpires,
      AliveInterval: settings.AliveInterval,
      AliveTimeoutCnt: settings.AliveTimeoutCnt,
      VideoPort: settings.VideoPort,
      AudioPort: settings.AudioPort,
      PortCount: settings.PortCount,
    },
    video_live_num: videoLiveNum,
  };
}
