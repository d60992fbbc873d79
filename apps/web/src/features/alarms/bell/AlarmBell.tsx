import { BellOutlined, SoundOutlined } from '@ant-design/icons';
import { ALARM_LEVELS, type Alarm, type AlarmLevel } from '@bwc/protocol';
import {
  Badge,
  Button,
  ConfigProvider,
  Popover,
  Space,
  Table,
  Tabs,
  Tag,
  theme,
  Tooltip,
  type TableColumnsType,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermission } from '../../../app/session/Permission';
import { useUserContext } from '../../../app/session/queries';
import { formatTime } from '../../../format/time';
import { LEVEL_LABELS } from '../levels';
import { AlarmLocateDialog } from '../locate';
import { alarmLocatePoint, type LocatePoint } from './alarmPosition';
import type { SoundStatus } from './alarmSound';
import { bellMode } from './bellRoutes';
import { rowIndex } from './bellState';
import { useAlarmBell } from './useAlarmBell';
import './bell.css';

/** Width of the bell's panel: the table's columns fit without wrapping the time. */
const PANEL_WIDTH = 880;
const TABLE_HEIGHT = 320;

/**
 * The alarm bell of the navigation bar (spec part 1 sections 2 and 4): unread count, a panel with
 * the severity tabs and their counts, the table with read / see / live / locate, view-all and
 * mark-all-read. Shown only with view on 10154 (GB mode) or 10104 (dispatch mode).
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
  const [tab, setTab] = useState<AlarmLevel>('criticle');
  const [busy, setBusy] = useState<string | null>(null);
  const [locate, setLocate] = useState<{ point: LocatePoint; title: string } | null>(null);
  const { counts, lines } = bell.state;

  const run = async (key: string, action: () => Promise<void>) => {
    setBusy(key);
    try {
      await action();
    } catch {
      // the http layer showed the error
    } finally {
      setBusy(null);
    }
  };

  const locateAlarm = (alarm: Alarm) =>
    run(`locate:${alarm.id}`, async () => {
      const point = await alarmLocatePoint(alarm, gb);
      setLocate({ point, title: alarm.hostNameCode });
    });

  const go = (alarm: Alarm, isLive: boolean) => {
    setOpen(false);
    bell.open(alarm, isLive);
  };

  const columns: TableColumnsType<Alarm> = [
    { title: t('column.index'), key: 'index', width: 56, render: (_v, _row, i) => rowIndex(i) },
    { title: t('column.device'), dataIndex: 'hostNameCode', key: 'device', ellipsis: true },
    { title: t('column.type'), dataIndex: 'typeName_cur', key: 'type', width: 140, ellipsis: true },
    {
      title: t('column.unit'),
      key: 'unit',
      width: 130,
      ellipsis: true,
      render: (_v, row) => (gb ? row.dname : row.unitname),
    },
    { title: t('column.time'), key: 'time', width: 160, render: (_v, row) => formatTime(row.alarm_time) },
    {
      title: t('column.operation'),
      key: 'operation',
      width: 230,
      render: (_v, row) => (
        <Space size={0} className="alarm-bell-actions">
          {row.hasRead === 1 ? (
            <Tag className="alarm-bell-read-tag">{t('row.read')}</Tag>
          ) : (
            <Button
              type="link"
              size="small"
              loading={busy === `read:${row.id}`}
              onClick={() => run(`read:${row.id}`, () => bell.readOne(row))}
              data-testid="alarm-bell-read"
            >
              {t('action.read')}
            </Button>
          )}
          <Button type="link" size="small" onClick={() => go(row, false)} data-testid="alarm-bell-see">
            {t('action.see')}
          </Button>
          <Button type="link" size="small" onClick={() => go(row, true)} data-testid="alarm-bell-live">
            {t('action.live')}
          </Button>
          <Button
            type="link"
            size="small"
            loading={busy === `locate:${row.id}`}
            onClick={() => locateAlarm(row)}
            data-testid="alarm-bell-locate"
          >
            {t('action.locate')}
          </Button>
        </Space>
      ),
    },
  ];

  const panel = (
    <div className="alarm-bell-panel" style={{ width: PANEL_WIDTH }} data-testid="alarm-bell-panel">
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as AlarmLevel)}
        items={ALARM_LEVELS.map((level) => ({
          key: level,
          label: (
            <span data-testid={`alarm-bell-tab-${level}`}>
              {t(LEVEL_LABELS[level], { ns: 'alarm' })}
              <span
                className={`alarm-bell-tab-count alarm-bell-level-${counts[level] === 0 ? 'none' : level}`}
                data-testid={`alarm-bell-count-${level}`}
              >
                {counts[level]}
              </span>
            </span>
          ),
          children: (
            <Table<Alarm>
              rowKey="id"
              size="small"
              columns={columns}
              dataSource={lines[level]}
              loading={bell.loading}
              pagination={false}
              scroll={{ y: TABLE_HEIGHT }}
              rowClassName={(row) => (row.hasRead === 1 ? 'alarm-bell-row-read' : 'alarm-bell-row-unread')}
              locale={{ emptyText: t('empty') }}
              data-testid={`alarm-bell-table-${level}`}
            />
          ),
        }))}
      />
      <div className="alarm-bell-footer">
        <Button
          onClick={() => {
            setOpen(false);
            bell.viewAll(tab);
          }}
          data-testid="alarm-bell-view-all"
        >
          {t('action.viewAll')}
        </Button>
        <Button
          type={counts.total !== 0 ? 'primary' : 'default'}
          loading={busy === 'readAll'}
          onClick={() => run('readAll', bell.readAll)}
          data-testid="alarm-bell-read-all"
        >
          {t('action.readAll')}
        </Button>
      </div>
      {/* inside the panel: antd stacks a dialog opened from a popover's content above that popover,
          where one beside it would open under the panel, which would hide its map */}
      <AlarmLocateDialog
        open={locate !== null}
        lng={locate?.point.lng}
        lat={locate?.point.lat}
        title={locate?.title}
        onClose={() => setLocate(null)}
      />
    </div>
  );

  // the navigation bar is dark; the panel and the map dialog are light like the pages
  return (
    <ConfigProvider theme={{ algorithm: theme.defaultAlgorithm }}>
      <SoundEnable status={bell.soundStatus} onEnable={bell.enableSound} />
      <Popover
        open={open}
        // a click in the locate dialog is outside the panel: the panel stays for the next row
        onOpenChange={(next) => setOpen(next || locate !== null)}
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
