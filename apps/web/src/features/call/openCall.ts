import type { LiveDevice } from '../video/liveSource';

/**
 * Ask the console to call a terminal (the host list and the info window call it; the call host
 * listens). `video`: the terminal's live picture is shown above the call (a video call is its live
 * video plus the same full-duplex call audio).
 */
export interface OpenCallRequest {
  /** the terminal's user id on the console service (a device's id) */
  target: number;
  name: string;
  video?: LiveDevice;
}

const listeners = new Set<(request: OpenCallRequest) => void>();

export function openCall(request: OpenCallRequest): void {
  for (const listener of [...listeners]) listener(request);
}

/** Listen for call requests; answers the unsubscribe. */
export function onOpenCall(listener: (request: OpenCallRequest) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
