import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router';
import { MODULE_BY_ID, type UserAuth, type UserContext } from '@bwc/protocol';
import { sessionKeys } from '../app/session/queries';
import { i18next } from '../i18n';

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
export interface WidgetRenderOptions {
  url?: string;
  language?: 'zh-CN' | 'en-US';
  /** The user's permissions (menu id -> user_auth), served as the session context. */
  permissions?: Record<number, UserAuth>;
}

function contextWith(permissions: Record<number, UserAuth>): UserContext {
  const modules = Object.entries(permissions).map(([id, user_auth]) => {
    const def = MODULE_BY_ID.get(Number(id));
    if (!def) throw new Error(`unknown menu id ${id}`);
    return { ...def, user_auth };
  });
  return { modules, all_modules: modules.map((m) => m.bh), set_auth: 0, systerm_auth: 0, replay_auth: 0, gb: 0 };
}

export async function renderWidget(ui: ReactElement, options: WidgetRenderOptions = {}): Promise<WidgetRender> {
  await i18next.changeLanguage(options.language ?? 'zh-CN');
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(sessionKeys.userContext, contextWith(options.permissions ?? {}));
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
