import { BellOutlined, SoundOutlined } from '@ant-design/icons';
import { Badge, Button, ConfigProvider, Popover, Spin, Tag, theme, Tooltip } from 'antd';
import { Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyPage } from '../../../app/routing/lazyPage';
import { usePermission } from '../../../app/session/Permission';
import { useUserContext } from '../../../app/session/queries';
import type { SoundStatus } from './alarmSound';
import { bellMode } from './bellRoutes';
import { useAlarmBell } from './useAlarmBell';
import './bell.css';

const AlarmBellPanel = lazyPage(() => import('./AlarmBellPanel'), 'AlarmBellPanel');

/**
 * The alarm bell of the navigation bar (spec part 1 sections 2 and 4): unread count, a panel with
 * the severity tabs and their counts, the table with read / see / live / locate, view-all and
 * mark-all-read (AlarmBellPanel). Shown only with view on 10154 (GB mode) or 10104 (dispatch mode).
 */
export function AlarmBell() {
  const { data: context } = useUserContext();
  const mode = useMemo(() => bellMode(context?.gb === 1), [context?.gb]);
  const allowed = usePermission(mode.menu, 'view');
  if (!context || !allowed) return null;
  return <Bell key={String(mode.gb)} gb={mode.gb} />;
}

function Bell({ gb }: { gb: boolean }) {
  const { t } = useTranslation('bell');
  const mode = useMemo(() => bellMode(gb), [gb]);
  const bell = useAlarmBell(mode);
  const [open, setOpen] = useState(false);
  const [locating, setLocating] = useState(false);
  const { counts } = bell.state;

  const panel = (
    <Suspense fallback={<Spin className="alarm-bell-panel-loading" />}>
      <AlarmBellPanel bell={bell} gb={gb} onHide={() => setOpen(false)} onLocateChange={setLocating} />
    </Suspense>
  );

  // the navigation bar is dark; the panel and the map dialog are light like the pages
  return (
    <ConfigProvider theme={{ algorithm: theme.defaultAlgorithm }}>
      <SoundEnable status={bell.soundStatus} onEnable={bell.enableSound} />
      <Popover
        open={open}
        // a click in the locate dialog is outside the panel: the panel stays for the next row
        onOpenChange={(next) => setOpen(next || locating)}
        trigger="click"
        placement="bottomRight"
        content={panel}
        arrow={false}
        destroyOnHidden={false}
      >
        <Badge count={counts.total} overflowCount={99} size="small" offset={[-6, 6]}>
          <Button
            type="text"
            icon={<BellOutlined />}
            className={bell.ringing === 'ringing' ? 'alarm-bell-button alarm-bell-ringing' : 'alarm-bell-button'}
            aria-label={t('button', { count: counts.total })}
            data-testid="alarm-bell"
            data-count={counts.total}
            data-ringing={bell.ringing === 'ringing' ? 'true' : 'false'}
          />
        </Badge>
      </Popover>
    </ConfigProvider>
  );
}

/**
 * Browsers refuse sound before the first user gesture: the bar says so and offers to enable it
 * (any click on the page enables it too). After a critical alarm that could not sound it turns red.
 */
function SoundEnable({ status, onEnable }: { status: SoundStatus; onEnable: () => void }) {
  const { t } = useTranslation('bell');
  if (status.access === 'enabled') return null;
  if (status.access === 'unsupported') {
    return (
      <Tooltip title={t('sound.unsupported')}>
        <Tag color="warning" icon={<SoundOutlined />} data-testid="alarm-sound-unsupported">
          {t('sound.unsupportedShort')}
        </Tag>
      </Tooltip>
    );
  }
  return (
    <Tooltip title={status.missed ? t('sound.missed') : t('sound.blocked')}>
      <Button
        size="small"
        danger={status.missed}
        type={status.missed ? 'primary' : 'default'}
        icon={<SoundOutlined />}
        className={status.missed ? 'alarm-sound-enable alarm-sound-missed' : 'alarm-sound-enable'}
        onClick={onEnable}
        data-testid="alarm-sound-enable"
        data-missed={status.missed ? 'true' : 'false'}
      >
        {t('sound.enable')}
      </Button>
    </Tooltip>
  );
}
