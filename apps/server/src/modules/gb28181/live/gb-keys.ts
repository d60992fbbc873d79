/**
 * Gateway keys of GB streams: live `gb:<device>_<channel>`, playback
 * `gbpb:<device>_<channel>_<start>_<end>` (start and end in seconds since 1970). Devices may repeat
 * each other's channel ids, so the device is part of the key. Built and read here only.
 */
export const GB_LIVE_NS = 'gb';
export const GB_PLAYBACK_NS = 'gbpb';

export type GbKey =
  | { kind: 'live'; deviceId: string; channelId: string }
  | { kind: 'playback'; deviceId: string; channelId: string; start: number; end: number };

export function gbLiveKey(deviceId: string, channelId: string): string {
  return `${GB_LIVE_NS}:${deviceId}_${channelId}`;
}

export function gbPlaybackKey(deviceId: string, channelId: string, start: number, end: number): string {
  return `${GB_PLAYBACK_NS}:${deviceId}_${channelId}_${start}_${end}`;
}

/** GB ids are digits (20 in the standard; any length is read, as the keys' makers never add '_'). */
const LIVE = /^gb:(\d+)_(\d+)$/;
const PLAYBACK = /^gbpb:(\d+)_(\d+)_(\d{1,12})_(\d{1,12})$/;

/** What a key names, or null for anything that is not a key made above (a playback's end after its start). */
export function parseGbKey(key: string): GbKey | null {
  const live = LIVE.exec(key);
  if (live) return { kind: 'live', deviceId: live[1]!, channelId: live[2]! };
  const pb = PLAYBACK.exec(key);
  if (!pb) return null;
  const start = Number(pb[3]);
  const end = Number(pb[4]);
  if (!(end > start)) return null;
  return { kind: 'playback', deviceId: pb[1]!, channelId: pb[2]!, start, end };
}
