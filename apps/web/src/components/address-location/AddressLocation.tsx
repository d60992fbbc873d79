import { Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Turns a position into an address through the configured maps service. */
export type AddressResolver = (lat: number, lng: number) => Promise<string>;

/** Map cache item (spec part 2 section 2.4): lat, lng, address data. */
export interface AddressCacheItem {
  lat: number;
  lng: number;
  address: string;
}

const cache = new Map<string, AddressCacheItem>();
const inFlight = new Map<string, Promise<AddressCacheItem>>();

function cacheKey(lat: number, lng: number): string {
  return `${lat},${lng}`;
}

export function cachedAddress(lat: number, lng: number): AddressCacheItem | undefined {
  return cache.get(cacheKey(lat, lng));
}

/** Resolves once per position for the page's lifetime; concurrent asks share one request. */
export function lookupAddress(lat: number, lng: number, resolve: AddressResolver): Promise<AddressCacheItem> {
  const key = cacheKey(lat, lng);
  const hit = cache.get(key);
  if (hit) return Promise.resolve(hit);
  const pending = inFlight.get(key);
  if (pending) return pending;
  const request = resolve(lat, lng)
    .then((address) => {
      const item = { lat, lng, address };
      cache.set(key, item);
      return item;
    })
    .finally(() => inFlight.delete(key));
  inFlight.set(key, request);
  return request;
}

function toCoordinate(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const number = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(number) ? number : null;
}

export interface AddressLocationProps {
  lng: number | string | null | undefined;
  lat: number | string | null | undefined;
  /** The map switch (map config `mapinfo`): only then can the address be asked for. */
  mapOn: boolean;
  resolve: AddressResolver;
}

type State = { phase: 'idle' } | { phase: 'loading' } | { phase: 'failed' } | { phase: 'done'; address: string };

/**
 * Longitude and latitude of a record; with the map switch on, a "click to get address" link that
 * resolves the address and caches it by position (spec part 2 section 2.4).
 */
export function AddressLocation({ lng, lat, mapOn, resolve }: AddressLocationProps) {
  const { t } = useTranslation('components');
  const [state, setState] = useState<State>({ phase: 'idle' });
  const x = toCoordinate(lng);
  const y = toCoordinate(lat);
  if (x === null || y === null) return <Typography.Text type="secondary">{t('address.noPosition')}</Typography.Text>;

  const position = <span className="bwc-address-position">{t('address.lngLat', { longitude: x, latitude: y })}</span>;
  if (!mapOn) return position;

  const hit = cachedAddress(y, x);
  const fetchAddress = () => {
    setState({ phase: 'loading' });
    lookupAddress(y, x, resolve).then(
      (item) => setState({ phase: 'done', address: item.address }),
      () => setState({ phase: 'failed' }),
    );
  };

  let addressPart;
  if (hit) addressPart = <span className="bwc-address-text">{hit.address}</span>;
  else if (state.phase === 'loading') addressPart = <Typography.Text type="secondary">{t('address.loading')}</Typography.Text>;
  else if (state.phase === 'done') addressPart = <span className="bwc-address-text">{state.address}</span>;
  else
    addressPart = (
      <Typography.Link onClick={fetchAddress} type={state.phase === 'failed' ? 'danger' : undefined}>
        {state.phase === 'failed' ? t('address.failed') : t('address.getAddress')}
      </Typography.Link>
    );

  return (
    <span className="bwc-address">
      {position} {addressPart}
    </span>
  );
}
