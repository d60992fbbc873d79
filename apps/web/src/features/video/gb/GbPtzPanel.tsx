import {
  ArrowDownOutlined,
  ArrowLeftOutlined,
  ArrowRightOutlined,
  ArrowUpOutlined,
  BorderOutlined,
  CompressOutlined,
  ExpandOutlined,
  MoonOutlined,
  SunOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
} from '@ant-design/icons';
import { MenuId, type GbPtzAction, type GbTreeNode } from '@bwc/protocol';
import { Button, InputNumber, Slider, Space, Tooltip } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { usePermission } from '../../../app/session/Permission';
import { keysOf } from '../../../i18n/keys';

type Move = Exclude<GbPtzAction, 'preset_set' | 'preset_call' | 'preset_del'>;

export const PTZ_KEYS = keysOf('video', {
  stop: 'gb.ptz.stop',
  right: 'gb.ptz.right',
  left: 'gb.ptz.left',
  down: 'gb.ptz.down',
  up: 'gb.ptz.up',
  downright: 'gb.ptz.downright',
  downleft: 'gb.ptz.downleft',
  upright: 'gb.ptz.upright',
  upleft: 'gb.ptz.upleft',
  zoomin: 'gb.ptz.zoomin',
  zoomout: 'gb.ptz.zoomout',
  focusfar: 'gb.ptz.focusfar',
  focusnear: 'gb.ptz.focusnear',
  irisopen: 'gb.ptz.irisopen',
  irisclose: 'gb.ptz.irisclose',
} satisfies Record<Move, string>);

const diagonal = (deg: number) => <ArrowUpOutlined style={{ transform: `rotate(${deg}deg)` }} />;

/** The direction pad, row by row, stop in the middle. */
const PAD: { action: Move; icon: ReactNode }[] = [
  { action: 'upleft', icon: diagonal(-45) },
  { action: 'up', icon: <ArrowUpOutlined /> },
  { action: 'upright', icon: diagonal(45) },
  { action: 'left', icon: <ArrowLeftOutlined /> },
  { action: 'stop', icon: <BorderOutlined /> },
  { action: 'right', icon: <ArrowRightOutlined /> },
  { action: 'downleft', icon: diagonal(-135) },
  { action: 'down', icon: <ArrowDownOutlined /> },
  { action: 'downright', icon: diagonal(135) },
];

const DEFAULT_SPEED = 128;

/**
 * PTZ of a GB channel (videopatrols/ptz, video patrol edit): the eight directions and stop, zoom,
 * focus and iris, speed, and the presets (go to, store the current position, remove). A move runs until
 * stop. Hidden without the permission. The device's refusal is shown by the shared call helper.
 */
export function GbPtzPanel({ channel }: { channel: GbTreeNode }) {
  const { t } = useTranslation('video');
  const allowed = usePermission(MenuId.VIDEO_PATROL, 'edit');
  const [speed, setSpeed] = useState(DEFAULT_SPEED);
  const [preset, setPreset] = useState<number | null>(1);
  const [busy, setBusy] = useState(false);
  if (!allowed) return null;

  const send = async (action: GbPtzAction) => {
    const body = {
      device: channel.device,
      channel: channel.devgbid,
      action,
      ...(action.startsWith('preset_') ? { preset: preset ?? undefined } : { speed }),
    };
    setBusy(true);
    try {
      await call('gbPtz', body, { success: t('gb.ptz.sent') });
    } catch {
      // the helper showed the refusal
    } finally {
      setBusy(false);
    }
  };

  const button = (action: Move, icon: ReactNode) => (
    <Tooltip key={action} title={t(PTZ_KEYS[action])}>
      <Button
        icon={icon}
        aria-label={t(PTZ_KEYS[action])}
        data-action={action}
        disabled={busy}
        onClick={() => void send(action)}
      />
    </Tooltip>
  );

  return (
    <section className="bwc-gb-ptz" aria-label={t('gb.ptz.title')} data-testid="gb-ptz">
      <h3 className="bwc-gb-ptz-title">{t('gb.ptz.titleOf', { name: channel.name })}</h3>
      <div className="bwc-gb-ptz-body">
        <div className="bwc-gb-ptz-pad">{PAD.map(({ action, icon }) => button(action, icon))}</div>
        <Space direction="vertical">
          {button('zoomin', <ZoomInOutlined />)}
          {button('zoomout', <ZoomOutOutlined />)}
        </Space>
        <Space direction="vertical">
          {button('focusnear', <CompressOutlined />)}
          {button('focusfar', <ExpandOutlined />)}
        </Space>
        <Space direction="vertical">
          {button('irisopen', <SunOutlined />)}
          {button('irisclose', <MoonOutlined />)}
        </Space>
      </div>
      <label className="bwc-gb-ptz-row">
        <span>{t('gb.ptz.speed')}</span>
        <Slider
          min={1}
          max={255}
          value={speed}
          onChange={setSpeed}
          style={{ flex: 1 }}
          aria-label={t('gb.ptz.speed')}
        />
      </label>
      <div className="bwc-gb-ptz-row">
        <span>{t('gb.ptz.preset')}</span>
        <InputNumber
          min={1}
          max={255}
          precision={0}
          value={preset}
          onChange={(value) => setPreset(value)}
          aria-label={t('gb.ptz.preset')}
          size="small"
        />
        <Button
          size="small"
          aria-label={t('gb.ptz.presetCall')}
          data-action="preset_call"
          disabled={busy || preset === null}
          onClick={() => void send('preset_call')}
        >
          {t('gb.ptz.presetCall')}
        </Button>
        <Button
          size="small"
          aria-label={t('gb.ptz.presetSet')}
          data-action="preset_set"
          disabled={busy || preset === null}
          onClick={() => void send('preset_set')}
        >
          {t('gb.ptz.presetSet')}
        </Button>
        <Button
          size="small"
          danger
          aria-label={t('gb.ptz.presetDel')}
          data-action="preset_del"
          disabled={busy || preset === null}
          onClick={() => void send('preset_del')}
        >
          {t('gb.ptz.presetDel')}
        </Button>
      </div>
    </section>
  );
}
