import type { Alarm, DevicePoint, LivePlay, TreeNode } from '@bwc/protocol';
import { call } from '../../api/http';
import { currentLanguage } from '../../i18n';
import { keysOf } from '../../i18n/keys';
import { LivePlayer, type LiveFailure } from './player/LivePlayer';

/**
 * A device to play live, from whatever screen names it: the device tree (id and names, no imei),
 * the dispatch map's points (with imei) or an alarm (device id). `sos` marks a view an alarm pulled
 * (getVideo `issos`/`messid`, as the spec's live pull request carries them).
 */
export interface LiveDevice {
  id: number;
  name: string;
  hostbody?: string;
  imei?: string;
  sos?: { alarmId: number; isSos: boolean };
}

export function liveDeviceOfPoint(point: Pick<DevicePoint, 'id' | 'hostname' | 'did' | 'imei'>): LiveDevice {
  return { id: point.id, name: point.hostname, hostbody: point.did, imei: point.imei };
}

export function liveDeviceOfNode(node: TreeNode): LiveDevice {
  return { id: Number(node.id), name: node.display_name || node.hostname || node.unitname, hostbody: node.did };
}

/** SOS alarm type (the alarm_type dictionary key '1'). */
const SOS_TYPE = '1';

export function liveDeviceOfAlarm(
  alarm: Pick<Alarm, 'id' | 'device_id' | 'hostname' | 'hostbody' | 'type'>,
): LiveDevice | null {
  if (alarm.device_id === null) return null;
  return {
    id: alarm.device_id,
    name: alarm.hostname,
    hostbody: alarm.hostbody,
    sos: { alarmId: alarm.id, isSos: alarm.type === SOS_TYPE },
  };
}

/**
 * Asks the server for a play of the device: live_add when its imei is known (every reconnect, once
 * the first answer named it), else getVideo by device id. Silent: the tile shows the refusal.
 */
export async function requestPlay(device: LiveDevice, known: LivePlay | null, signal: AbortSignal): Promise<LivePlay> {
  const imei = known?.imei ?? device.imei;
  // an alarm's first request goes through getVideo, which carries the alarm (the server may record it)
  const viaAlarm = device.sos !== undefined && known === null;
  if (imei && !viaAlarm) return call('liveAdd', { imei }, { silent: true, signal });
  const answer = await call(
    'getVideo',
    {
      ids: [device.id],
      ...(device.sos ? { issos: device.sos.isSos ? '1' : '0', messid: String(device.sos.alarmId) } : {}),
    },
    { silent: true, signal },
  );
  const play = answer.plays[0];
  if (!play) throw new Error(answer.failed[0]?.msg ?? '');
  return play;
}

/** A player of the device that asks for a fresh play on every (re)connect. */
export function createLivePlayer(device: LiveDevice): LivePlayer {
  const player: LivePlayer = new LivePlayer({
    request: (signal) => requestPlay(device, player.play, signal),
    lang: currentLanguage,
  });
  return player;
}

/** This console closed its player of the device: the server may stop the stream. */
export function releaseLive(player: LivePlayer, device: LiveDevice): void {
  const imei = player.play?.imei ?? device.imei;
  if (imei) void call('liveDel', { imei }, { silent: true }).catch(() => undefined);
}

/** All of this console's players closed (the wall left, the page unloads). */
export function releaseAllLive(): void {
  void call('liveAllDel', undefined, { silent: true }).catch(() => undefined);
}

export const FAILURE_KEYS = keysOf('video', {
  offline: 'failure.offline',
  refused: 'failure.refused',
  token: 'failure.token',
  timeout: 'failure.timeout',
  network: 'failure.network',
  media: 'failure.media',
  unsupported: 'failure.unsupported',
  request: 'failure.request',
} satisfies Record<LiveFailure, string>);
