import { VERSION_CHECK_INTERVAL_MS } from '@bwc/protocol';
import { App } from 'antd';
import { useEffect, useRef } from 'react';
import { call } from '../../api/http';
import { i18next } from '../../i18n';

/**
 * Checks the server version every VERSION_CHECK_INTERVAL_MS; when the served console build differs
 * from the one seen at start, offers a reload (once per new build).
 */
export function useVersionWatch(): void {
  const { modal } = App.useApp();
  // the watch runs once per shell; the latest modal API is read when a dialog is due
  const modalRef = useRef(modal);
  modalRef.current = modal;
  useEffect(() => {
    let first: string | null = null;
    let offered: string | null = null;
    const read = async () => {
      try {
        const { build } = await call('serverVersion', undefined, { silent: true });
        const version = build;
        if (first === null) first = version;
        else if (version !== first && version !== offered) {
          offered = version;
          modalRef.current.confirm({
            title: i18next.t('common:version.changedTitle'),
            content: i18next.t('common:version.changedDescription', { from: first, to: version }),
            okText: i18next.t('common:action.reload'),
            cancelText: i18next.t('common:action.later'),
            onOk: () => window.location.reload(),
          });
        }
      } catch (error) {
        console.warn('version check failed', error);
      }
    };
    void read();
    const timer = setInterval(() => void read(), VERSION_CHECK_INTERVAL_MS);
    return () => clearInterval(timer);
  }, []);
}
