import { Layout } from 'antd';
import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { Lazy } from '../routing/guards';
import { lazyPage } from '../routing/lazyPage';
import { usePushChannel } from '../../realtime/session/pushChannel';
import { useSessionKeeper } from '../session/useSessionKeeper';
import { useVersionWatch } from '../session/useVersionWatch';
import { NavBar } from './NavBar';

// the console-service SDK, its message schemas and the panels' hosts: not needed for the first render
const ConsoleService = lazyPage(() => import('./ConsoleService'), 'ConsoleService');

/** The logged-in console: navigation bar on top, the page below; keeps the session alive, its
 * push channel open and (ConsoleService, a chunk loaded beside the first page) the dispatcher
 * logged onto the console service with the group talk, call and conference panels' hosts, which
 * stay open across pages. */
export function ShellLayout() {
  useSessionKeeper();
  useVersionWatch();
  usePushChannel();
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <NavBar />
      <Layout.Content style={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}>
        <Lazy>
          <Outlet />
        </Lazy>
      </Layout.Content>
      <Suspense fallback={null}>
        <ConsoleService />
      </Suspense>
    </Layout>
  );
}
