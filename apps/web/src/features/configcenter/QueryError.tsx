import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/http';

/** Error state of a screen whose data could not be read (the http layer has already toasted the reason). */
export function QueryError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation('configcenter');
  const detail = error instanceof ApiError ? error.msg : undefined;
  return (
    <Result
      status="warning"
      title={t('state.loadFailed')}
      subTitle={detail}
      extra={
        <Button type="primary" onClick={onRetry}>
          {t('state.retry')}
        </Button>
      }
    />
  );
}
