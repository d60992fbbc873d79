import { Card, Result } from 'antd';
import { useTranslation } from 'react-i18next';

/** /data/archive/alram: recordings do not name the alarm that started them yet, so nothing to list. */
export function AlarmMediaPage() {
  const { t } = useTranslation('archive');
  return (
    <Card title={t('title.alarmMedia')}>
      <Result status="info" title={t('pending.alarmMedia')} subTitle={t('pending.alarmMediaDetail')} />
    </Card>
  );
}

/** /data/archive/sample: case samples come later. */
export function SamplePage() {
  const { t } = useTranslation('archive');
  return (
    <Card title={t('title.sample')}>
      <Result status="info" title={t('pending.sample')} subTitle={t('pending.sampleDetail')} />
    </Card>
  );
}
