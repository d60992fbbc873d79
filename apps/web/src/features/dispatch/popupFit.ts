/** A screen rectangle in CSS pixels (what getBoundingClientRect answers). */
export interface ScreenBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * The part of the map the user can see: the map's box cut to the browser's viewport (a page can
 * scroll the map partly out of the window).
 */
export function visibleBox(map: ScreenBox, viewport: { width: number; height: number }): ScreenBox {
  return {
    left: Math.max(map.left, 0),
    top: Math.max(map.top, 0),
    right: Math.min(map.right, viewport.width),
    bottom: Math.min(map.bottom, viewport.height),
  };
}

/**
 * How far to pan the map (MapLibre's `panBy` pixels: the view moves by them, the content the other
 * way) so that `popup` lies inside `view` with `margin` to spare on every side. A popup larger than
 * the view keeps its top and left inside, where its title and the start of its text are.
 */
export function panToFit(popup: ScreenBox, view: ScreenBox, margin: number): [number, number] {
  const axis = (start: number, end: number, viewStart: number, viewEnd: number): number => {
    const first = viewStart + margin;
    const last = viewEnd - margin;
    if (start < first || end - start > last - first) return start - first;
    if (end > last) return end - last;
    return 0;
  };
  return [axis(popup.left, popup.right, view.left, view.right), axis(popup.top, popup.bottom, view.top, view.bottom)];
}
