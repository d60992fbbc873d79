/** A box in the map's display coordinates ([lng, lat] of the base map). */
export interface ViewBox {
  west: number;
  south: number;
  east: number;
  north: number;
}

/**
 * Margin around the view, as a share of its width and height on each side, inside which a
 * change still counts as visible: a cluster gathers markers up to its grid size (60 px) beyond
 * the edge, and a short pan should find the markers current.
 */
export const VIEW_PAD = 0.5;

export function padBox(box: ViewBox, pad = VIEW_PAD): ViewBox {
  const dx = (box.east - box.west) * pad;
  const dy = (box.north - box.south) * pad;
  return { west: box.west - dx, south: box.south - dy, east: box.east + dx, north: box.north + dy };
}

export function inBox(box: ViewBox, [x, y]: readonly [number, number]): boolean {
  return x >= box.west && x <= box.east && y >= box.south && y <= box.north;
}

/** A change waiting for the map: the feature's new place, or null when it leaves the source. */
export interface Waiting {
  /** where the feature is drawn now (absent: not in the source) */
  shown: readonly [number, number] | undefined;
  /** where it will be drawn (null: removed or not drawn) */
  next: readonly [number, number] | null;
}

/**
 * Whether any waiting change can be seen in `view` (padded): a feature that appears, moves or
 * disappears inside it. Changes wholly outside need no source update (it re-clusters and
 * re-tiles the whole source and repaints the map) until the view comes to them.
 */
export function anyVisible(changes: Iterable<Waiting>, view: ViewBox | null): boolean {
  for (const { shown, next } of changes) {
    if (!shown && !next) continue;
    if (!view) return true;
    if ((shown && inBox(view, shown)) || (next && inBox(view, next))) return true;
  }
  return false;
}
