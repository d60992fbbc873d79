import { callAs } from './callAs';
import type { GeocodeAnswer } from '@bwc/protocol';

/** Reverse geocoding through the server (cached there and on the page). */
export async function resolveAddress(lat: number, lng: number): Promise<string> {
  const answer = await callAs<GeocodeAnswer>('mapGeocode', { lat, lng }, { silent: true });
  return answer.address;
}
