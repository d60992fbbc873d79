import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { computeMacCode, formatMacCode, installId } from './mac-code';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'bwc-mac-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('mac code', () => {
  it('is stable for one installation across calls (restarts)', () => {
    const dir = tempDir();
    const first = computeMacCode(dir);
    expect(first).toMatch(/^[0-9A-F]{4}(-[0-9A-F]{4}){5}$/);
    expect(computeMacCode(dir)).toBe(first);
    expect(readFileSync(join(dir, 'install-id'), 'utf8').trim()).toBe(installId(dir));
  });

  it('differs between installations (data directories) on the same machine', () => {
    expect(computeMacCode(tempDir())).not.toBe(computeMacCode(tempDir()));
  });

  it('does not depend on the order of network interfaces but on each part', () => {
    const base = { machineId: 'm', hostname: 'h', macs: ['aa:bb:cc:dd:ee:01', 'aa:bb:cc:dd:ee:02'], installId: 'i' };
    expect(formatMacCode(base)).toBe(formatMacCode({ ...base }));
    expect(formatMacCode({ ...base, macs: ['aa:bb:cc:dd:ee:03'] })).not.toBe(formatMacCode(base));
    expect(formatMacCode({ ...base, machineId: 'other' })).not.toBe(formatMacCode(base));
  });
});
