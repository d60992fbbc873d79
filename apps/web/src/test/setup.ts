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

// antd's CSS-in-JS (rc-util's dynamicCSS, marked data-rc-order) is not put into the test documents.
// jsdom hides nothing by layout, only by `display` and `visibility`; it matched every injected rule
// against every element again after each DOM change, for each getComputedStyle of Testing Library's
// role queries and of each poll of findBy*: that was 12 of 19 CPU seconds of CrudPage.test.tsx
// (its tests 15 s with the styles, 1.5 s without). The real styles are tested in Chromium (e2e).
const styleInnerHTML = Object.getOwnPropertyDescriptor(Element.prototype, 'innerHTML')!;
Object.defineProperty(HTMLStyleElement.prototype, 'innerHTML', {
  configurable: true,
  get(this: HTMLStyleElement) {
    return styleInnerHTML.get!.call(this) as string;
  },
  set(this: HTMLStyleElement, css: string) {
    if (!this.hasAttribute('data-rc-order')) styleInnerHTML.set!.call(this, css);
  },
});

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
});
