import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { imageMatchesExtension, sniffImage } from './background';
import { clearTemporary, contentDisposition, extensionOf, safeClientName, storedPath } from './file-store';

describe('file names', () => {
  it('keeps only the base name of a client file name, without control characters', () => {
    expect(safeClientName('../../etc/passwd')).toBe('passwd');
    expect(safeClientName('C:\\Users\\me\\客户端.zip')).toBe('客户端.zip');
    expect(safeClientName('a\u0000b\u001f.txt')).toBe('ab.txt');
    const long = safeClientName(`${'n'.repeat(300)}.docx`);
    expect(long).toHaveLength(255);
    expect(long.endsWith('.docx')).toBe(true);
    expect(extensionOf('A.Tar.ZIP')).toBe('zip');
    expect(extensionOf('.hidden')).toBe('');
  });

  it('resolves only generated stored names', () => {
    expect(storedPath('/data', 'downloads', '0f8fad5b-d9cb-469f-a165-70867728950e.zip')).toBe(
      '/data/downloads/0f8fad5b-d9cb-469f-a165-70867728950e.zip',
    );
    expect(storedPath('/data', 'downloads', '../bwc.db')).toBeNull();
    expect(storedPath('/data', 'downloads', 'report.pdf')).toBeNull();
  });

  it('builds content-disposition with an ASCII fallback and the exact UTF-8 name', () => {
    expect(contentDisposition('报告 "final"; v1.pdf')).toBe(
      `attachment; filename="__ _final__ v1.pdf"; filename*=UTF-8''%E6%8A%A5%E5%91%8A%20%22final%22%3B%20v1.pdf`,
    );
    expect(contentDisposition("it's (1).txt")).toBe(
      `attachment; filename="it's (1).txt"; filename*=UTF-8''it%27s%20%281%29.txt`,
    );
  });
});

describe('image sniffing', () => {
  it('recognises png, jpeg and gif by content and checks the extension against it', () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]);
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);
    const gif = Buffer.from('GIF87a...', 'latin1');
    expect(sniffImage(png)?.mime).toBe('image/png');
    expect(sniffImage(jpeg)?.mime).toBe('image/jpeg');
    expect(sniffImage(gif)?.mime).toBe('image/gif');
    expect(sniffImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(imageMatchesExtension(jpeg, 'jpg')).toBe(true);
    expect(imageMatchesExtension(jpeg, 'jpeg')).toBe(true);
    expect(imageMatchesExtension(jpeg, 'png')).toBe(false);
    expect(imageMatchesExtension(Buffer.from('hello'), 'gif')).toBe(false);
  });
});

describe('clearTemporary', () => {
  it('removes what an interrupted upload left in the temporary folder, nothing else', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bwc-store-'));
    mkdirSync(join(dataDir, 'downloads', '.tmp'), { recursive: true });
    writeFileSync(join(dataDir, 'downloads', '.tmp', 'half'), 'x');
    writeFileSync(join(dataDir, 'downloads', 'kept.zip'), 'x');
    await clearTemporary(dataDir, 'downloads');
    expect(existsSync(join(dataDir, 'downloads', '.tmp'))).toBe(false);
    expect(existsSync(join(dataDir, 'downloads', 'kept.zip'))).toBe(true);
    rmSync(dataDir, { recursive: true, force: true });
  });
});
