import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ClipQueue } from './queue';
import type { RecordedClip } from './recorder';

const root = mkdtempSync(join(tmpdir(), 'bwc-queue-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A clip file written into `dir` as the recorder leaves it. */
function clip(dir: string, second: number, bytes = 'clip'): RecordedClip {
  mkdirSync(dir, { recursive: true });
  const at = new Date(Date.UTC(2025, 0, 1, 8, 0, second));
  const filename = `CAM_${String(second).padStart(2, '0')}.mp4`;
  writeFileSync(join(dir, filename), bytes);
  return {
    kind: 'video',
    path: join(dir, filename),
    filename,
    filetype: 'video/mp4',
    fileid: `CAM-${second}`,
    recorded_at: at.toISOString(),
    seconds: 5,
    size: bytes.length,
  };
}

describe('ClipQueue', () => {
  it('keeps clips oldest first and forgets one only when removed, across a restart', () => {
    const dir = join(root, 'restart');
    const q = new ClipQueue(dir);
    q.add(clip(dir, 30));
    q.add(clip(dir, 10));
    const third = q.add(clip(dir, 20));
    expect(q.pending().map((e) => e.fileid)).toEqual(['CAM-10', 'CAM-20', 'CAM-30']);
    q.update(third, { upload_url: 'http://server/rest/device/api/upload/abc', attempts: 1, last_error: 'timeout' });

    // a restarted simulator opens the same folder: the same clips, with the upload address to resume at
    const again = new ClipQueue(dir);
    const pending = again.pending();
    expect(pending.map((e) => e.fileid)).toEqual(['CAM-10', 'CAM-20', 'CAM-30']);
    expect(pending[1]).toMatchObject({
      filename: 'CAM_20.mp4',
      filetype: 'video/mp4',
      recorded_at: '2025-01-01T08:00:20.000Z',
      size: 4,
      upload_url: 'http://server/rest/device/api/upload/abc',
      attempts: 1,
      last_error: 'timeout',
    });
    again.remove(pending[0]!);
    expect(existsSync(join(dir, 'CAM_10.mp4'))).toBe(false);
    expect(new ClipQueue(dir).pending().map((e) => e.fileid)).toEqual(['CAM-20', 'CAM-30']);
    expect(readdirSync(dir).sort()).toEqual(['CAM_20.mp4', 'CAM_20.mp4.json', 'CAM_30.mp4', 'CAM_30.mp4.json']);
  });

  it('drops the oldest clips beyond its size, with their files', () => {
    const dir = join(root, 'full');
    const q = new ClipQueue(dir, 3);
    for (const s of [1, 2, 3, 4, 5]) q.add(clip(dir, s));
    expect(q.pending().map((e) => e.fileid)).toEqual(['CAM-3', 'CAM-4', 'CAM-5']);
    expect(q.dropped).toBe(2);
    expect(existsSync(join(dir, 'CAM_01.mp4'))).toBe(false);
    expect(existsSync(join(dir, 'CAM_02.mp4.json'))).toBe(false);
  });

  it('clears what a simulator stopped in the middle left behind', () => {
    const dir = join(root, 'leftovers');
    const q = new ClipQueue(dir);
    q.add(clip(dir, 7));
    // a clip being written, scratch files, a clip without its JSON, a JSON without its clip, a half-saved JSON
    writeFileSync(join(dir, 'CAM_08.mp4.part'), 'half');
    writeFileSync(join(dir, 'CAM_08.mp4.identity.txt'), 'name');
    writeFileSync(join(dir, 'CAM_09.mp4'), 'no metadata');
    writeFileSync(join(dir, 'CAM_11.mp4.json'), '{"filename":"CAM_11.mp4"}');
    writeFileSync(join(dir, 'CAM_07.mp4.json.tmp'), '{"file');
    new ClipQueue(dir);
    expect(readdirSync(dir).sort()).toEqual(['CAM_07.mp4', 'CAM_07.mp4.json']);
  });

  it('drops an entry whose JSON cannot be read, with its clip', () => {
    const dir = join(root, 'unreadable');
    const q = new ClipQueue(dir);
    q.add(clip(dir, 12));
    q.add(clip(dir, 13));
    writeFileSync(join(dir, 'CAM_12.mp4.json'), 'not json');
    expect(q.pending().map((e) => e.fileid)).toEqual(['CAM-13']);
    expect(existsSync(join(dir, 'CAM_12.mp4'))).toBe(false);
  });

  it('refuses a clip that is not in its folder', () => {
    const q = new ClipQueue(join(root, 'mine'));
    expect(() => q.add(clip(join(root, 'other'), 1))).toThrow(/is not in/);
  });
});
