import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@bwc/protocol';
import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { RouterProvider } from 'react-router';
import { setMessageInstance } from '../api/notify';
import { queryClient } from '../api/queryClient';
import { ANTD_LOCALES } from '../i18n';
import { createAppRouter } from './router';
import { DocumentTitle } from './session/DocumentTitle';

const router = createAppRouter();

/** Hands antd's context-aware message instance to the http layer's toasts. */
function NotifyBridge() {
  const { message } = AntApp.useApp();
  useEffect(() => setMessageInstance(message), [message]);
  return null;
}

function useLanguage(): Language {
  const { i18n } = useTranslation();
  return (LANGUAGES as readonly string[]).includes(i18n.language) ? (i18n.language as Language) : DEFAULT_LANGUAGE;
}

export const theme = { token: { colorPrimary: '#1f5fbf', borderRadius: 4 } };

export function AppRoot() {
  const language = useLanguage();
  return (
    <ConfigProvider locale={ANTD_LOCALES[language]} theme={theme}>
      <AntApp>
        <NotifyBridge />
        <QueryClientProvider client={queryClient}>
          <DocumentTitle />
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
