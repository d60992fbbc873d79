/**
 * GB/T 28181-2016 Appendix D: a 20-digit code. Digits 1-8 the centre (administrative division),
 * 9-10 the industry, 11-13 the type, 14 the network, 15-20 the serial number.
 */
export const GB_ID_RE = /^\d{20}$/;

export type GbIdKind =
  | 'front_device' // 111-130: DVR, video server, encoder, NVR, ...
  | 'front_peripheral' // 131-199: camera, IPC, alarm in/out, ...
  | 'platform' // 200-299 other than the two below: SIP server, media server, gateway, ...
  | 'business_group' // 215
  | 'virtual_org' // 216
  | 'center_user' // 300-399
  | 'terminal_user' // 400-499
  | 'other';

/** Type codes (Table D.2) the platform names. */
export const GB_TYPE = {
  dvr: 111,
  nvr: 118,
  camera: 131,
  ipc: 132,
  alarmInput: 134,
  alarmOutput: 135,
  mobile: 138,
  sipServer: 200,
  businessGroup: 215,
  virtualOrg: 216,
} as const;

export interface GbId {
  id: string;
  /** digits 1-8 */
  center: string;
  /** digits 9-10 */
  industry: string;
  /** digits 11-13 */
  type: number;
  /** digit 14 */
  network: number;
  /** digits 15-20 */
  serial: string;
  kind: GbIdKind;
}

export function isGbId(id: unknown): id is string {
  return typeof id === 'string' && GB_ID_RE.test(id);
}

export function gbIdKind(type: number): GbIdKind {
  if (type === GB_TYPE.businessGroup) return 'business_group';
  if (type === GB_TYPE.virtualOrg) return 'virtual_org';
  if (type >= 111 && type <= 130) return 'front_device';
  if (type >= 131 && type <= 199) return 'front_peripheral';
  if (type >= 200 && type <= 299) return 'platform';
  if (type >= 300 && type <= 399) return 'center_user';
  if (type >= 400 && type <= 499) return 'terminal_user';
  return 'other';
}

/** The parts of a 20-digit id, or null when it is not one. */
export function parseGbId(id: string): GbId | null {
  if (!isGbId(id)) return null;
  const type = Number(id.slice(10, 13));
  return {
    id,
    center: id.slice(0, 8),
    industry: id.slice(8, 10),
    type,
    network: Number(id.slice(13, 14)),
    serial: id.slice(14, 20),
    kind: gbIdKind(type),
  };
}

/** A 20-digit id from its parts (`serial` is zero-padded to 6 digits). */
export function makeGbId(p: {
  center: string;
  industry?: string;
  type: number;
  network?: number;
  serial: number;
}): string {
  const id = `${p.center}${p.industry ?? '00'}${String(p.type).padStart(3, '0')}${p.network ?? 0}${String(p.serial).padStart(6, '0')}`;
  if (!isGbId(id)) throw new RangeError(`not a 20-digit GB28181 id: ${id}`);
  return id;
}
