/**
 * Calls `listener` when a dropped connection deserves a try at once instead of after its backoff
 * delay: the browser is back online (`online`), or the tab becomes visible again
 * (`visibilitychange`: a laptop waking up, a tab brought back from the background, where timers
 * were throttled). Shared by every realtime client of the console. Returns the unsubscribe.
 */
export function onConnectivityRegained(listener: () => void): () => void {
  if (typeof window === 'undefined' || typeof document === 'undefined') return () => undefined;
  const online = () => listener();
  const visibility = () => {
    if (document.visibilityState === 'visible') listener();
  };
  window.addEventListener('online', online);
  document.addEventListener('visibilitychange', visibility);
  return () => {
    window.removeEventListener('online', online);
    document.removeEventListener('visibilitychange', visibility);
  };
}

/**
 * What the console's realtime clients (session push channel, console-service SDK) need of a
 * websocket: the browser's WebSocket, Node's `ws`, or a test fake.
 */
export interface RealtimeSocket {
  readyState: number;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number): void;
}
