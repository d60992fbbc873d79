import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/http';

/** Error state of a screen whose data could not be read (the http layer has already toasted the reason). */
export function QueryError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation('components');
  const detail = error instanceof ApiError ? error.msg : undefined;
  return (
    <Result
      status="warning"
      title={t('crud.loadFailed')}
      subTitle={detail}
      extra={
        <Button type="primary" onClick={onRetry}>
          {t('crud.retry')}
        </Button>
      }
    />
  );
}
