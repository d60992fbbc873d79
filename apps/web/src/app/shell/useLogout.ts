import { App } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { clearSession } from '../../api/session';

/** Logout confirm 'confirm logging out' -> console-service logout -> logout call -> clear session storage -> reload to /login. */
export function useLogout(): () => void {
  const { modal } = App.useApp();
  const { t } = useTranslation('shell');
  const { t: tc } = useTranslation();
  return useCallback(() => {
    modal.confirm({
      title: t('logout.title'),
      content: t('logout.confirm'),
      okText: tc('action.ok'),
      cancelText: tc('action.cancel'),
      onOk: async () => {
        try {
          // loaded by the shell after its first render (ConsoleService), so normally already here
          const { consoleSdk } = await import('../../realtime/sdk/groupLogin');
          await consoleSdk.logout();
        } catch (error) {
          console.warn('console service logout failed', error);
        }
        try {
          await call('logout', undefined, { silent: true });
        } catch (error) {
          // the session is ended locally either way
          console.warn('logout call failed', error);
        }
        clearSession();
        window.location.assign('/login');
      },
    });
  }, [modal, t, tc]);
}
