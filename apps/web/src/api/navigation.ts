/**
 * The http layer and the session timers navigate outside React. The router registers itself here
 * at start; until then (and in tests without a router) a full page load is used.
 */
type Navigate = (path: string, options?: { replace?: boolean }) => void;

let navigateImpl: Navigate = (path) => window.location.assign(path);

export function setNavigator(next: Navigate): void {
  navigateImpl = next;
}

export function navigateTo(path: string, options?: { replace?: boolean }): void {
  navigateImpl(path, options);
}

export function currentPath(): string {
  return window.location.pathname;
}
