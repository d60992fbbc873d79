import { expect } from '@playwright/test';
import { DEVICE_PROVISION_KEY } from '../playwright.config';

/**
 * Devices speaking the real device API (`/rest/device/api/*`) from a spec: provisioned with the
 * test server's provisioning key, then logged in with their own secret, as a camera would.
 * Positions may carry past times (history for tracks), all WGS-84.
 */
export interface DeviceSpec {
  hostbody: string;
  imei: string;
  hostname: string;
  hostcode?: string;
  jq_hostcode?: string;
  /** 12-digit unit code; the server spreads devices over the units without it */
  unit_bh?: string;
}

export interface Fix {
  time: string;
  lat: number;
  lng: number;
  speed?: number;
  course?: number;
  battery?: number;
}

export interface ApiDevice {
  id: number;
  hostbody: string;
  token: string;
  /** sends positions through `POST /rest/device/api/positions`; every one must be accepted */
  send(fixes: Fix[]): Promise<void>;
}

export interface DeviceApiConfig {
  gpscenter_lon: number;
  gpscenter_lat: number;
}

export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

async function post<T>(url: string, body: unknown, auth: string): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: auth },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as Envelope<T>;
  expect(answer.code, `${url}: ${answer.msg}`).toBe(200);
  return answer.data;
}

/**
 * POSTs JSON to the test server (`token` as Bearer) and answers the envelope's data; any other
 * code than 200 throws with the path, code and message.
 */
export async function apiPost<T>(baseURL: string, path: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(new URL(path, baseURL), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const envelope = (await res.json()) as Envelope<T>;
  if (envelope.code !== 200) throw new Error(`${path}: ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

/** Provisions the devices (created, or a new secret if they exist) and logs each one in. */
export async function deviceFleet(
  baseURL: string,
  specs: DeviceSpec[],
): Promise<{ devices: ApiDevice[]; config: DeviceApiConfig }> {
  const provisioned = await post<{
    devices: { id: number; hostbody: string; secret: string }[];
    config: DeviceApiConfig;
  }>(`${baseURL}/rest/device/api/provision`, { devices: specs }, `Bearer ${DEVICE_PROVISION_KEY}`);
  const devices: ApiDevice[] = [];
  for (const d of provisioned.devices) {
    const { token } = await post<{ token: string }>(
      `${baseURL}/rest/device/api/login`,
      { device: d.hostbody, secret: d.secret },
      '',
    );
    devices.push({
      id: d.id,
      hostbody: d.hostbody,
      token,
      send: async (fixes) => {
        for (let i = 0; i < fixes.length; i += 500) {
          const answer = await post<{ accepted: number; rejected: unknown[] }>(
            `${baseURL}/rest/device/api/positions`,
            { positions: fixes.slice(i, i + 500) },
            `Bearer ${token}`,
          );
          expect(answer.rejected, `positions of ${d.hostbody}`).toEqual([]);
        }
      },
    });
  }
  return { devices, config: provisioned.config };
}

/** A point `east` / `north` metres from (lng, lat). */
export function offset(lng: number, lat: number, east: number, north: number): { lng: number; lat: number } {
  const dLat = north / 111_320;
  const dLng = east / (111_320 * Math.cos((lat * Math.PI) / 180));
  return { lng: +(lng + dLng).toFixed(7), lat: +(lat + dLat).toFixed(7) };
}

/** Unique suffix of a run (specs may run again against the same server). */
export function runTag(): string {
  return String(Date.now()).slice(-7);
}

/** A valid IMEI (15 digits, Luhn check digit) from 14 digits. */
export function imei(first14: string): string {
  for (let check = 0; check <= 9; check++) {
    const digits = first14 + check;
    let sum = 0;
    for (let i = 0; i < 15; i++) {
      let d = digits.charCodeAt(i) - 48;
      if (i % 2 === 1) {
        d *= 2;
        if (d > 9) d -= 9;
      }
      sum += d;
    }
    if (sum % 10 === 0) return digits;
  }
  throw new Error(`not 14 digits: ${first14}`);
}
