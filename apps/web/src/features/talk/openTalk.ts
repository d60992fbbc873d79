/**
 * Ask the console to open the talk panel of a group (the group tab, the map's voice broadcast tool
 * and the cluster page call it; the talk panel listens). `start` 1: ask for the floor at once.
 */
export interface OpenTalkRequest {
  tgid: number;
  /** ask for the floor as soon as the group is entered (voice broadcast) */
  start?: boolean;
}

const listeners = new Set<(request: OpenTalkRequest) => void>();

export function openTalk(request: OpenTalkRequest): void {
  for (const listener of [...listeners]) listener(request);
}

/** Listen for open requests; answers the unsubscribe. */
export function onOpenTalk(listener: (request: OpenTalkRequest) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
