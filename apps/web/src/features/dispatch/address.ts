import { call } from '../../api/http';

/** Reverse geocoding through the server (cached there and on the page). */
export async function resolveAddress(lat: number, lng: number): Promise<string> {
  const answer = await call('mapGeocode', { lat, lng }, { silent: true });
  return answer.address;
}
