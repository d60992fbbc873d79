import type { GbTreeNode, LivePlay } from '@bwc/protocol';
import { currentLanguage, i18next } from '../../../i18n';
import { createLivePlayer, releaseLive, type LiveDevice } from '../liveSource';
import { LivePlayer } from '../player/LivePlayer';
import type { WallDeps } from '../wallModel';

/**
 * A GB channel on the video wall. The wall keys its tiles by a numeric device id: GB channels get
 * negative ones, stable for the page's life, so they never meet a body camera's id.
 */
export interface GbLiveDevice extends LiveDevice {
  gb: { device: string; channel: string };
}

const ids = new Map<string, number>();

export function liveDeviceOfGbChannel(node: GbTreeNode): GbLiveDevice {
  let id = ids.get(node.devgbid);
  if (id === undefined) {
    id = -(ids.size + 1);
    ids.set(node.devgbid, id);
  }
  return { id, name: node.name, hostbody: node.devgbid, gb: { device: node.device, channel: node.devgbid } };
}

export function isGbLiveDevice(device: LiveDevice): device is GbLiveDevice {
  return 'gb' in device && typeof (device as GbLiveDevice).gb === 'object';
}

/**
 * Asks the server for a play of the channel. The gateway has no GB play path yet (issue 16
 * section 1, being wired): the tile says so plainly instead of failing with a network error.
 */
export function requestGbPlay(_device: GbLiveDevice, _signal: AbortSignal): Promise<LivePlay> {
  return Promise.reject(new Error(i18next.t('video:gb.live.unavailable')));
}

/** The wall's players: GB channels through the GB play path, body cameras as before. */
export const gbWallDeps: Partial<WallDeps> = {
  createPlayer: (device) =>
    isGbLiveDevice(device)
      ? new LivePlayer({ request: (signal) => requestGbPlay(device, signal), lang: currentLanguage })
      : createLivePlayer(device),
  releaseLive: (player, device) => {
    if (!isGbLiveDevice(device)) releaseLive(player, device);
  },
};
