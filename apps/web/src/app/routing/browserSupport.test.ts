import { describe, expect, it } from 'vitest';
import { acceptUnsupportedBrowser, isUnsupportedBrowser, missingBrowserFeatures } from './browserSupport';

describe('unsupported browser detection', () => {
  it('names the features an old browser lacks', () => {
    const old = {
      fetch: undefined,
      structuredClone: undefined,
      ResizeObserver: undefined,
      CSS: { supports: () => false },
    } as unknown as Window & typeof globalThis;
    expect(missingBrowserFeatures(old)).toEqual(['fetch', 'structuredClone', 'ResizeObserver', ':where()']);
  });

  it('lets the user continue once accepted for this session', () => {
    const had = window.structuredClone;
    // jsdom may lack structuredClone itself: make the current window look old on purpose
    (window as { structuredClone?: unknown }).structuredClone = undefined;
    try {
      expect(isUnsupportedBrowser()).toBe(true);
      acceptUnsupportedBrowser();
      expect(isUnsupportedBrowser()).toBe(false);
    } finally {
      (window as { structuredClone?: unknown }).structuredClone = had;
    }
  });
});
