import { MenuId, SdkCode, TOAST_DURATION_MS, type GroupApi, type Language } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { App } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { isLanguage } from '../../i18n';
import { usePermission } from '../../app/session/Permission';
import { SdkError } from './errors';
import { ImStore } from '../im/ImStore';
import { RealtimeSdk } from './RealtimeSdk';

/** The tab's one connection to the console service. */
export const consoleSdk = new RealtimeSdk();

/** The dispatcher's instant messages on that connection (listening from the start: messages kept for the console arrive at logon). */
export const consoleIm = new ImStore(consoleSdk);

/**
 * How long (minutes) the login outlives its connection: a reload within it resumes the login
 * with the cached clientid and token instead of logging on again (the service keeps a login at
 * least 60 s whatever this says).
 */
export const CONSOLE_ALIVE_MINUTES = 1;

/** Outcome of the group login (spec part 2 sections 4 and 8), each with its message. */
export type GroupLoginOutcome =
  | { kind: 'featureOff' }
  | { kind: 'elsewhere' }
  | { kind: 'success' }
  | { kind: 'already' }
  | { kind: 'resumed' }
  | { kind: 'failed'; reason: string };

/**
 * Logs the console onto the service with the group_api account of gis info. It fails when the
 * feature is off (no group_api or switch 0) or when the account is logged on elsewhere (islogin 1
 * and no login of this tab to resume); 10105 counts as already logged in. A login cached by this
 * tab for the same account is resumed (the SDK's heartbeats carry its clientid and token).
 */
export async function groupLogin(
  sdk: RealtimeSdk,
  api: GroupApi | undefined,
  lang: Language,
): Promise<GroupLoginOutcome> {
  if (!api || api.switch !== 1) {
    sdk.log.info('group login: the feature is not open');
    return { kind: 'featureOff' };
  }
  const cached = sdk.login;
  if (cached && cached.login_user.username !== api.username) sdk.cache.clear();
  const resuming = cached !== null && cached.login_user.username === api.username;
  sdk.init({ ip: api.ip, port: api.port, path: api.path, lang });
  if (resuming) return { kind: 'resumed' };
  if (api.islogin === 1) return { kind: 'elsewhere' };
  try {
    await sdk.logon({
      ipaddr: api.ip,
      port: String(api.port),
      orgid: api.orgid,
      logon_name: api.username,
      passwd: api.djpwd,
      client_alive_time: CONSOLE_ALIVE_MINUTES,
    });
    return { kind: 'success' };
  } catch (error) {
    if (error instanceof SdkError && error.code === SdkCode.ALREADY_LOGGED_IN) return { kind: 'already' };
    return { kind: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Keeps a logged-in dispatcher logged onto the console service (mounted by the shell): the group
 * login at start and whenever the account or the language changes, its message as a toast, and a
 * new logon when the service answers heartbeats as not logged on (the login was lost while the
 * connection was away). Notice-level SDK lines (taken over, forced offline) become notifications.
 */
export function useConsoleService(): void {
  const { message, notification } = App.useApp();
  const { t, i18n } = useTranslation('realtime');
  const lang: Language = isLanguage(i18n.language) ? i18n.language : 'zh-CN';
  const mayDispatch = usePermission(MenuId.EMERGENCY);
  const config = useQuery({
    queryKey: ['realtime', 'groupApi'],
    queryFn: ({ signal }) => call('mapConfig', undefined, { signal, silent: true }),
    staleTime: Infinity,
    retry: false,
  });
  const api = config.data?.group_api;
  const key = config.isSuccess ? JSON.stringify({ api, lang }) : '';

  useEffect(() => {
    consoleSdk.log.alert = (text) => notification.warning({ message: t('alert.title'), description: text });
  }, [notification, t]);

  // the toast of an outcome, read through a ref so that a new translation or permission answer
  // never logs on again
  const show = useRef<(outcome: GroupLoginOutcome) => void>(() => undefined);
  show.current = (outcome) => {
    const duration = TOAST_DURATION_MS / 1000;
    if (outcome.kind === 'success') void message.success({ content: t('group.success'), duration });
    else if (outcome.kind === 'already') void message.info({ content: t('group.already'), duration });
    else if (outcome.kind === 'elsewhere') void message.warning({ content: t('group.elsewhere'), duration });
    else if (outcome.kind === 'failed')
      void message.error({ content: t('group.failed', { reason: outcome.reason }), duration });
    else if (outcome.kind === 'featureOff' && mayDispatch)
      void message.warning({ content: t('group.featureOff'), duration });
  };

  useEffect(() => {
    if (!key) return;
    const { api: current, lang: language } = JSON.parse(key) as { api?: GroupApi; lang: Language };
    let active = true;
    let relogging = false;
    const done = (outcome: GroupLoginOutcome) => {
      // a new login: its conversations (a resumed one is listed on its first heartbeat)
      if (outcome.kind === 'success') void consoleIm.sync().catch(() => undefined);
      if (active) show.current(outcome);
    };
    void groupLogin(consoleSdk, current, language).then(done);
    const off = consoleSdk.on('heartbeat', (reply) => {
      if (reply.logged_on !== 0 || !consoleSdk.login || relogging || !current) return;
      relogging = true;
      consoleSdk.cache.clear();
      void groupLogin(consoleSdk, { ...current, islogin: 0 }, language)
        .then(done)
        .finally(() => (relogging = false));
    });
    return () => {
      active = false;
      off();
    };
  }, [key]);

  useEffect(() => () => consoleSdk.destroy(), []);
}
