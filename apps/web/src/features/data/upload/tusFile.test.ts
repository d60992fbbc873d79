import { describe, expect, it } from 'vitest';
import { checkEvidenceFile, classOf, fileIdOf, serverMessage, uploadMetadata } from './tusFile';

const MB = 1024 * 1024;

describe('evidence file checks', () => {
  it('accepts the classes of EVIDENCE_CLASSES and refuses other types and oversized files', () => {
    expect(classOf('A.MP4')).toBe('video');
    expect(classOf('note.mp3')).toBe('audio');
    expect(classOf('photo.jpeg')).toBe('image');
    expect(checkEvidenceFile({ name: 'clip.mp4', size: 10 * MB })).toBeNull();
    expect(checkEvidenceFile({ name: 'run.exe', size: 10 })).toEqual({ kind: 'type', ext: 'exe' });
    expect(checkEvidenceFile({ name: 'noext', size: 10 })).toEqual({ kind: 'type', ext: '' });
    expect(checkEvidenceFile({ name: 'big.png', size: 51 * MB })).toEqual({ kind: 'size', maxMb: 50 });
    expect(checkEvidenceFile({ name: 'zero.wav', size: 0 })).toEqual({ kind: 'empty' });
  });

  it('builds the Upload-Metadata without empty fields', () => {
    const file = { name: 'clip.mp4', type: 'video/mp4', size: 42, lastModified: 1000 };
    expect(uploadMetadata(file, { title: ' Stop ', description: '', category: 'traffic', outside: true })).toEqual({
      filename: 'clip.mp4',
      filetype: 'video/mp4',
      fileid: fileIdOf(file),
      outside: '1',
      title: 'Stop',
      category: 'traffic',
    });
    expect(fileIdOf({ name: 'x'.repeat(300), size: 1, lastModified: 2 })).toHaveLength(100);
  });

  it("reads the server's words from a tus error", () => {
    const failure = (status: number, body: string) => ({ originalResponse: { getStatus: () => status, getBody: () => body } });
    expect(serverMessage(failure(413, JSON.stringify({ code: 413, msg: 'The file is too large' })))).toEqual({
      status: 413,
      message: 'The file is too large',
    });
    expect(serverMessage(failure(409, 'already stored'))).toEqual({ status: 409, message: 'already stored' });
    expect(serverMessage(failure(500, ''))).toEqual({ status: 500, message: '' });
    expect(serverMessage(new Error('offline'))).toBeNull();
  });
});
