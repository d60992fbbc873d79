import { useQuery } from '@tanstack/react-query';
import { call } from '../../api/http';
import { isLoggedIn } from '../../api/session';

/** Query keys of the session-wide data; invalidate them after login, logout or a settings change. */
export const sessionKeys = {
  pageInfo: ['pageInfo'] as const,
  userInfo: ['userInfo'] as const,
  userContext: ['userContext'] as const,
  versionInfo: ['versionInfo'] as const,
};

/** Page info (title, logo_path, background_path, version, support_text), readable without login. */
export function usePageInfo() {
  return useQuery({
    queryKey: sessionKeys.pageInfo,
    queryFn: ({ signal }) => call('pageInfo', undefined, { signal, silent: true }),
  });
}

/** The logged-in user's info (spec part 1 section 3). */
export function useUserInfo() {
  return useQuery({
    queryKey: sessionKeys.userInfo,
    queryFn: ({ signal }) => call('userInfo', undefined, { signal }),
    enabled: isLoggedIn(),
  });
}

/** What the user may see and do: modules with user_auth, set_auth, systerm_auth, replay_auth, gb. */
export function useUserContext() {
  return useQuery({
    queryKey: sessionKeys.userContext,
    queryFn: ({ signal }) => call('userContext', undefined, { signal }),
    enabled: isLoggedIn(),
    staleTime: 5 * 60_000,
  });
}
