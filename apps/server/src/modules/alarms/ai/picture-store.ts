import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompareResult } from '@bwc/protocol';

/** Where alarm pictures live (DATA_DIR/alarm_pic) and the URL prefix they are served under. */
export const ALARM_PIC_DIR = 'alarm_pic';
export const ALARM_PIC_WEB_ROOT = '/rest/mini/rtcapt/file/';

/** The pictures of AI alarms, as files under DATA_DIR/alarm_pic named after the alarm's eid. */
export class PictureStore {
  constructor(private readonly dataDir: string) {}

  /** The folder of the files (served by `alarmPicFile`). */
  get dir(): string {
    return join(this.dataDir, ALARM_PIC_DIR);
  }

  /** Store a base64 picture; answers its name relative to web_root. */
  save(eid: string, part: string, data: string): string {
    const m = /^data:image\/(jpeg|png);base64,/.exec(data);
    const buf = Buffer.from(m ? data.slice(m[0].length) : data, 'base64');
    const ext = buf[0] === 0x89 && buf[1] === 0x50 ? 'png' : 'jpg';
    mkdirSync(this.dir, { recursive: true });
    const name = `${createHash('sha256').update(eid).digest('hex').slice(0, 24)}_${part}.${ext}`;
    writeFileSync(join(this.dir, name), buf);
    return name;
  }

  /** The comparison results of a face alarm, their face pictures stored. */
  compareResults(
    eid: string,
    results: { name: string; comparison: string; similarity: number; face_image?: string | undefined }[],
  ): CompareResult[] {
    return results.map((r, i) => ({
      name: r.name,
      comparison: r.comparison,
      similarity: r.similarity,
      face_image_uri: r.face_image ? this.save(eid, `cmp${i}`, r.face_image) : '',
    }));
  }
}
