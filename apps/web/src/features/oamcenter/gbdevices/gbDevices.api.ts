import type { GbDevice, GbDeviceListQuery, GbPlayerConfig, Page } from '@bwc/protocol';
import { call } from '../../../api/http';
import type { FilterValues } from '../../../components/search-bar';

/** Query keys of the GB device screen (under the operations centre's, so a save reloads them). */
export const gbDeviceKeys = {
  list: ['oamcenter', 'gbdevices'] as const,
  /** whether any device has registered at all (no filters) */
  any: ['oamcenter', 'gbdevices', 'any'] as const,
  config: ['oamcenter', 'gbdevices', 'config'] as const,
  detail: (devgbid: string) => ['oamcenter', 'gbdevices', 'detail', devgbid] as const,
};

/** The list request of the table's filters: empty values left out (the server reads '' as a value). */
export function listQuery(page: number, limit: number, filters: FilterValues): GbDeviceListQuery {
  const query: GbDeviceListQuery = { page, limit };
  const key = typeof filters.key === 'string' ? filters.key.trim() : '';
  if (key) query.key = key;
  if (filters.lineon === '0' || filters.lineon === '1') query.lineon = filters.lineon === '1' ? 1 : 0;
  const unit = typeof filters.unit_id === 'string' ? Number(filters.unit_id) : NaN;
  if (Number.isInteger(unit) && unit > 0) query.unit_id = unit;
  return query;
}

export function fetchGbDevices(page: number, limit: number, filters: FilterValues): Promise<Page<GbDevice>> {
  return call('gbDeviceList', listQuery(page, limit, filters));
}

/** GB mode and the platform's SIP address (gbconfig/get); null when the caller may not read it. */
export async function fetchGbConfig(signal?: AbortSignal): Promise<GbPlayerConfig | null> {
  try {
    return await call('gbConfig', undefined, { silent: true, signal });
  } catch {
    return null;
  }
}
