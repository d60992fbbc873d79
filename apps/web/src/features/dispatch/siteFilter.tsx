import { SITE_FILTER_MAX_IDS, type SiteFilter } from '@bwc/protocol';
import { useEffect, useRef } from 'react';
import { fromDisplay, type MapCrs } from '../../map/coords';
import { useMap } from '../../map/MapView';
import { inBox, padBox, type ViewBox } from '../../map/viewHold';
import { pushChannel } from '../../realtime/session/pushChannel';

/** moveend -> site_filter at most this often */
const FILTER_DEBOUNCE_MS = 300;

export type SitesWanted = Omit<SiteFilter, 'cmd'>;

/**
 * The site_filter for the dispatch map: in locating mode (points hidden) only the named devices;
 * otherwise the devices in the padded view (WGS-84, the server's coordinates) and the named ones
 * wherever they are. null view: every device.
 */
export function sitesWanted(
  padded: ViewBox | null,
  crs: MapCrs,
  locating: boolean,
  ids: Iterable<number>,
): SitesWanted {
  const named = [...new Set(ids)].filter((id) => Number.isInteger(id) && id > 0).slice(0, SITE_FILTER_MAX_IDS);
  if (locating) return { view: 'none', ids: named };
  if (!padded) return { view: 'all', ids: [] };
  const [west, south] = fromDisplay(padded.west, padded.south, crs);
  const [east, north] = fromDisplay(padded.east, padded.north, crs);
  const lng = (x: number) => Math.min(360, Math.max(-360, x));
  const lat = (y: number) => Math.min(90, Math.max(-90, y));
  return { view: [lng(west), lat(south), lng(east), lat(north)], ids: named };
}

/** whether `inner` lies wholly inside `outer` */
export function boxInside(inner: ViewBox, outer: ViewBox): boolean {
  return inBox(outer, [inner.west, inner.south]) && inBox(outer, [inner.east, inner.north]);
}

export interface SiteFilterLayerProps {
  /** points hidden: only `ids` are wanted */
  locating: boolean;
  /** devices wanted wherever they are (tracked, open info window, open dialogs) */
  ids: readonly number[];
  /**
   * The map came to devices whose positions were not followed (points shown again, or the view
   * left the box announced before): read every position now.
   */
  onStale: () => void;
}

/**
 * Tells the session channel which devices' positions the dispatch map needs (site_filter): the
 * browser then receives, parses and merges only those instead of every device's every fix.
 * Re-sent when the map stops moving, the mode or the named devices change; back to every device
 * when the page closes. Renders nothing.
 */
export function SiteFilterLayer({ locating, ids, onStale }: SiteFilterLayerProps) {
  const { map, crs } = useMap();
  const stale = useRef(onStale);
  stale.current = onStale;
  const idsKey = ids.join(',');
  /** the padded box last announced (display coordinates); null: none yet or locating */
  const announced = useRef<ViewBox | null>(null);
  const wasLocating = useRef(locating);

  useEffect(() => {
    const named = idsKey ? idsKey.split(',').map(Number) : [];
    const viewBox = (): ViewBox | null => {
      const b = map.getBounds();
      const box = { west: b.getWest(), south: b.getSouth(), east: b.getEast(), north: b.getNorth() };
      return [box.west, box.south, box.east, box.north].every(Number.isFinite) ? box : null;
    };
    const send = () => {
      const view = locating ? null : viewBox();
      const padded = view ? padBox(view) : null;
      // positions outside what was followed are old (the point snapshot, up to one refresh ago)
      const left =
        !locating && (wasLocating.current || (view && announced.current && !boxInside(view, announced.current)));
      wasLocating.current = locating;
      announced.current = padded;
      pushChannel.setSiteFilter(sitesWanted(padded, crs, locating, named));
      if (left) stale.current();
    };
    send();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const onMoveEnd = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(send, FILTER_DEBOUNCE_MS);
    };
    map.on('moveend', onMoveEnd);
    return () => {
      map.off('moveend', onMoveEnd);
      if (timer) clearTimeout(timer);
    };
  }, [map, crs, locating, idsKey]);

  // every device again when the page closes
  useEffect(() => () => pushChannel.setSiteFilter(null), []);
  return null;
}
