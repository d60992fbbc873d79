import { MenuId, PlayConfig, SPLIT_SCREEN_CHOICES } from '@bwc/protocol';
import { Form, Input, InputNumber, Radio, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { keysOf } from '../../../i18n/keys';
import { SettingsCard, NUMBER_INPUT_STYLE, numberRules } from './SettingsCard';
import { SettingsTypePage } from './SettingsTypePage';
import { usePlayConfig, useSavePlayConfig } from './useSettings';

const MAP_CRS = ['WGS84', 'GCJ02'] as const;
const CRS_LABELS = keysOf('system', {
  WGS84: 'digitailmap.crs.WGS84',
  GCJ02: 'digitailmap.crs.GCJ02',
} satisfies Record<(typeof MAP_CRS)[number], string>);

/** /system/player/digitailmap: online/offline map, centre, tiles, coordinates; live video split count. */
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
