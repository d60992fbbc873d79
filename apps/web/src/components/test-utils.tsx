import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { i18next } from '../i18n';

// antd's responsive helpers ask matchMedia, which jsdom lacks.
if (typeof window !== 'undefined' && !window.matchMedia) {
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

/** Shows the router's current query string so tests can read the URL state. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.search}</output>;
}

export interface WidgetRender extends RenderResult {
  /** The current query string, parsed. */
  url: () => URLSearchParams;
  queryClient: QueryClient;
}

/** Renders a widget with router, query client and i18n, in the given language (zh-CN by default). */
export async function renderWidget(ui: ReactElement, options: { url?: string; language?: 'zh-CN' | 'en-US' } = {}): Promise<WidgetRender> {
  await i18next.changeLanguage(options.language ?? 'zh-CN');
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[options.url ?? '/']}>
        {children}
        <LocationProbe />
      </MemoryRouter>
    </QueryClientProvider>
  );
  const result = render(ui, { wrapper });
  return {
    ...result,
    queryClient,
    url: () => new URLSearchParams(result.getByTestId('location').textContent ?? ''),
  };
}
