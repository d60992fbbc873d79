import { PRODUCT_PREFIX } from '@bwc/protocol';

const ACCEPTED_KEY = `${PRODUCT_PREFIX}unsupported_browser_accepted`;

/**
 * Features the console relies on (antd's :where() styles, modern built-ins). A browser missing
 * one of them is sent to /not-support at start (spec part 1 section 2).
 */
export function missingBrowserFeatures(win: Window & typeof globalThis = window): string[] {
  const missing: string[] = [];
  if (typeof win.fetch !== 'function') missing.push('fetch');
  if (typeof (Array.prototype as { at?: unknown }).at !== 'function') missing.push('Array.prototype.at');
  if (typeof (Object as { hasOwn?: unknown }).hasOwn !== 'function') missing.push('Object.hasOwn');
  if (typeof win.structuredClone !== 'function') missing.push('structuredClone');
  if (typeof win.ResizeObserver !== 'function') missing.push('ResizeObserver');
  if (typeof win.CSS?.supports === 'function' && !win.CSS.supports('selector(:where(a))')) missing.push(':where()');
  return missing;
}

export function isUnsupportedBrowser(): boolean {
  try {
    if (sessionStorage.getItem(ACCEPTED_KEY)) return false;
  } catch {
    // no storage: keep checking
  }
  return missingBrowserFeatures().length > 0;
}

export function acceptUnsupportedBrowser(): void {
  try {
    sessionStorage.setItem(ACCEPTED_KEY, '1');
  } catch {
    // no storage: the check runs again next start
  }
}
