import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PROCESS = fileURLToPath(new URL('./evidence-camera-process.ts', import.meta.url));

export interface CameraClip {
  filename: string;
  fileid: string;
  recorded_at: string;
  seconds: number;
  size: number;
  /** SHA-256 of the recorded file, as the camera computed it */
  sha256: string;
  /** the evidence item the server stored it as (Evidence-Item), null when it did not say */
  itemId: number | null;
  result: 'stored' | 'duplicate';
}

/**
 * A simulated camera records one video clip and uploads it as evidence (a child process under tsx:
 * the simulator imports the protocol's JSON catalogues, which the spec's loader refuses).
 */
export async function cameraRecordsAndUploads(args: {
  server: string;
  token: string;
  hostbody: string;
  hostname: string;
  dir: string;
  seconds: number;
}): Promise<CameraClip> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', PROCESS, JSON.stringify(args)], {
    cwd: ROOT,
    timeout: 120_000,
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as CameraClip;
}
