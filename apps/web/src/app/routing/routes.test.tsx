import { MODULE_BY_BH, type UserContext } from '@bwc/protocol';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../api/queryClient';
import { markLoggedIn } from '../../api/session';
import { setLanguage } from '../../i18n';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { appRoutes } from './routes';
import { areaMenu, buildMenuTree, firstAllowedChildPath, navigationAreas } from './menu';

function contextWith(bhs: string[]): UserContext {
  return {
    modules: bhs.map((bh) => {
      const def = MODULE_BY_BH.get(bh)!;
      return { id: def.id, bh, pid: def.pid, key: def.key, path: def.path, user_auth: { view: 1 } };
    }),
    all_modules: [...MODULE_BY_BH.keys()],
    set_auth: 0,
    systerm_auth: 0,
    replay_auth: 0,
    gb: 0,
  };
}

describe('menu building from the context', () => {
  it('keeps only modules whose bh the context returns, parents included', () => {
    const tree = buildMenuTree(contextWith(['_202', '_201', '_40101']));
    expect(tree.map((n) => n.key)).toEqual(['dispatch', 'data']);
    expect(tree[0]!.children.map((n) => n.key)).toEqual(['Emergency', 'cluster']);
    expect(tree[1]!.children[0]!.children.map((n) => n.path)).toEqual(['/data/manage/law']);
  });

  it('ignores unknown bh codes and leaves the system area out of the navigation bar', () => {
    const context = contextWith(['_1', '_101', '_3', '_301']);
    context.modules.push({ id: 1, bh: '_999', pid: 0, key: 'x', path: '/x', user_auth: { view: 1 } });
    const areas = navigationAreas(context);
    expect(areas.map((a) => a.key)).toEqual(['monitor']);
  });

  it('first allowed child and the system side menu with its fixed pages', () => {
    const context = contextWith(['_1', '_102', '_103']);
    expect(firstAllowedChildPath(context, 10001)).toBe('/system/player');
    const side = areaMenu(context, 10001);
    expect(side.map((n) => n.key)).toEqual(['player', 'noticeEdit']);
    expect(side[0]!.children.map((n) => n.path)).toEqual([
      '/system/player/digitailmap',
      '/system/player/cloudstorage',
      '/system/player/gbconfig',
    ]);
    expect(buildMenuTree(undefined)).toEqual([]);
  });
});

describe('route guard', () => {
  let context: UserContext;
  beforeEach(async () => {
    await setLanguage('en-US');
    queryClient.clear();
    context = contextWith(['_2', '_201', '_202', '_208']);
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const path = url.split('?')[0];
        const data =
          path === '/rest/user/user/get_context'
            ? context
            : path === '/rest/index/index/get'
              ? { title: 'Console', logo_path: '', background_path: '', version: '1.0.0', support_text: '' }
              : path === '/rest/index/index/version'
                ? { version: '1.0.0', build: '1.0.0' }
                : path?.startsWith('/rest/index/heartbeat')
                  ? { state: 'success' }
                  : null;
        return new Response(JSON.stringify({ code: 200, msg: '', data }), {
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  function renderAt(path: string) {
    const router = createMemoryRouter(appRoutes(), { initialEntries: [path] });
    render(
      <AntApp>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntApp>,
    );
    return router;
  }

  it('without the logged-in flag goes to /login', async () => {
    const router = renderAt('/dispatch/emergency');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('an unmatched path goes to /404', async () => {
    markLoggedIn({ username: 'admin', ifadmin: 1 });
    const router = renderAt('/no/such/page');
    await waitFor(() => expect(router.state.location.pathname).toBe('/404'));
    expect(await screen.findByText('The page you visited does not exist')).toBeTruthy();
  });

  it('/ goes to /menu; an area goes to its first allowed child, which names the missing capability', async () => {
    markLoggedIn({ username: 'dispatcher', ifadmin: 0 });
    const router = renderAt('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/menu'));
    await router.navigate('/dispatch');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dispatch/emergency'));
    // emergency dispatch has its page; a module not built yet names itself
    await router.navigate('/dispatch/fourg');
    expect(await screen.findByText('"4G devices" is not built yet')).toBeTruthy();
    // the navigation bar lists only the allowed area
    expect(screen.getAllByText('Dispatch').length).toBeGreaterThan(0);
    expect(screen.queryByText('Configuration')).toBeNull();
  });

  it('a module outside the context is refused', async () => {
    markLoggedIn({ username: 'dispatcher', ifadmin: 0 });
    renderAt('/configcenter/UnitAdmin');
    expect(await screen.findByText('No permission')).toBeTruthy();
  });
});
