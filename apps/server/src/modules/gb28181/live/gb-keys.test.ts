import { describe, expect, it } from 'vitest';
import { gbLiveKey, gbPlaybackKey, parseGbKey } from './gb-keys';

const DEVICE = '34020000001320000001';
const CHANNEL = '34020000001310000001';

describe('GB stream keys', () => {
  it('reads back what the builders write', () => {
    expect(gbLiveKey(DEVICE, CHANNEL)).toBe(`gb:${DEVICE}_${CHANNEL}`);
    expect(parseGbKey(gbLiveKey(DEVICE, CHANNEL))).toEqual({ kind: 'live', deviceId: DEVICE, channelId: CHANNEL });
    const key = gbPlaybackKey(DEVICE, CHANNEL, 1_700_000_000, 1_700_003_600);
    expect(key).toBe(`gbpb:${DEVICE}_${CHANNEL}_1700000000_1700003600`);
    expect(parseGbKey(key)).toEqual({
      kind: 'playback',
      deviceId: DEVICE,
      channelId: CHANNEL,
      start: 1_700_000_000,
      end: 1_700_003_600,
    });
  });

  it('is null for anything else', () => {
    for (const bad of [
      '',
      `gb:${DEVICE}`,
      `gb:${DEVICE}_${CHANNEL}_1_2`,
      `gbpb:${DEVICE}_${CHANNEL}`,
      `gbpb:${DEVICE}_${CHANNEL}_5_5`,
      `gbpb:${DEVICE}_${CHANNEL}_9_2`,
      `gbpb:${DEVICE}_${CHANNEL}_1_2_3`,
      `gbpb:${DEVICE}_${CHANNEL}_-1_2`,
      `gbpb:${DEVICE}_${CHANNEL}_1_1234567890123`,
      `xx:${DEVICE}_${CHANNEL}`,
      `gb:${DEVICE}_${CHANNEL}\n`,
      `gb:a_b`,
    ])
      expect(parseGbKey(bad), bad).toBeNull();
  });
});
