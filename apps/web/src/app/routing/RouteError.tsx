import { LAZY_CHUNK_TIMEOUT_MS } from '@bwc/protocol';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { NotFoundPage, ServerErrorPage } from '../pages/ErrorPages';
import { ChunkLoadError } from './lazyPage';

/** A chunk that failed or timed out: explain and offer a reload. */
export function ChunkErrorResult({ error }: { error: ChunkLoadError }) {
  const { t } = useTranslation();
  const timeout = error.reason === 'timeout';
  return (
    <Result
      status="warning"
      title={timeout ? t('chunk.timeoutTitle') : t('chunk.failedTitle')}
      subTitle={
        timeout
          ? t('chunk.timeoutDescription', { seconds: LAZY_CHUNK_TIMEOUT_MS / 1000 })
          : t('chunk.failedDescription')
      }
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('action.reload')}
        </Button>
      }
    />
  );
}

/** Error boundary of the routes: chunk failures get a reload prompt, anything else the 500 page. */
export function RouteError() {
  const error = useRouteError();
  if (error instanceof ChunkLoadError) return <ChunkErrorResult error={error} />;
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  if (error instanceof Error) console.error(error);
  return <ServerErrorPage inline message={error instanceof Error ? error.message : undefined} />;
}
