import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import { useEffect } from 'react';
import { RouterProvider } from 'react-router';
import { setMessageInstance } from '../api/notify';
import { queryClient } from '../api/queryClient';
import { ConsoleConfig } from './ConsoleConfig';
import { createAppRouter } from './router';
import { DocumentTitle } from './session/DocumentTitle';

const router = createAppRouter();

/** Hands antd's context-aware message instance to the http layer's toasts. */
function NotifyBridge() {
  const { message } = AntApp.useApp();
  useEffect(() => setMessageInstance(message), [message]);
  return null;
}

export function AppRoot() {
  return (
    <ConsoleConfig>
      <AntApp>
        <NotifyBridge />
        <QueryClientProvider client={queryClient}>
          <DocumentTitle />
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntApp>
    </ConsoleConfig>
  );
}
