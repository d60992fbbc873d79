import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './http';
import { onSessionCleared } from './session';

/** Envelope errors are final answers (already toasted): retry only network trouble. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (failures, error) => !(error instanceof ApiError && error.code !== 0) && failures < 2,
      refetchOnWindowFocus: false,
      staleTime: 60_000,
    },
    mutations: { retry: false },
  },
});

onSessionCleared(() => queryClient.clear());
