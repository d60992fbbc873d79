/** What `moveCamera` needs of a MapLibre map. */
export interface CameraMap {
  isMoving(): boolean;
  once(type: 'moveend', listener: () => void): unknown;
  easeTo(options: CameraTarget & { duration: number }): unknown;
  flyTo(options: CameraTarget): unknown;
}

export interface CameraTarget {
  center: [number, number];
  zoom: number;
  /** pixels from the map's centre where `center` ends up */
  offset?: [number, number];
}

/**
 * Moves the map to a located device. A locate the user asked for flies there (it shows where the
 * device is from here). A locate the user did not ask for (`instant`: a new critical alarm opens
 * itself) jumps in one frame, and waits until the map stands still: it never takes the map out of
 * the hands of a dispatcher who is dragging or zooming it, and it draws one frame instead of a
 * flight's second or two of frames (with a large fleet raising SOS every few seconds, those flights
 * were most of the browser's work while nobody touched the map: bench/map-fps.ts).
 */
export function moveCamera(map: CameraMap, target: CameraTarget, instant: boolean): void {
  if (!instant) {
    map.flyTo(target);
    return;
  }
  if (map.isMoving()) {
    map.once('moveend', () => moveCamera(map, target, true));
    return;
  }
  map.easeTo({ ...target, duration: 0 });
}
