import { call } from '../api/http';
import { Routes, type MapConfig, type MapMode } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { normaliseCrs, type MapCrs } from './coords';

/** One switchable area of the map config (`datas_area`: ename, info[0].latitude/longitude). */
export interface DataArea {
  name: string;
  lng: number;
  lat: number;
}

/** The areas of `datas_area` that carry a usable point; malformed entries are left out. */
export function dataAreas(config: Pick<MapConfig, 'datas_area'>): DataArea[] {
  const out: DataArea[] = [];
  for (const raw of config.datas_area ?? []) {
    if (!raw || typeof raw !== 'object') continue;
    const entry = raw as { ename?: unknown; info?: unknown };
    const first = Array.isArray(entry.info)
      ? (entry.info[0] as { latitude?: unknown; longitude?: unknown } | undefined)
      : undefined;
    const lat = Number(first?.latitude);
    const lng = Number(first?.longitude);
    if (typeof entry.ename !== 'string' || !Number.isFinite(lat) || !Number.isFinite(lng)) continue;
    if (Math.abs(lat) > 90 || Math.abs(lng) > 180) continue;
    out.push({ name: entry.ename, lat, lng });
  }
  return out;
}

export interface MapSetup {
  config: MapConfig;
  styleUrl: string;
  crs: MapCrs;
  /** the base map: online tiles, an uploaded offline file, or the built-in basemap (null: unknown) */
  mode: MapMode | null;
}

/**
 * Map config and style of the dispatch map. The style comes from the server (`mapStyle`); its
 * coordinate system from `mapInfo`, else the map config's `map_crs`.
 */
export async function loadMapSetup(signal?: AbortSignal): Promise<MapSetup> {
  const config = await call('mapConfig', undefined, { signal });
  let crs = normaliseCrs(config.map_crs);
  let styleUrl: string = Routes.mapStyle.path;
  let mode: MapMode | null = null;
  try {
    const info = await call('mapInfo', undefined, { signal, silent: true });
    crs = normaliseCrs(info.crs);
    if (info.style_url) styleUrl = info.style_url;
    mode = info.mode;
  } catch {
    // the style itself says its crs (metadata bwc:crs); a style that cannot load is reported by the map
  }
  return { config, styleUrl, crs, mode };
}

/**
 * The map setup as a query shared by everything that shows a map (one cache entry).
 * `loginOnError`: a failure sends the user to Login (spec part 2 section 7.4; the http layer has
 * shown the error); otherwise the caller shows the failure itself. `enabled`: read only when
 * needed (a dialog that is closed).
 */
export function useMapSetup({
  loginOnError = false,
  enabled = true,
}: { loginOnError?: boolean; enabled?: boolean } = {}) {
  const navigate = useNavigate();
  const setup = useQuery({
    queryKey: ['map', 'setup'],
    queryFn: ({ signal }) => loadMapSetup(signal),
    enabled,
    retry: false,
    staleTime: 60_000,
  });
  useEffect(() => {
    if (loginOnError && setup.isError) void navigate('/login', { replace: true });
  }, [loginOnError, setup.isError, navigate]);
  return setup;
}
