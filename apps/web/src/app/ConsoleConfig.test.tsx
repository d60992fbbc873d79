import { act, render, screen } from '@testing-library/react';
import { theme } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConsoleConfig } from './ConsoleConfig';

/** matchMedia answering `reduce` for prefers-reduced-motion; `set` changes it as the system would. */
function stubReducedMotion(initial: boolean) {
  let matches = initial;
  const listeners = new Set<() => void>();
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        get matches() {
          return query === '(prefers-reduced-motion: reduce)' && matches;
        },
        media: query,
        onchange: null,
        addListener: () => undefined,
        removeListener: () => undefined,
        addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
        removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
        dispatchEvent: () => false,
      }) as unknown as MediaQueryList,
  );
  return {
    set(value: boolean) {
      matches = value;
      listeners.forEach((l) => l());
    },
  };
}

/** What antd's components read: the motion token under the console's configuration. */
function Motion() {
  const { token } = theme.useToken();
  return <output>{token.motion ? 'motion' : 'still'}</output>;
}

// (jsdom has no CSS transitions, so antd animates nothing there whatever the token: the dialogs
// themselves are checked in the browser, e2e login-shell)
describe('ConsoleConfig', () => {
  afterEach(() => vi.restoreAllMocks());

  it("keeps antd's animations by default", () => {
    stubReducedMotion(false);
    render(
      <ConsoleConfig>
        <Motion />
      </ConsoleConfig>,
    );
    expect(screen.getByRole('status').textContent).toBe('motion');
  });

  it('turns them off when the user asks for reduced motion, and back on when he no longer does', () => {
    const media = stubReducedMotion(true);
    render(
      <ConsoleConfig>
        <Motion />
      </ConsoleConfig>,
    );
    expect(screen.getByRole('status').textContent).toBe('still');
    act(() => media.set(false));
    expect(screen.getByRole('status').textContent).toBe('motion');
  });
});
