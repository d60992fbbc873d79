import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageInfo } from './queries';
import { systemTitle } from './systemTitle';

/** Browser tab title: the configured system title, else the product name (systemTitle). */
export function DocumentTitle() {
  const { t } = useTranslation();
  const { data } = usePageInfo();
  const title = systemTitle(data?.title, t('app.productName'));
  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}
