import type { DownloadEntry } from '@bwc/protocol';
import { describe, expect, it } from 'vitest';
import { matchesKeyword } from './DownloadCenterPage';

const entry: DownloadEntry = {
  id: 1,
  name: '执法记录仪驱动',
  description: 'USB driver for Windows',
  version: 'V2.1',
  file_name: 'bwc-driver.zip',
  file_size: 10,
  is_index: 1,
  create_time: '2026-11-21 08:00:00',
  url: '/rest/system/download/file?id=1',
};

describe('download center keyword filter', () => {
  it('keeps everything without a keyword', () => {
    expect(matchesKeyword(entry, {})).toBe(true);
    expect(matchesKeyword(entry, { keyword: '  ' })).toBe(true);
  });

  it('matches name, description, version and file name, ignoring case and spaces', () => {
    for (const keyword of ['记录仪', 'usb DRIVER', ' v2.1 ', 'DRIVER.ZIP'])
      expect(matchesKeyword(entry, { keyword })).toBe(true);
  });

  it('drops entries that do not contain the keyword', () => {
    expect(matchesKeyword(entry, { keyword: 'firmware' })).toBe(false);
    expect(matchesKeyword(entry, { keyword: ['firmware'] })).toBe(false);
  });
});
