import { ManscdpError } from './errors';

/**
 * The PTZ command of GB/T 28181-2016 A.3: 8 bytes written as 16 hex digits in <PTZCmd>.
 * Byte 1 A5H; byte 2 version (high nibble) and a check nibble, (byte 1 high + byte 1 low + byte 2
 * high) mod 16; byte 3 address low 8 bits; byte 4 the instruction; bytes 5 and 6 data 1 and 2;
 * byte 7 data 3 (high nibble) and address high 4 bits; byte 8 the sum of bytes 1-7 mod 256.
 */
export const PTZ_FIRST_BYTE = 0xa5;
const PTZ_VERSION = 0;

/** Byte 4 (A.3.2-A.3.4): bits 0-5 right, left, down, up, zoom in, zoom out; 4xH focus/iris; 8xH presets. */
export const PTZ_INSTRUCTION = {
  stop: 0x00,
  right: 0x01,
  left: 0x02,
  down: 0x04,
  up: 0x08,
  downright: 0x05,
  downleft: 0x06,
  upright: 0x09,
  upleft: 0x0a,
  zoomin: 0x10,
  zoomout: 0x20,
  focusfar: 0x41,
  focusnear: 0x42,
  irisopen: 0x44,
  irisclose: 0x48,
  preset_set: 0x81,
  preset_call: 0x82,
  preset_del: 0x83,
} as const;

export type PtzAction = keyof typeof PTZ_INSTRUCTION;
export const PTZ_ACTIONS = Object.keys(PTZ_INSTRUCTION) as PtzAction[];

const HORIZONTAL = 0x03;
const VERTICAL = 0x0c;
const ZOOM = 0x30;

export interface PtzInput {
  action: PtzAction;
  /** pan/tilt (and focus/iris) speed 0-255; default 128 */
  speed?: number;
  /** zoom speed 0-15; default speed >> 4 */
  zoomSpeed?: number;
  /** preset number 1-255, for the preset actions */
  preset?: number;
  /** 12-bit address; default 1 */
  address?: number;
}

export interface PtzCommand {
  /** 'other': an instruction this module does not name (cruise, scan, auxiliary switch, ...) */
  action: PtzAction | 'other';
  address: number;
  /** byte 4 */
  instruction: number;
  /** byte 5: pan speed (focus speed for focus actions) */
  panSpeed: number;
  /** byte 6: tilt speed (iris speed for iris actions; preset number for presets) */
  tiltSpeed: number;
  /** byte 7 high nibble */
  zoomSpeed: number;
  /** the preset actions' number (byte 6) */
  preset?: number;
}

function intIn(value: number, min: number, max: number, field: string): number {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new ManscdpError('ptz', `must be an integer ${min}..${max}, got ${value}`, field);
  return value;
}

function checkNibble(b1: number, b2High: number): number {
  return ((b1 >> 4) + (b1 & 0x0f) + b2High) & 0x0f;
}

/** The 16 upper-case hex digits of a PTZ command. */
export function encodePtz(input: PtzInput): string {
  const code = PTZ_INSTRUCTION[input.action];
  if (code === undefined) throw new ManscdpError('ptz', `unknown action ${String(input.action)}`, 'action');
  const address = intIn(input.address ?? 1, 0, 0xfff, 'address');
  const speed = intIn(input.speed ?? 128, 0, 255, 'speed');
  const zoomSpeed = intIn(input.zoomSpeed ?? speed >> 4, 0, 15, 'zoomSpeed');
  let d1 = 0;
  let d2 = 0;
  let d3 = 0;
  if (code >= 0x81 && code <= 0x83) {
    d2 = intIn(input.preset ?? NaN, 1, 255, 'preset');
  } else if ((code & 0xc0) === 0x40) {
    if (code & 0x03) d1 = speed;
    if (code & 0x0c) d2 = speed;
  } else {
    if (code & HORIZONTAL) d1 = speed;
    if (code & VERTICAL) d2 = speed;
    if (code & ZOOM) d3 = zoomSpeed;
  }
  const bytes = [
    PTZ_FIRST_BYTE,
    (PTZ_VERSION << 4) | checkNibble(PTZ_FIRST_BYTE, PTZ_VERSION),
    address & 0xff,
    code,
    d1,
    d2,
    (d3 << 4) | (address >> 8),
  ];
  bytes.push(bytes.reduce((a, b) => a + b, 0) & 0xff);
  return Buffer.from(bytes).toString('hex').toUpperCase();
}

const BY_CODE = new Map<number, PtzAction>(PTZ_ACTIONS.map((a) => [PTZ_INSTRUCTION[a], a]));

/** A <PTZCmd> read back; a wrong length, first byte or either check is refused. */
export function decodePtz(hex: string): PtzCommand {
  if (typeof hex !== 'string' || !/^[0-9A-Fa-f]{16}$/.test(hex))
    throw new ManscdpError('ptz', 'must be 16 hex digits', 'PTZCmd');
  const b = [...Buffer.from(hex, 'hex')] as [number, number, number, number, number, number, number, number];
  if (b[0] !== PTZ_FIRST_BYTE) throw new ManscdpError('ptz', `byte 1 must be A5, got ${hex.slice(0, 2)}`, 'PTZCmd');
  if ((b[1] & 0x0f) !== checkNibble(b[0], b[1] >> 4))
    throw new ManscdpError('ptz', 'byte 2 check nibble wrong', 'PTZCmd');
  const sum = b.slice(0, 7).reduce((a, x) => a + x, 0) & 0xff;
  if (sum !== b[7]) throw new ManscdpError('ptz', `checksum ${b[7]} is not ${sum}`, 'PTZCmd');
  const instruction = b[3];
  const action = BY_CODE.get(instruction) ?? (instruction === 0x40 ? 'stop' : 'other');
  const cmd: PtzCommand = {
    action,
    address: ((b[6] & 0x0f) << 8) | b[2],
    instruction,
    panSpeed: b[4],
    tiltSpeed: b[5],
    zoomSpeed: b[6] >> 4,
  };
  if (action === 'preset_set' || action === 'preset_call' || action === 'preset_del') cmd.preset = b[5];
  return cmd;
}

/** decodePtz without throwing: the command, or null. */
export function tryDecodePtz(hex: string): PtzCommand | null {
  try {
    return decodePtz(hex);
  } catch {
    return null;
  }
}
