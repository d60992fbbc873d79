import { boundsOf, MenuId, PlayConfig, SettingsSchemas, SPLIT_SCREEN_CHOICES } from '@bwc/protocol';
import { Divider, Form, Input, InputNumber, Radio, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { flagSwitchProps } from '../../../app/forms/flagSwitch';
import { keysOf } from '../../../i18n/keys';
import { SettingsCard, NUMBER_INPUT_STYLE, numberRules } from './SettingsCard';
import { SettingsTypePage } from './SettingsTypePage';
import { usePlayConfig, useSavePlayConfig } from './useSettings';

const MAP_CRS = ['WGS84', 'GCJ02'] as const;
const CRS_LABELS = keysOf('system', {
  WGS84: 'digitailmap.crs.WGS84',
  GCJ02: 'digitailmap.crs.GCJ02',
} satisfies Record<(typeof MAP_CRS)[number], string>);

/**
 * Bounds of the alarm video numbers, for their help texts. These fields carry a default (settings
 * stored before they existed), so the bounded schema is the one inside it.
 */
const ALARM_VIDEO_BOUNDS = {
  getvideo_time: boundsOf(SettingsSchemas.digitailmap.shape.getvideo_time.unwrap()),
  getvideo_num: boundsOf(SettingsSchemas.digitailmap.shape.getvideo_num.unwrap()),
};

/**
 * /system/player/digitailmap: online/offline map, centre, tiles, coordinates; live video of SOS
 * alarms; live video split count.
 */
export function DigitailMapPage() {
  const { t } = useTranslation('system');
  return (
    <>
      <SettingsTypePage type="digitailmap">
        {(rules) => (
          <>
            <Form.Item
              name="mapinfo"
              label={t('digitailmap.field.mapinfo')}
              rules={rules('mapinfo')}
              extra={t('digitailmap.help.mapinfo')}
            >
              <Radio.Group
                optionType="button"
                options={[
                  { value: 1, label: t('digitailmap.mapinfo.online') },
                  { value: 0, label: t('digitailmap.mapinfo.offline') },
                ]}
              />
            </Form.Item>
            <Form.Item
              name="gpscenter_lon"
              label={t('digitailmap.field.gpscenter_lon')}
              rules={numberRules(rules, 'gpscenter_lon')}
              validateFirst
              extra={t('digitailmap.help.gpscenter_lon')}
            >
              <InputNumber style={NUMBER_INPUT_STYLE} step={0.0001} />
            </Form.Item>
            <Form.Item
              name="gpscenter_lat"
              label={t('digitailmap.field.gpscenter_lat')}
              rules={numberRules(rules, 'gpscenter_lat')}
              validateFirst
              extra={t('digitailmap.help.gpscenter_lat')}
            >
              <InputNumber style={NUMBER_INPUT_STYLE} step={0.0001} />
            </Form.Item>
            <Form.Item
              name="map_url"
              label={t('digitailmap.field.map_url')}
              rules={rules('map_url')}
              extra={t('digitailmap.help.map_url')}
            >
              <Input placeholder="https://tiles.example.org/{z}/{x}/{y}.png" />
            </Form.Item>
            <Form.Item
              name="map_crs"
              label={t('digitailmap.field.map_crs')}
              rules={rules('map_crs')}
              extra={t('digitailmap.help.map_crs')}
            >
              <Select
                style={{ width: 200 }}
                options={MAP_CRS.map((crs) => ({ value: crs, label: t(CRS_LABELS[crs]) }))}
              />
            </Form.Item>
            <Divider orientation="left" orientationMargin={0}>
              {t('digitailmap.alarmVideo.title')}
            </Divider>
            <Form.Item
              name="getvideo_switch"
              label={t('digitailmap.field.getvideo_switch')}
              rules={rules('getvideo_switch')}
              extra={t('digitailmap.help.getvideo_switch')}
              {...flagSwitchProps}
            >
              <Switch checkedChildren={t('settings.on')} unCheckedChildren={t('settings.off')} />
            </Form.Item>
            <Form.Item
              name="getvideo_time"
              label={t('digitailmap.field.getvideo_time')}
              rules={numberRules(rules, 'getvideo_time')}
              validateFirst
              extra={t('digitailmap.help.getvideo_time', ALARM_VIDEO_BOUNDS.getvideo_time)}
            >
              <InputNumber style={NUMBER_INPUT_STYLE} suffix={t('settings.unit.seconds')} />
            </Form.Item>
            <Form.Item
              name="getvideo_num"
              label={t('digitailmap.field.getvideo_num')}
              rules={numberRules(rules, 'getvideo_num')}
              validateFirst
              extra={t('digitailmap.help.getvideo_num', ALARM_VIDEO_BOUNDS.getvideo_num)}
            >
              <InputNumber style={NUMBER_INPUT_STYLE} />
            </Form.Item>
            <Form.Item
              name="getvideo_path"
              label={t('digitailmap.field.getvideo_path')}
              rules={rules('getvideo_path')}
              extra={t('digitailmap.help.getvideo_path')}
            >
              <Input />
            </Form.Item>
            <Form.Item
              name="getpic_path"
              label={t('digitailmap.field.getpic_path')}
              rules={rules('getpic_path')}
              extra={t('digitailmap.help.getpic_path')}
            >
              <Input />
            </Form.Item>
          </>
        )}
      </SettingsTypePage>
      <PlayConfigCard />
    </>
  );
}

/** play_get / play_update: how many live videos the video wall splits into. */
function PlayConfigCard() {
  const { t } = useTranslation('system');
  const query = usePlayConfig();
  const save = useSavePlayConfig();
  return (
    <SettingsCard<PlayConfig>
      title={t('play.title')}
      description={t('play.description')}
      schema={PlayConfig}
      menuId={MenuId.DISPATCH_CONFIG}
      query={query}
      save={save}
    >
      {(rules) => (
        <Form.Item name="video_live_num" label={t('play.field.video_live_num')} rules={rules('video_live_num')}>
          <Select
            style={{ width: 200 }}
            options={SPLIT_SCREEN_CHOICES.map((n) => ({ value: n, label: t('play.split', { count: n }) }))}
          />
        </Form.Item>
      )}
    </SettingsCard>
  );
}
