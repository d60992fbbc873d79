import { GROUP_RELOAD_DELAY_MS, can, type ConsoleNoticeCode } from '@bwc/protocol';
import { keepPreviousData, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { call } from '../../../api/http';
import { permissionMap } from '../../../app/session/permissions';
import { useUserContext } from '../../../app/session/queries';
import type { RealtimeSdk } from '../../../realtime/sdk/RealtimeSdk';
import { consoleSdk } from '../../../realtime/sdk/groupLogin';
import { GROUPS_QUERY_KEY } from '../GroupTab';
import type { TrunkStates } from './groupRules';

/** The console service connection the page hears group changes and member states on. */
export type GroupSdk = Pick<RealtimeSdk, 'on' | 'request' | 'login'>;

/** Notices after which the stored groups are read again (a change made by any console or terminal). */
const GROUP_CHANGE_NOTICES = [
  'notice_create_grp',
  'notice_update_grp',
  'notice_delete_grp',
  'notice_add_grp_mem',
  'notice_rem_grp_mem',
] as const satisfies readonly ConsoleNoticeCode[];

/**
 * The stored groups of the user's scope whose name contains `keyword` (every member, online or
 * not), under the group tab's query key so both screens share the answer and its reloads.
 */
export function useGroupList(keyword: string, sdk: GroupSdk = consoleSdk) {
  const queryClient = useQueryClient();
  useEffect(() => {
    const refresh = () => void queryClient.invalidateQueries({ queryKey: GROUPS_QUERY_KEY });
    const offs = GROUP_CHANGE_NOTICES.map((code) => sdk.on(code, refresh));
    return () => offs.forEach((off) => off());
  }, [sdk, queryClient]);
  return useQuery({
    queryKey: [...GROUPS_QUERY_KEY, keyword],
    queryFn: ({ signal }) => call('groupList', { keyword: keyword || undefined }, { signal }),
    // the last answer stays on screen while a new search is read
    placeholderData: keepPreviousData,
  });
}

/**
 * The group list read again: `now` at once (after a delete), `later` GROUP_RELOAD_DELAY_MS after a
 * create or an edit (spec part 2 section 9); a later call replaces a pending one.
 */
export function useGroupReload(): { now: () => Promise<void>; later: () => void } {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const now = useCallback(() => queryClient.invalidateQueries({ queryKey: GROUPS_QUERY_KEY }), [queryClient]);
  const later = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void now(), GROUP_RELOAD_DELAY_MS);
  }, [now]);
  return useMemo(() => ({ now, later }), [now, later]);
}

/**
 * Members' trunk states as the console service tells them: every group's members when the list
 * is (re)read (`refreshKey` changes), then each change (member status, user state notices). Empty
 * while the console is not logged onto the service: the stored online states stand.
 */
export function useTrunkStates(refreshKey: unknown, sdk: GroupSdk = consoleSdk): TrunkStates {
  const [states, setStates] = useState<TrunkStates>(new Map());
  useEffect(() => {
    const put = (entries: [number, number][]) =>
      setStates((current) => {
        const next = new Map(current);
        for (const [uid, state] of entries) next.set(uid, state);
        return next;
      });
    const offs = [
      sdk.on('notice_grp_mem_status', (notice) => put([[notice.uid, notice.state]])),
      sdk.on('notice_user_state', (notice) => put([[notice.uid, notice.state]])),
    ];
    let live = true;
    if (sdk.login)
      sdk
        .request('req_grp_profile', {})
        .then((answer) => {
          if (live) put(answer.groups.flatMap((g) => g.members.map((m): [number, number] => [m.uid, m.state])));
        })
        // not allowed or not connected: the stored states stand
        .catch(() => undefined);
    return () => {
      live = false;
      offs.forEach((off) => off());
    };
  }, [sdk, refreshKey]);
  return states;
}

/**
 * What the user may do with groups on the screen of `menuId`: the action on that screen's own menu
 * (spec part 2 section 6: the edit and add buttons need edit and add). The server accepts the
 * action on any of the group screens' menus (`Api.groupAdd.auth`), this one's among them.
 */
export function useGroupRights(menuId: number): { add: boolean; edit: boolean } {
  const { data } = useUserContext();
  return useMemo(() => {
    const perms = permissionMap(data);
    // deleting falls under edit (packages/protocol permissions.ts)
    return { add: can(perms, menuId, 'add'), edit: can(perms, menuId, 'edit') };
  }, [data, menuId]);
}

const unitNamesOf = (results: { data?: { dname: string } }[]) => results.map((result) => result.data?.dname);

/** Unit names by unit code (bh), read once per code. */
export function useUnitNames(codes: readonly string[]): ReadonlyMap<string, string> {
  const unique = useMemo(() => [...new Set(codes)].filter(Boolean).sort(), [codes]);
  const names = useQueries({
    queries: unique.map((bh) => ({
      queryKey: ['units', 'byCode', bh],
      queryFn: ({ signal }: { signal: AbortSignal }) => call('unitByCode', { bh }, { signal, silent: true }),
      staleTime: Infinity,
    })),
    combine: unitNamesOf,
  });
  return useMemo(
    () => new Map(unique.flatMap((bh, i) => (names[i] === undefined ? [] : [[bh, names[i]] as const]))),
    [unique, names],
  );
}
