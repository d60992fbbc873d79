import { Form, Input, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { NUMBER_INPUT_STYLE, numberRules, settingBounds } from './SettingsCard';
import { SettingsTypePage } from './SettingsTypePage';

/** /system/systemset/filestorage: evidence storage folder, retention, disk warning threshold. */
export function FileStoragePage() {
  const { t } = useTranslation('system');
  return (
    <SettingsTypePage type="filestorage">
      {(rules) => (
        <>
          <Form.Item
            name="storage_path"
            label={t('filestorage.field.storage_path')}
            rules={rules('storage_path')}
            required
            extra={t('filestorage.help.storage_path')}
          >
            <Input />
          </Form.Item>
          <Form.Item
            name="keep_days"
            label={t('filestorage.field.keep_days')}
            rules={numberRules(rules, 'keep_days')}
            validateFirst
            extra={t('settings.range', settingBounds('filestorage', 'keep_days'))}
          >
            <InputNumber style={NUMBER_INPUT_STYLE} suffix={t('settings.unit.days')} />
          </Form.Item>
          <Form.Item
            name="disk_warn_percent"
            label={t('filestorage.field.disk_warn_percent')}
            rules={numberRules(rules, 'disk_warn_percent')}
            validateFirst
            extra={t('filestorage.help.disk_warn_percent', settingBounds('filestorage', 'disk_warn_percent'))}
          >
            <InputNumber style={NUMBER_INPUT_STYLE} suffix="%" />
          </Form.Item>
        </>
      )}
    </SettingsTypePage>
  );
}
