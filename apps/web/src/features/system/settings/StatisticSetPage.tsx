import { Form, InputNumber, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { flagSwitchProps } from '../../../app/forms/flagSwitch';
import { NUMBER_INPUT_STYLE, numberRules, settingBounds } from './SettingsCard';
import { SettingsTypePage } from './SettingsTypePage';

/** /system/systemset/statisticset: when a statistics day starts, the cycle, offline devices counted. */
export function StatisticSetPage() {
  const { t } = useTranslation('system');
  return (
    <SettingsTypePage type="statisticset">
      {(rules) => (
        <>
          <Form.Item
            name="stat_day_start"
            label={t('statisticset.field.stat_day_start')}
            rules={numberRules(rules, 'stat_day_start')}
            validateFirst
            extra={t('statisticset.help.stat_day_start')}
          >
            <InputNumber style={NUMBER_INPUT_STYLE} suffix={t('settings.unit.hour')} />
          </Form.Item>
          <Form.Item
            name="stat_cycle_days"
            label={t('statisticset.field.stat_cycle_days')}
            rules={numberRules(rules, 'stat_cycle_days')}
            validateFirst
            extra={t('settings.range', settingBounds('statisticset', 'stat_cycle_days'))}
          >
            <InputNumber style={NUMBER_INPUT_STYLE} suffix={t('settings.unit.days')} />
          </Form.Item>
          <Form.Item
            name="count_offline_devices"
            label={t('statisticset.field.count_offline_devices')}
            rules={rules('count_offline_devices')}
            extra={t('statisticset.help.count_offline_devices')}
            {...flagSwitchProps}
          >
            <Switch checkedChildren={t('settings.on')} unCheckedChildren={t('settings.off')} />
          </Form.Item>
        </>
      )}
    </SettingsTypePage>
  );
}
