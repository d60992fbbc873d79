import { describe, expect, it } from 'vitest';
import { isGbId, makeGbId, parseGbId } from './ids';

describe('GB28181 ids (Appendix D)', () => {
  it('reads the centre, industry, type, network and serial digits', () => {
    expect(parseGbId('34020000001320000001')).toEqual({
      id: '34020000001320000001',
      center: '34020000',
      industry: '00',
      type: 132,
      network: 0,
      serial: '000001',
      kind: 'front_peripheral',
    });
  });

  it.each([
    ['34020000001110000001', 111, 'front_device'],
    ['34020000001180000001', 118, 'front_device'],
    ['34020000001310000001', 131, 'front_peripheral'],
    ['34020000002000000001', 200, 'platform'],
    ['34020000002150000001', 215, 'business_group'],
    ['34020000002160000001', 216, 'virtual_org'],
    ['34020000003000000001', 300, 'center_user'],
    ['34020000004000000001', 400, 'terminal_user'],
    ['34020000005000000001', 500, 'other'],
  ])('%s is type %i, %s', (id, type, kind) => {
    expect(parseGbId(id)).toMatchObject({ type, kind });
  });

  it('refuses anything but 20 digits', () => {
    for (const id of [
      '3402000000132000000',
      '340200000013200000011',
      '3402000000132000000A',
      ' 34020000001320000001',
      '',
    ]) {
      expect(isGbId(id)).toBe(false);
      expect(parseGbId(id)).toBeNull();
    }
    expect(isGbId(3402000000132)).toBe(false);
  });

  it('builds an id from its parts', () => {
    expect(makeGbId({ center: '44030000', type: 132, serial: 7 })).toBe('44030000001320000007');
    expect(() => makeGbId({ center: '4403', type: 132, serial: 7 })).toThrow(RangeError);
  });
});
