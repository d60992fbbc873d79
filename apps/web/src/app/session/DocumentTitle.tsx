import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageInfo } from './queries';

/** Browser tab title: the configured system title, else the product name. */
export function DocumentTitle() {
  const { t } = useTranslation();
  const { data } = usePageInfo();
  const title = data?.title || t('app.productName');
  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}
