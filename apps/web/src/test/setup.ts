import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { LANGUAGES } from '@bwc/protocol';
import { loadLanguage } from '../i18n';

// components under test switch languages synchronously: both catalogues are there from the start
await Promise.all(LANGUAGES.map((lang) => loadLanguage(lang, 'all')));

// findBy* and waitFor follow a state; their 1 s default failed on the loaded 2-core CI machine,
// where one antd render can take seconds. A long limit costs nothing when the state comes.
configure({ asyncUtilTimeout: 20_000 });

// jsdom lacks these browser APIs that antd uses
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
if (!('ResizeObserver' in window)) {
  (window as unknown as { ResizeObserver: unknown }).ResizeObserver = class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
// antd reads computed styles of pseudo elements, which jsdom does not implement
const getComputedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => getComputedStyle(element);

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
});
