import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../i18n';
import { ChunkLoadError } from './lazyPage';
import { RouteError } from './RouteError';

function Throws({ error }: { error: Error }): never {
  throw error;
}

function renderThrowing(error: Error) {
  const router = createMemoryRouter([{ path: '/', element: <Throws error={error} />, errorElement: <RouteError /> }]);
  render(<RouterProvider router={router} />);
}

describe('route error element', () => {
  beforeEach(async () => {
    await setLanguage('en-US');
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });

  it('shows the 500 page for a page that fails to render', () => {
    renderThrowing(new Error('boom'));
    expect(screen.getByText('Something went wrong on this page, please try again later')).toBeTruthy();
    expect(screen.getByText('Error: boom')).toBeTruthy();
  });

  it('offers a reload when a lazy chunk timed out or failed', () => {
    renderThrowing(new ChunkLoadError('timeout'));
    expect(screen.getByText('The page took too long to load')).toBeTruthy();
    expect(screen.getByText(/within 120 seconds/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  });
});
