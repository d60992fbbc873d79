import { PASSWORD_SET_MAX, PASSWORD_SET_MIN } from '@bwc/protocol';
import { Form, Input, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { NUMBER_INPUT_STYLE, numberRules, type SettingsRules, settingBounds } from './SettingsCard';
import { SettingsTypePage } from './SettingsTypePage';

/**
 * /system/systemset/normalset: login security. Failures before lockout and lock minutes feed the
 * server's lockout; the default reset password follows the password rules (never hard-coded).
 */
export function NormalSetPage() {
  return <SettingsTypePage type="normalset">{(rules) => <NormalSetFields rules={rules} />}</SettingsTypePage>;
}

/** The fields of the form, validated with the protocol schema through `rules`. */
export function NormalSetFields({ rules }: { rules: SettingsRules }) {
  const { t } = useTranslation('system');
  return (
    <>
      <Form.Item
        name="login_fail_limit"
        label={t('normalset.field.login_fail_limit')}
        rules={numberRules(rules, 'login_fail_limit')}
        validateFirst
        extra={t('normalset.help.login_fail_limit', settingBounds('normalset', 'login_fail_limit'))}
      >
        <InputNumber style={NUMBER_INPUT_STYLE} suffix={t('settings.unit.times')} />
      </Form.Item>
      <Form.Item
        name="login_lock_minutes"
        label={t('normalset.field.login_lock_minutes')}
        rules={numberRules(rules, 'login_lock_minutes')}
        validateFirst
        extra={t('normalset.help.login_lock_minutes', settingBounds('normalset', 'login_lock_minutes'))}
      >
        <InputNumber style={NUMBER_INPUT_STYLE} suffix={t('settings.unit.minutes')} />
      </Form.Item>
      <Form.Item
        name="default_password"
        label={t('normalset.field.default_password')}
        rules={rules('default_password')}
        required
        extra={t('normalset.help.default_password', { min: PASSWORD_SET_MIN, max: PASSWORD_SET_MAX })}
      >
        <Input.Password autoComplete="new-password" style={{ maxWidth: 320 }} />
      </Form.Item>
      <Form.Item
        name="session_timeout_minutes"
        label={t('normalset.field.session_timeout_minutes')}
        rules={numberRules(rules, 'session_timeout_minutes')}
        validateFirst
        extra={t('settings.range', settingBounds('normalset', 'session_timeout_minutes'))}
      >
        <InputNumber style={NUMBER_INPUT_STYLE} suffix={t('settings.unit.minutes')} />
      </Form.Item>
    </>
  );
}
