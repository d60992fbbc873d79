import type { AiAlarmRequest } from '@bwc/protocol';
import { drawFace, drawPlate, drawScene, PLATE_CHARS, randomFace, type Canvas } from './picture';

/**
 * A simulated AI engine: face and plate recognition results of what a body camera saw, with
 * generated pictures, in the shape of `POST /rest/ai/engine/alarm` (`AiAlarmRequest`).
 */

export type AiKind = 'face' | 'plate';

export interface AiShot {
  kind: AiKind;
  /** engine event id, unique per result (at most 48 characters) */
  eventId: string;
  device: { hostbody: string; hostname: string; lat?: number; lng?: number };
  random: () => number;
  /** shot time, epoch ms (default now) */
  time?: number;
}

const SURNAMES = ['王', '李', '张', '刘', '陈', '杨', '黄', '赵', '吴', '周', '徐', '孙', '马', '朱', '胡', '郭'];
const GIVEN = ['伟', '芳', '娜', '敏', '静', '强', '磊', '军', '洋', '勇', '艳', '杰', '涛', '明', '超', '华'];
/** watch lists the simulated engine compares against (data, as an engine would name them) */
const FACE_LISTS = ['在逃人员库', '重点人员库', '失踪人员库'];
const PLATE_LISTS = ['布控车辆', '套牌嫌疑车辆', '盗抢车辆'];
const PLATE_REGIONS = ['粤B', '粤A', '粤S', '湘A', '赣B'];

const pick = <T>(items: readonly T[], random: () => number): T => items[Math.floor(random() * items.length)]!;
const base64 = (c: Canvas) => c.png().toString('base64');
const round1 = (v: number) => Math.round(v * 10) / 10;

/** A plate number such as 粤B·D1234Q: a region, then five letters or digits (no I or O). */
export function randomPlate(random: () => number): string {
  const chars = PLATE_CHARS.filter((c) => c !== 'I' && c !== 'O');
  return `${pick(PLATE_REGIONS, random)}·${Array.from({ length: 5 }, () => pick(chars, random)).join('')}`;
}

/** The request body of one face or plate result with its generated pictures. */
export function buildAiResult(shot: AiShot): AiAlarmRequest {
  const { random } = shot;
  const scene = drawScene(320, 240, random);
  let small: Canvas;
  let compare: NonNullable<AiAlarmRequest['compare_result']>;
  if (shot.kind === 'face') {
    const person = randomFace(random);
    const seen = drawFace(person, 96, [150, 170, 190]);
    scene.draw(seen, 40 + Math.floor(random() * 180), 100);
    small = seen;
    // the watch-list photo: the same person, other light and background
    const listed = drawFace({ ...person, shirt: [60, 60, 70] }, 96, [236, 236, 236]);
    compare = [
      {
        name: `${pick(SURNAMES, random)}${pick(GIVEN, random)}${random() < 0.5 ? pick(GIVEN, random) : ''}`,
        comparison: pick(FACE_LISTS, random),
        similarity: round1(80 + 19 * random()),
        face_image: base64(listed),
      },
    ];
  } else {
    const plate = randomPlate(random);
    const x = 60 + Math.floor(random() * 120);
    // a car from behind: body, window, lights, plate
    const body: [number, number, number] = pick(
      [
        [200, 200, 205],
        [40, 40, 45],
        [160, 30, 30],
        [230, 230, 230],
        [50, 80, 140],
      ],
      random,
    );
    scene.fillRect(x, 120, 140, 90, body);
    scene.fillRect(x + 14, 128, 112, 30, [70, 90, 110]);
    scene.fillRect(x + 6, 168, 20, 10, [220, 40, 40]);
    scene.fillRect(x + 114, 168, 20, 10, [220, 40, 40]);
    const picture = drawPlate(plate.slice(1).replace('·', ''), 84);
    scene.draw(picture, x + 28, 185);
    small = drawPlate(plate.slice(1).replace('·', ''), 160);
    // the watch list's picture of the plate
    compare = [
      {
        name: plate,
        comparison: pick(PLATE_LISTS, random),
        similarity: round1(90 + 9.9 * random()),
        face_image: base64(small),
      },
    ];
  }
  return {
    event_id: shot.eventId,
    kind: shot.kind,
    deviceid: shot.device.hostbody,
    hostname: shot.device.hostname,
    shottime: new Date(shot.time ?? Date.now()).toISOString(),
    ...(shot.device.lat !== undefined && shot.device.lng !== undefined
      ? { lat: shot.device.lat, lng: shot.device.lng }
      : {}),
    imgfile: `data:image/png;base64,${base64(scene)}`,
    imgfile_small: base64(small),
    compare_result: compare,
  };
}

/** Results per minute -> milliseconds to the next one, drawn from an exponential distribution (a Poisson stream). */
export function nextAiDelayMs(perMin: number, random: () => number): number {
  if (!(perMin > 0)) return Infinity;
  const meanMs = 60_000 / perMin;
  // capped at ten means and at what setTimeout can wait
  return Math.min(meanMs * 10, 2 ** 31 - 1, -Math.log(1 - random()) * meanMs);
}
