import { SITE_FILTER_MAX_IDS, SiteFilter } from '@bwc/protocol';
import { describe, expect, it } from 'vitest';
import { toDisplay } from '../../map/coords';
import { boxInside, sitesWanted } from './siteFilter';

const box = { west: 114, south: 22, east: 115, north: 23 };

describe('site filter of the dispatch map', () => {
  it('points hidden: only the named devices', () => {
    expect(sitesWanted(box, 'WGS84', true, [5, 3, 5])).toEqual({ view: 'none', ids: [5, 3] });
  });

  it('the padded view in WGS-84 and the named devices; a valid site_filter', () => {
    const wanted = sitesWanted(box, 'WGS84', false, [9]);
    expect(wanted).toEqual({ view: [114, 22, 115, 23], ids: [9] });
    expect(SiteFilter.safeParse({ cmd: 'site_filter', ...wanted }).success).toBe(true);
  });

  it('a GCJ-02 map: the box goes back to WGS-84 (the server compares stored fixes)', () => {
    const [west, south] = toDisplay(114, 22, 'GCJ02');
    const [east, north] = toDisplay(115, 23, 'GCJ02');
    const wanted = sitesWanted({ west, south, east, north }, 'GCJ02', false, []);
    const view = wanted.view as number[];
    expect(view[0]).toBeCloseTo(114, 4);
    expect(view[1]).toBeCloseTo(22, 4);
    expect(view[2]).toBeCloseTo(115, 4);
    expect(view[3]).toBeCloseTo(23, 4);
  });

  it('no usable view: every device; ids capped and cleaned', () => {
    expect(sitesWanted(null, 'WGS84', false, [1])).toEqual({ view: 'all', ids: [] });
    const many = Array.from({ length: SITE_FILTER_MAX_IDS + 10 }, (_, i) => i + 1);
    expect(sitesWanted(box, 'WGS84', true, [0, -1, 1.5, ...many]).ids).toHaveLength(SITE_FILTER_MAX_IDS);
    // a zoomed-out view is clamped to valid degrees
    expect(sitesWanted({ west: -500, south: -120, east: 500, north: 120 }, 'WGS84', false, []).view).toEqual([
      -360, -90, 360, 90,
    ]);
  });

  it('a view inside the announced box, or leaving it', () => {
    expect(boxInside({ west: 114.2, south: 22.2, east: 114.8, north: 22.8 }, box)).toBe(true);
    expect(boxInside({ west: 114.2, south: 22.2, east: 115.1, north: 22.8 }, box)).toBe(false);
  });
});
