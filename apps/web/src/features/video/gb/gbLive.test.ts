import { ALARM_TYPE, type GbTreeNode } from '@bwc/protocol';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { call } from '../../../api/http';
import { isGbLiveDevice, liveDeviceOfGbAlarm, liveDeviceOfGbChannel, requestGbPlay } from './gbLive';

vi.mock('../../../api/http', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  call: vi.fn(),
}));
const callMock = vi.mocked(call);

const node = (devgbid: string, name: string): GbTreeNode => ({
  devgbid,
  itemtype: '5',
  name,
  device: '34020000001320000001',
  lineon: 1,
  unit_id: 1,
  ptztype: 1,
  lng: null,
  lat: null,
  hasChildren: false,
});

beforeEach(() => {
  callMock.mockReset();
});

describe('GB channels on the wall', () => {
  it("a GB device's alarm names the channel it came from; other alarms none", () => {
    const alarm = {
      type: ALARM_TYPE.GB_DEVICE,
      hostbody: '34020000001320000001',
      hostcode: '34020000001310000001',
      hostname: 'NVR',
    };
    const device = liveDeviceOfGbAlarm(alarm)!;
    expect(device.gb).toEqual({ device: '34020000001320000001', channel: '34020000001310000001' });
    expect(device.id).toBe(liveDeviceOfGbChannel(node('34020000001310000001', 'CH1')).id);
    expect(liveDeviceOfGbAlarm({ ...alarm, type: ALARM_TYPE.SOS })).toBeNull();
    expect(liveDeviceOfGbAlarm({ ...alarm, hostcode: '' })).toBeNull();
  });

  it('get negative ids, stable per channel and apart from body cameras', () => {
    const a = liveDeviceOfGbChannel(node('34020000001310000001', 'CH1'));
    const b = liveDeviceOfGbChannel(node('34020000001310000002', 'CH2'));
    expect(a.id).toBeLessThan(0);
    expect(b.id).toBeLessThan(0);
    expect(a.id).not.toBe(b.id);
    expect(liveDeviceOfGbChannel(node('34020000001310000001', 'CH1')).id).toBe(a.id);
    // another device repeating the channel id is another tile
    const twin = liveDeviceOfGbChannel({ ...node('34020000001310000001', 'CH1'), device: '34020000001320000061' });
    expect(twin.id).not.toBe(a.id);
    expect(twin.gb).toEqual({ device: '34020000001320000061', channel: '34020000001310000001' });
    expect(isGbLiveDevice(a)).toBe(true);
    expect(isGbLiveDevice({ id: 3, name: 'body camera' })).toBe(false);
  });

  it('play through videopatrols/gbplay, its paths as the player takes them', async () => {
    callMock.mockResolvedValue({
      channel_id: '34020000001310000001',
      key: 'gb:34020000001310000001',
      transport: 'udp',
      ssrc: '0200000001',
      flv: '/live/gb-34020000001310000001.flv?token=t',
      ws: '/live/gb-34020000001310000001.flv?token=t',
      expires: 1_800_000_000_000,
      has_audio: 1,
    });
    const device = liveDeviceOfGbChannel(node('34020000001310000001', 'CH1'));
    const signal = new AbortController().signal;
    const play = await requestGbPlay(device, signal);
    expect(callMock).toHaveBeenCalledWith(
      'gbPlay',
      { channel: '34020000001310000001', device: '34020000001320000001' },
      { silent: true, signal },
    );
    expect(play).toEqual({
      device_id: device.id,
      imei: '',
      hostbody: '34020000001310000001',
      hostname: 'CH1',
      state: 'live',
      flv: '/live/gb-34020000001310000001.flv?token=t',
      ws: '/live/gb-34020000001310000001.flv?token=t',
      expires: 1_800_000_000_000,
      hasAudio: true,
      key: 'gb:34020000001310000001',
    });
    // a video-only device
    callMock.mockResolvedValue({
      channel_id: '34020000001310000001',
      key: 'gb:34020000001310000001',
      transport: 'udp',
      ssrc: '0200000002',
      flv: '/f',
      ws: '/f',
      expires: 1,
      has_audio: 0,
    });
    expect((await requestGbPlay(device, signal)).hasAudio).toBe(false);
  });
});
