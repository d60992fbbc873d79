import { Layout } from 'antd';
import { Outlet } from 'react-router';
import { Lazy } from '../routing/guards';
import { usePushChannel } from '../../realtime/session/pushChannel';
import { useSessionKeeper } from '../session/useSessionKeeper';
import { useVersionWatch } from '../session/useVersionWatch';
import { NavBar } from './NavBar';

/** The logged-in console: navigation bar on top, the page below; keeps the session alive and
 * its push channel open. */
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
    </Layout>
  );
}
