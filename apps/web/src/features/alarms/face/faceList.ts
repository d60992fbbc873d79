import type { AlarmPicture } from '@bwc/protocol';

/** A face alarm picture with the web_root its file names are relative to. */
export interface FacePicture extends AlarmPicture {
  web_root: string;
}

/** Pictures the column keeps (newest first). */
export const FACE_LIST_MAX = 50;

/**
 * The column's list after a push (spec part 2: pushed pictures are prepended): the new picture
 * on top, an earlier copy of the same alarm dropped, at most FACE_LIST_MAX kept.
 */
export function prependPicture(list: readonly FacePicture[], picture: FacePicture): FacePicture[] {
  return [picture, ...list.filter((p) => p.id !== picture.id)].slice(0, FACE_LIST_MAX);
}

/**
 * The snapshot (alarm_pic answer) merged with pushes that arrived while it was loading: pushes
 * first (they are newer), then the snapshot's pictures not already there, newest first.
 */
export function mergeSnapshot(pushed: readonly FacePicture[], snapshot: readonly FacePicture[]): FacePicture[] {
  const seen = new Set(pushed.map((p) => p.id));
  return [...pushed, ...snapshot.filter((p) => !seen.has(p.id))].slice(0, FACE_LIST_MAX);
}

/** The best compare hit of a picture, or null when nothing matched. */
export function bestMatch(picture: AlarmPicture) {
  let best: AlarmPicture['compare_result'][number] | null = null;
  for (const r of picture.compare_result) if (!best || r.similarity > best.similarity) best = r;
  return best;
}
