import type { AlarmPicture } from '@bwc/protocol';
import { describe, expect, it } from 'vitest';
import { FACE_LIST_MAX, bestMatch, mergeSnapshot, prependPicture, type FacePicture } from './faceList';

function pic(id: number, similarities: number[] = []): FacePicture {
  const base: AlarmPicture = {
    id,
    eid: `ai:${id}`,
    type: '6',
    imgfile: `${id}_scene.jpg`,
    imgfile_big: `${id}_scene.jpg`,
    imgfile_small: `${id}_scene.jpg`,
    compare_result: similarities.map((similarity, i) => ({
      name: `p${i}`,
      comparison: `id${i}`,
      similarity,
      face_image_uri: '',
    })),
    hostname: 'cam',
    deviceid: 'HB1',
    shottime: '2026-11-21T10:00:00.000Z',
    lat: null,
    lng: null,
  };
  return { ...base, web_root: '/rest/mini/rtcapt/file/' };
}

describe('face alarm column list', () => {
  it('a push goes on top; the same alarm again replaces its earlier copy; at most FACE_LIST_MAX kept', () => {
    let list = [pic(2), pic(1)];
    list = prependPicture(list, pic(3));
    expect(list.map((p) => p.id)).toEqual([3, 2, 1]);
    list = prependPicture(list, pic(1));
    expect(list.map((p) => p.id)).toEqual([1, 3, 2]);
    for (let id = 10; id < 10 + FACE_LIST_MAX + 5; id += 1) list = prependPicture(list, pic(id));
    expect(list).toHaveLength(FACE_LIST_MAX);
    expect(list[0]!.id).toBe(10 + FACE_LIST_MAX + 4);
  });

  it('the snapshot keeps pushes that arrived while it loaded on top, without twins', () => {
    expect(mergeSnapshot([pic(9), pic(8)], [pic(8), pic(7), pic(6)]).map((p) => p.id)).toEqual([9, 8, 7, 6]);
    expect(mergeSnapshot([], [pic(2), pic(1)]).map((p) => p.id)).toEqual([2, 1]);
  });

  it('best match is the highest similarity, none without results', () => {
    expect(bestMatch(pic(1, [61.5, 93.2, 70]))?.similarity).toBe(93.2);
    expect(bestMatch(pic(1))).toBeNull();
  });
});
