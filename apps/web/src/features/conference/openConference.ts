/**
 * Ask the console to open the video conference of a group (the group tab calls it; the
 * conference host listens): the panel starts the conference.
 */
export interface OpenConferenceRequest {
  tgid: number;
}

const listeners = new Set<(request: OpenConferenceRequest) => void>();

export function openConference(request: OpenConferenceRequest): void {
  for (const listener of [...listeners]) listener(request);
}

/** Listen for open requests; answers the unsubscribe. */
export function onOpenConference(listener: (request: OpenConferenceRequest) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
