import { RECORDING_DURATIONS_MIN } from '@bwc/protocol';
import { Form, Input, InputNumber, Radio, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { flagSwitchProps } from '../../../app/forms/flagSwitch';
import { NUMBER_INPUT_STYLE, numberRules, settingBounds } from './SettingsCard';
import { SettingsTypePage } from './SettingsTypePage';

/**
 * /system/player/cloudstorage: recording of live streams (off / every stream, stored as evidence),
 * recording storage folder, segment duration (20/30/60 min), retention.
 */
export function CloudStoragePage() {
  const { t } = useTranslation('system');
  return (
    <SettingsTypePage type="cloudstorage">
      {(rules) => (
        <>
          <Form.Item
            name="record_live"
            label={t('cloudstorage.field.record_live')}
            rules={rules('record_live')}
            extra={t('cloudstorage.help.record_live')}
            {...flagSwitchProps}
          >
            <Switch checkedChildren={t('settings.on')} unCheckedChildren={t('settings.off')} />
          </Form.Item>
          <Form.Item
            name="record_path"
            label={t('cloudstorage.field.record_path')}
            rules={rules('record_path')}
            required
            extra={t('cloudstorage.help.record_path')}
          >
            <Input />
          </Form.Item>
          <Form.Item
            name="record_minutes"
            label={t('cloudstorage.field.record_minutes')}
            rules={rules('record_minutes')}
            required
            extra={t('cloudstorage.help.record_minutes')}
          >
            <Radio.Group
              optionType="button"
              options={RECORDING_DURATIONS_MIN.map((m) => ({
                value: m,
                label: t('cloudstorage.minutes', { count: m }),
              }))}
            />
          </Form.Item>
          <Form.Item
            name="keep_days"
            label={t('cloudstorage.field.keep_days')}
            rules={numberRules(rules, 'keep_days')}
            validateFirst
            extra={t('settings.range', settingBounds('cloudstorage', 'keep_days'))}
          >
            <InputNumber style={NUMBER_INPUT_STYLE} suffix={t('settings.unit.days')} />
          </Form.Item>
        </>
      )}
    </SettingsTypePage>
  );
}
