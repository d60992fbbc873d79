import { Api, MenuId, type AlarmPicture } from '@bwc/protocol';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../../components/test-utils';
import { FaceAlarmColumn } from './FaceAlarmColumn';

// The push channel is replaced by an emitter the test drives (the real one needs a server socket).
const channel = vi.hoisted(() => ({
  face: new Set<(message: { type: 'face_data'; data: unknown; web_root: string }) => void>(),
}));
vi.mock('../../../realtime/session/pushChannel', async () => {
  const { useEffect, useRef } = await import('react');
  return {
    pushChannel: { state: 'open', onState: () => () => undefined },
    usePush: (_kind: string, listener: (message: { type: 'face_data'; data: unknown; web_root: string }) => void) => {
      const ref = useRef(listener);
      ref.current = listener;
      useEffect(() => {
        const wrapped = (message: { type: 'face_data'; data: unknown; web_root: string }) => ref.current(message);
        channel.face.add(wrapped);
        return () => void channel.face.delete(wrapped);
      }, []);
    },
    usePushReconnect: () => undefined,
  };
});

function pic(id: number, similarity: number): AlarmPicture {
  return {
    id,
    eid: `ai:${id}`,
    type: '6',
    imgfile: `${id}_scene.png`,
    imgfile_big: `${id}_scene.png`,
    imgfile_small: `${id}_small.png`,
    compare_result: [{ name: `person${id}`, comparison: `P${id}`, similarity, face_image_uri: `${id}_cmp0.png` }],
    hostname: `cam${id}`,
    deviceid: `HB${id}`,
    shottime: '2026-11-21T10:00:00.000Z',
    lat: null,
    lng: null,
  };
}

let alermFace: number;
let fetchMock: ReturnType<typeof vi.fn>;
const answer = (data: unknown) =>
  new Response(JSON.stringify({ code: 200, msg: '', data }), { headers: { 'content-type': 'application/json' } });
const calls = (p: string) => fetchMock.mock.calls.filter(([url]) => String(url).split('?')[0] === p);

beforeEach(() => {
  alermFace = 1;
  fetchMock = vi.fn(async (url: string) => {
    const p = String(url).split('?')[0];
    if (p === Api.mapConfig.path)
      return answer({
        mapinfo: 0,
        gpscenter_lon: 114,
        gpscenter_lat: 22.5,
        map_url: '',
        map_crs: 'WGS84',
        live_num: 4,
        sos_alarm_audio: '',
        alerm_face: alermFace,
      });
    if (p === Api.mapInfo.path) return answer({ crs: 'WGS84', style_url: '' });
    if (p === Api.alarmPic.path)
      return answer({ alarm_pic: [pic(2, 88), pic(1, 70)], web_root: '/rest/mini/rtcapt/file/' });
    return answer(null);
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

const cards = () => screen.queryAllByTestId('face-alarm-card').map((c) => c.dataset.id);

describe('emergency face-alarm column', () => {
  it('lists alarm_pic and puts a pushed picture on top', async () => {
    await renderWidget(<FaceAlarmColumn />, { permissions: { [MenuId.FACE_ALARM]: { view: 1 } }, language: 'en-US' });
    await waitFor(() => expect(cards()).toEqual(['2', '1']));
    expect(screen.getAllByTestId('face-alarm-similarity')[0]!.textContent).toBe('Similarity 88%');
    const img = screen.getAllByTestId('face-alarm-card')[0]!.querySelector('img');
    expect(img?.getAttribute('src')).toBe('/rest/mini/rtcapt/file/2_small.png');
    act(() => {
      for (const listener of channel.face) listener({ type: 'face_data', data: pic(3, 95.25), web_root: '/files/' });
    });
    expect(cards()).toEqual(['3', '2', '1']);
    expect(screen.getAllByTestId('face-alarm-similarity')[0]!.textContent).toBe('Similarity 95.3%');
    expect(screen.getAllByTestId('face-alarm-card')[0]!.querySelector('img')?.getAttribute('src')).toBe(
      '/files/3_small.png',
    );
  });

  it('shows nothing and reads no picture with alerm_face off', async () => {
    alermFace = 0;
    await renderWidget(<FaceAlarmColumn />, { permissions: { [MenuId.FACE_ALARM]: { view: 1 } } });
    await waitFor(() => expect(calls(Api.mapConfig.path)).toHaveLength(1));
    await act(async () => {});
    expect(screen.queryByTestId('face-alarm-column')).toBeNull();
    expect(calls(Api.alarmPic.path)).toHaveLength(0);
  });

  it('shows nothing without view on 10095', async () => {
    await renderWidget(<FaceAlarmColumn />, { permissions: { [MenuId.EMERGENCY]: { view: 1 } } });
    await waitFor(() => expect(calls(Api.mapConfig.path)).toHaveLength(1));
    await act(async () => {});
    expect(screen.queryByTestId('face-alarm-column')).toBeNull();
    expect(calls(Api.alarmPic.path)).toHaveLength(0);
  });
});
