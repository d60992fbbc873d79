import { describe, expect, it } from 'vitest';
import { ManscdpError } from './errors';
import { decodePtz, encodePtz, PTZ_ACTIONS, tryDecodePtz, type PtzAction } from './ptz';

/** Byte 8 computed by hand: the sum of bytes 1-7 mod 256 (A.3.1); byte 2 is 0FH for A5H, version 0. */
const VECTORS: [Parameters<typeof encodePtz>[0], string][] = [
  [{ action: 'stop' }, 'A50F0100000000B5'], // A5+0F+01 = B5
  [{ action: 'left', speed: 0x80 }, 'A50F010280000037'], // B5+02+80 = 137
  [{ action: 'right', speed: 0x1f }, 'A50F01011F0000D5'], // B5+01+1F = D5
  [{ action: 'up', speed: 0x40 }, 'A50F0108004000FD'], // B5+08+40 = FD
  [{ action: 'upleft', speed: 0x20 }, 'A50F010A202000FF'], // B5+0A+20+20 = FF
  [{ action: 'zoomin', zoomSpeed: 5 }, 'A50F011000005015'], // B5+10+50 = 115
  [{ action: 'preset_call', preset: 3 }, 'A50F01820003003A'], // B5+82+03 = 13A
  [{ action: 'stop', address: 0x123 }, 'A50F2300000001D8'], // A5+0F+23+01 = D8
];

describe('PTZCmd (GB/T 28181-2016 A.3)', () => {
  it.each(VECTORS)('encodes %o as %s and reads it back', (input, hex) => {
    expect(encodePtz(input)).toBe(hex);
    const cmd = decodePtz(hex);
    expect(cmd.action).toBe(input.action);
    expect(cmd.address).toBe(input.address ?? 1);
  });

  it('round-trips every action with its speeds, preset and a 12-bit address', () => {
    for (const action of PTZ_ACTIONS) {
      const preset = action.startsWith('preset') ? 200 : undefined;
      const cmd = decodePtz(encodePtz({ action, speed: 0xc8, zoomSpeed: 9, preset, address: 0xabc }));
      expect(cmd.action).toBe(action);
      expect(cmd.address).toBe(0xabc);
      if (preset) expect(cmd.preset).toBe(200);
      const horizontal = ['left', 'right', 'upleft', 'upright', 'downleft', 'downright', 'focusfar', 'focusnear'];
      const vertical = ['up', 'down', 'upleft', 'upright', 'downleft', 'downright', 'irisopen', 'irisclose'];
      expect(cmd.panSpeed).toBe(horizontal.includes(action) ? 0xc8 : 0);
      if (!preset) expect(cmd.tiltSpeed).toBe(vertical.includes(action) ? 0xc8 : 0);
      expect(cmd.zoomSpeed).toBe(action.startsWith('zoom') ? 9 : 0);
    }
  });

  it('refuses a wrong checksum, first byte, check nibble, length or digits', () => {
    const bad = ['A50F0100000000B6', 'A60F0100000000B6', 'A50E0100000000B4', 'A50F0100000000', 'A50F01000000ZZB5', ''];
    for (const hex of bad) {
      expect(() => decodePtz(hex)).toThrow(ManscdpError);
      expect(tryDecodePtz(hex)).toBeNull();
    }
    expect(() => decodePtz('A50F0100000000B6')).toThrow(
      expect.objectContaining({ code: 'ptz', field: 'PTZCmd', message: expect.stringMatching(/checksum/) }),
    );
  });

  it('names an instruction it does not know "other" and keeps its bytes', () => {
    // 84H: add a cruise point (A.3.5); checksum B5+84+01+02 = 13C
    const cmd = decodePtz('A50F01840102003C');
    expect(cmd).toMatchObject({ action: 'other', instruction: 0x84, panSpeed: 1, tiltSpeed: 2 });
  });

  it('refuses out-of-range inputs, naming them', () => {
    const cases: [Parameters<typeof encodePtz>[0], string][] = [
      [{ action: 'left', speed: 256 }, 'speed'],
      [{ action: 'left', speed: 1.5 }, 'speed'],
      [{ action: 'zoomin', zoomSpeed: 16 }, 'zoomSpeed'],
      [{ action: 'preset_set' }, 'preset'],
      [{ action: 'preset_set', preset: 0 }, 'preset'],
      [{ action: 'stop', address: 4096 }, 'address'],
      [{ action: 'spin' as PtzAction }, 'action'],
    ];
    for (const [input, field] of cases) {
      expect(() => encodePtz(input)).toThrow(expect.objectContaining({ code: 'ptz', field }));
    }
  });

  it('never throws anything but ManscdpError on random input', () => {
    let valid = 0;
    for (let i = 0; i < 5000; i++) {
      const hex = Array.from({ length: 16 }, () => '0123456789ABCDEFxyz'[Math.floor(Math.random() * 19)]).join('');
      try {
        decodePtz(hex);
        valid++;
      } catch (err) {
        expect(err).toBeInstanceOf(ManscdpError);
      }
    }
    expect(valid).toBeLessThan(50);
  });
});
