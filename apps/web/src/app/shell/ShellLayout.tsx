import { Layout } from 'antd';
import { Outlet } from 'react-router';
import { Lazy } from '../routing/guards';
import { usePushChannel } from '../../realtime/session/pushChannel';
import { useConsoleService } from '../../realtime/sdk/groupLogin';
import { useSessionKeeper } from '../session/useSessionKeeper';
import { useVersionWatch } from '../session/useVersionWatch';
import { CallHost } from '../../features/call/CallHost';
import { ConferenceHost } from '../../features/conference/ConferenceHost';
import { TalkHost } from '../../features/talk/TalkHost';
import { NavBar } from './NavBar';

/** The logged-in console: navigation bar on top, the page below; keeps the session alive, its
 * push channel open and the dispatcher logged onto the console service; hosts the group talk
 * panel and the call panel, which stay open across pages. */
export function ShellLayout() {
  useSessionKeeper();
  useVersionWatch();
  usePushChannel();
  useConsoleService();
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <NavBar />
      <Layout.Content style={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}>
        <Lazy>
          <Outlet />
        </Lazy>
      </Layout.Content>
      <TalkHost />
      <CallHost />
      <ConferenceHost />
    </Layout>
  );
}
