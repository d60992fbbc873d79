import { useConsoleService } from '../../realtime/sdk/groupLogin';
import { CallHost } from '../../features/call/CallHost';
import { ConferenceHost } from '../../features/conference/ConferenceHost';
import { TalkHost } from '../../features/talk/TalkHost';

/**
 * What the shell runs on the console service: the dispatcher's login onto it, and the hosts of the
 * group talk, call and conference panels (which stay open across pages). A lazy chunk of the shell
 * (ShellLayout): the SDK and the service's message schemas it brings (about 18 KB gzip) load beside
 * the first page instead of before the first render. The hosts listen before the login starts, as
 * children's effects run before their parent's.
 */
export function ConsoleService() {
  useConsoleService();
  return (
    <>
      <TalkHost />
      <CallHost />
      <ConferenceHost />
    </>
  );
}
