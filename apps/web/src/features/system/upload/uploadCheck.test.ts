import { MB, UPLOAD_LIMIT_MB } from '@bwc/protocol';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_UPLOAD, DOWNLOAD_UPLOAD, acceptOf, checkUpload, extensionOf, formatFileSize } from './uploadCheck';

describe('checkUpload', () => {
  it('asks for a file when none is chosen', () => {
    expect(checkUpload(null, BACKGROUND_UPLOAD)).toEqual({ key: 'validation.file.required' });
  });

  it('accepts the background image types in any case and refuses others', () => {
    for (const name of ['a.jpg', 'b.PNG', 'c.gif', 'd.Jpeg'])
      expect(checkUpload({ name, size: 10 }, BACKGROUND_UPLOAD)).toBeNull();
    for (const name of ['a.bmp', 'b.svg', 'c.exe', 'noext', 'png']) {
      expect(checkUpload({ name, size: 10 }, BACKGROUND_UPLOAD)).toEqual({ key: 'validation.file.type' });
    }
  });

  it('refuses a background one byte over the limit and accepts exactly the limit', () => {
    const limit = UPLOAD_LIMIT_MB.background * MB;
    expect(checkUpload({ name: 'a.png', size: limit }, BACKGROUND_UPLOAD)).toBeNull();
    expect(checkUpload({ name: 'a.png', size: limit + 1 }, BACKGROUND_UPLOAD)).toEqual({
      key: 'validation.file.size',
      params: { mb: UPLOAD_LIMIT_MB.background },
    });
  });

  it('checks the type before the size', () => {
    expect(checkUpload({ name: 'a.bmp', size: 10 ** 12 }, BACKGROUND_UPLOAD)?.key).toBe('validation.file.type');
  });

  it('lets downloads be any upload type up to their own limit', () => {
    for (const name of ['setup.exe', 'manual.pdf', 'pack.zip', 'clip.mp4', 'voice.mp3', 'photo.jpg']) {
      expect(checkUpload({ name, size: 1 }, DOWNLOAD_UPLOAD)).toBeNull();
    }
    expect(checkUpload({ name: 'script.sh', size: 1 }, DOWNLOAD_UPLOAD)?.key).toBe('validation.file.type');
    expect(checkUpload({ name: 'pack.zip', size: UPLOAD_LIMIT_MB.download * MB + 1 }, DOWNLOAD_UPLOAD)).toEqual({
      key: 'validation.file.size',
      params: { mb: UPLOAD_LIMIT_MB.download },
    });
  });
});

describe('helpers', () => {
  it('reads the last extension in lower case', () => {
    expect(extensionOf('archive.tar.ZIP')).toBe('zip');
    expect(extensionOf('README')).toBe('');
  });

  it('builds the accept attribute', () => {
    expect(acceptOf(BACKGROUND_UPLOAD)).toBe('.jpg,.png,.gif,.jpeg');
  });

  it('formats sizes', () => {
    expect(formatFileSize(0)).toBe('0 B');
    expect(formatFileSize(1023)).toBe('1023 B');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(5 * MB)).toBe('5.0 MB');
    expect(formatFileSize(3 * 1024 * MB)).toBe('3.0 GB');
  });
});
