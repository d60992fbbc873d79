import dayjs from 'dayjs';

/** `<hostname>_<hostbody>_<YYYYMMDD-HHmmss>.<ext>`, without characters a file system refuses. */
export function mediaFileName(hostname: string, hostbody: string, at: Date, ext: 'png' | 'webm'): string {
  const safe = (part: string) => part.replace(/[\\/:*?"<>|\s]+/g, '-');
  return `${safe(hostname)}_${safe(hostbody)}_${dayjs(at).format('YYYYMMDD-HHmmss')}.${ext}`;
}

function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // the download has started from the link; give the browser a moment before the URL goes
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The current frame as a PNG download; false when there is no picture yet. */
export async function saveSnapshot(video: HTMLVideoElement, name: string): Promise<boolean> {
  if (!video.videoWidth || !video.videoHeight) return false;
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  const context = canvas.getContext('2d');
  if (!context) return false;
  context.drawImage(video, 0, 0, canvas.width, canvas.height);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) return false;
  saveBlob(blob, name);
  return true;
}

type CapturingVideo = HTMLVideoElement & { captureStream?: () => MediaStream };

const WEBM_TYPES = ['video/webm;codecs=vp9,opus', 'video/webm;codecs=vp8,opus', 'video/webm'];

export function canRecord(video: HTMLVideoElement): boolean {
  return typeof MediaRecorder === 'function' && typeof (video as CapturingVideo).captureStream === 'function';
}

export interface ClipRecording {
  /** stops and downloads what was recorded */
  stop: () => void;
}

/**
 * Records what the video element shows (MediaRecorder on `captureStream()`, webm) until `stop()`
 * or `maxMs`, then downloads it as `name`. `onStopped` is told either way (also when the stream
 * ends under it).
 */
export function recordClip(video: HTMLVideoElement, name: string, maxMs: number, onStopped: () => void): ClipRecording {
  const stream = (video as CapturingVideo).captureStream!();
  const mimeType = WEBM_TYPES.find((type) => MediaRecorder.isTypeSupported(type));
  const recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
  const chunks: Blob[] = [];
  recorder.ondataavailable = (event) => {
    if (event.data.size > 0) chunks.push(event.data);
  };
  const timer = setTimeout(() => stop(), maxMs);
  recorder.onstop = () => {
    clearTimeout(timer);
    if (chunks.length > 0) saveBlob(new Blob(chunks, { type: 'video/webm' }), name);
    onStopped();
  };
  // a chunk a second: a clip cut short by the stream's end still has its content
  recorder.start(1_000);
  function stop() {
    if (recorder.state !== 'inactive') recorder.stop();
  }
  return { stop };
}
