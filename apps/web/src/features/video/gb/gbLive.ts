import { ALARM_TYPE, type Alarm, type GbTreeNode } from '@bwc/protocol';
import { call } from '../../../api/http';
import { currentLanguage } from '../../../i18n';
import { createLivePlayer, releaseLive, type LiveDevice } from '../liveSource';
import { LivePlayer, type LivePlayAnswer } from '../player/LivePlayer';
import type { WallDeps } from '../wallModel';

/**
 * A GB channel on the video wall. The wall keys its tiles by a numeric device id: GB channels get
 * negative ones, stable for the page's life, so they never meet a body camera's id.
 */
export interface GbLiveDevice extends LiveDevice {
  gb: { device: string; channel: string };
}

/** tile ids by device and channel (devices may repeat each other's channel ids) */
const ids = new Map<string, number>();

export function liveDeviceOfGbChannel(node: Pick<GbTreeNode, 'devgbid' | 'device' | 'name'>): GbLiveDevice {
  const key = `${node.device}/${node.devgbid}`;
  let id = ids.get(key);
  if (id === undefined) {
    id = -(ids.size + 1);
    ids.set(key, id);
  }
  return { id, name: node.name, hostbody: node.devgbid, gb: { device: node.device, channel: node.devgbid } };
}

/**
 * The channel a GB device's alarm came from (type 9: hostbody the device's GB id, hostcode the
 * alarm source), for the bell's see / live on the patrol page; null for other alarms.
 */
export function liveDeviceOfGbAlarm(
  alarm: Pick<Alarm, 'type' | 'hostbody' | 'hostcode' | 'hostname'>,
): GbLiveDevice | null {
  if (alarm.type !== ALARM_TYPE.GB_DEVICE || !alarm.hostbody || !alarm.hostcode) return null;
  return liveDeviceOfGbChannel({ devgbid: alarm.hostcode, device: alarm.hostbody, name: alarm.hostname });
}

export function isGbLiveDevice(device: LiveDevice): device is GbLiveDevice {
  return 'gb' in device && typeof (device as GbLiveDevice).gb === 'object';
}

/**
 * Asks the server for a stream of a GB channel (videopatrols/gbplay: the server INVITEs the device
 * and answers the gateway's paths with a fresh token and whether the stream has sound), live or,
 * with `span` (GB times), a playback of the device's recording (s=Playback, GB/T 28181-2016 9.8),
 * as a LivePlay the FLV player takes, with the stream's key (a playback's pause and resume name
 * it). Silent: the player shows the refusal.
 */
export async function requestGbStream(
  channel: Pick<GbTreeNode, 'devgbid' | 'device' | 'name'>,
  deviceId: number,
  signal: AbortSignal,
  span?: { start: string; end: string },
): Promise<LivePlayAnswer & { key: string }> {
  const answer = await call(
    'gbPlay',
    { channel: channel.devgbid, device: channel.device, ...span },
    { silent: true, signal },
  );
  return {
    device_id: deviceId,
    imei: '',
    hostbody: channel.devgbid,
    hostname: channel.name,
    state: 'live',
    flv: answer.flv,
    ws: answer.ws,
    expires: answer.expires,
    hasAudio: answer.has_audio === 1,
    key: answer.key,
  };
}

/** A live play of a wall tile's channel. */
export function requestGbPlay(device: GbLiveDevice, signal: AbortSignal): Promise<LivePlayAnswer> {
  return requestGbStream(
    { devgbid: device.gb.channel, device: device.gb.device, name: device.name },
    device.id,
    signal,
  );
}

/** The wall's players: GB channels through the GB play path, body cameras as before. */
export const gbWallDeps: Partial<WallDeps> = {
  createPlayer: (device) =>
    isGbLiveDevice(device)
      ? // no sound control until gbplay's answer says the device sends audio (has_audio)
        new LivePlayer({ request: (signal) => requestGbPlay(device, signal), lang: currentLanguage, hasAudio: false })
      : createLivePlayer(device),
  // a GB stream nobody watches is stopped by the server (its idle time): nothing to release
  releaseLive: (player, device) => {
    if (!isGbLiveDevice(device)) releaseLive(player, device);
  },
};
