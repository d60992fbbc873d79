import { Card, Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** /data/archive/sample: case samples come later. */
export function SamplePage() {
  const { t } = useTranslation('archive');
  return (
    <Card title={t('title.sample')}>
      <Result status="info" title={t('pending.sample')} subTitle={t('pending.sampleDetail')} />
    </Card>
  );
}
