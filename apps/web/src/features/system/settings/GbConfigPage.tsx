import { gbSettingsProblem } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { Alert, Divider, Form, Input, InputNumber, Switch, type FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { flagSwitchProps } from '../../../app/forms/flagSwitch';
import { translateKey } from '../../../i18n';
import { keysOf } from '../../../i18n/keys';
import { NUMBER_INPUT_STYLE, numberRules, settingBounds, type SettingsRules } from './SettingsCard';
import { SettingsTypePage } from './SettingsTypePage';
import { settingsKeys } from './useSettings';

/** Label, help and unit of each numeric field (system catalogue keys). */
const NUMBER_FIELDS = {
  LocalPort: keysOf('system', { label: 'gbconfig.field.LocalPort', help: 'gbconfig.help.LocalPort' }),
  RegExpires: keysOf('system', {
    label: 'gbconfig.field.RegExpires',
    help: 'gbconfig.help.RegExpires',
    unit: 'settings.unit.seconds',
  }),
  AliveInterval: keysOf('system', {
    label: 'gbconfig.field.AliveInterval',
    help: 'gbconfig.help.AliveInterval',
    unit: 'settings.unit.seconds',
  }),
  AliveTimeoutCnt: keysOf('system', {
    label: 'gbconfig.field.AliveTimeoutCnt',
    help: 'gbconfig.help.AliveTimeoutCnt',
    unit: 'settings.unit.times',
  }),
  VideoPort: keysOf('system', { label: 'gbconfig.field.VideoPort', help: 'gbconfig.help.VideoPort' }),
  AudioPort: keysOf('system', { label: 'gbconfig.field.AudioPort', help: 'gbconfig.help.AudioPort' }),
  PortCount: keysOf('system', { label: 'gbconfig.field.PortCount', help: 'gbconfig.help.PortCount' }),
};
type NumberField = keyof typeof NUMBER_FIELDS;

/** The fields of the port rule across fields (gbSettingsProblem), checked again when one changes. */
const PORT_FIELDS = ['LocalPort', 'VideoPort', 'AudioPort', 'PortCount'] as const;

/** The port rule for `field`: the server's own check, shown at the field it names. */
function portRule(field: NumberField): FormRule {
  return ({ getFieldValue }) => ({
    validator: async () => {
      const ports = Object.fromEntries(PORT_FIELDS.map((f) => [f, Number(getFieldValue(f))]));
      // a field that is not a whole number has its own message
      if (!Object.values(ports).every(Number.isInteger)) return;
      const problem = gbSettingsProblem(ports as Record<(typeof PORT_FIELDS)[number], number>);
      if (problem?.field === field) throw new Error(translateKey(problem.key, problem.params));
    },
  });
}

function NumberItem({ field, rules }: { field: NumberField; rules: SettingsRules }) {
  const { t } = useTranslation('system');
  const keys: { label: string; help: string; unit?: string } = NUMBER_FIELDS[field];
  const ports = (PORT_FIELDS as readonly string[]).includes(field) && field !== 'PortCount';
  return (
    <Form.Item
      name={field}
      label={t(keys.label)}
      rules={ports ? [...numberRules(rules, field), portRule(field)] : numberRules(rules, field)}
      dependencies={ports ? PORT_FIELDS.filter((f) => f !== field) : undefined}
      validateFirst
      required
      extra={t('gbconfig.withRange', {
        help: t(keys.help),
        range: t('settings.range', settingBounds('gbconfig', field)),
      })}
    >
      <InputNumber style={NUMBER_INPUT_STYLE} suffix={keys.unit ? t(keys.unit) : undefined} />
    </Form.Item>
  );
}

/** Whether GB28181 access runs, as the server says (gb_status), above the form. */
function GbStatusAlert() {
  const { t } = useTranslation('system');
  const status = useQuery({
    queryKey: settingsKeys.gbStatus,
    queryFn: ({ signal }) => call('gbStatus', undefined, { signal }),
  });
  if (status.isPending) return null;
  const s = status.data;
  let type: 'success' | 'info' | 'warning' | 'error';
  let message: string;
  let state: string;
  if (!s) [type, message, state] = ['warning', t('gbconfig.status.unknown'), 'unknown'];
  else if (s.gb_mode !== 1) [type, message, state] = ['info', t('gbconfig.status.off'), 'off'];
  else if (s.running === 1)
    [type, message, state] = [
      'success',
      s.host
        ? t('gbconfig.status.running', { host: s.host, port: s.port })
        : t('gbconfig.status.runningAll', { port: s.port }),
      'running',
    ];
  else if (s.error) [type, message, state] = ['error', t('gbconfig.status.failed', { error: s.error }), 'failed'];
  else [type, message, state] = ['warning', t('gbconfig.notRunning'), 'stopped'];
  return (
    <Alert
      type={type}
      showIcon
      message={message}
      style={{ marginBottom: 16 }}
      data-testid="gbconfig-status"
      data-state={state}
    />
  );
}

/**
 * /system/player/gbconfig: the GB/T 28181 platform (spec part 2 section 3, the GB player config,
 * as the server's settings) and the application-wide GB mode flag (spec part 1 section 1).
 */
export function GbConfigPage() {
  const { t } = useTranslation('system');
  return (
    <SettingsTypePage type="gbconfig">
      {(rules) => (
        <>
          <GbStatusAlert />
          <Form.Item
            name="gb_mode"
            label={t('gbconfig.field.gb_mode')}
            extra={t('gbconfig.help.gb_mode')}
            {...flagSwitchProps}
          >
            <Switch checkedChildren={t('settings.on')} unCheckedChildren={t('settings.off')} />
          </Form.Item>
          <Divider orientation="left" plain>
            {t('gbconfig.section.platform')}
          </Divider>
          <Form.Item
            name="SipId"
            label={t('gbconfig.field.SipId')}
            rules={rules('SipId')}
            required
            extra={t('gbconfig.help.SipId')}
          >
            <Input maxLength={20} style={{ width: 260 }} />
          </Form.Item>
          <Form.Item
            name="SipDomain"
            label={t('gbconfig.field.SipDomain')}
            rules={rules('SipDomain')}
            required
            extra={t('gbconfig.help.SipDomain')}
          >
            <Input maxLength={10} style={{ width: 260 }} />
          </Form.Item>
          <Form.Item
            name="LocalIp"
            label={t('gbconfig.field.LocalIp')}
            rules={rules('LocalIp')}
            extra={t('gbconfig.help.LocalIp')}
          >
            <Input placeholder={t('gbconfig.allInterfaces')} style={{ width: 260 }} />
          </Form.Item>
          <NumberItem field="LocalPort" rules={rules} />
          <Form.Item
            name="DevicePassword"
            label={t('gbconfig.field.DevicePassword')}
            rules={rules('DevicePassword')}
            required
            extra={t('gbconfig.help.DevicePassword')}
          >
            <Input.Password maxLength={32} style={{ width: 260 }} autoComplete="new-password" />
          </Form.Item>
          <Divider orientation="left" plain>
            {t('gbconfig.section.liveness')}
          </Divider>
          <NumberItem field="RegExpires" rules={rules} />
          <NumberItem field="AliveInterval" rules={rules} />
          <NumberItem field="AliveTimeoutCnt" rules={rules} />
          <Divider orientation="left" plain>
            {t('gbconfig.section.media')}
          </Divider>
          <NumberItem field="VideoPort" rules={rules} />
          <NumberItem field="AudioPort" rules={rules} />
          <NumberItem field="PortCount" rules={rules} />
        </>
      )}
    </SettingsTypePage>
  );
}
