import { ALARM_LEVELS, type Alarm, type AlarmLevel } from '@bwc/protocol';
import { Button, Space, Table, Tabs, Tag, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../format/time';
import { LEVEL_LABELS } from '../levels';
import { AlarmLocateDialog } from '../locate';
import { alarmLocatePoint, type LocatePoint } from './alarmPosition';
import { rowIndex } from './bellState';
import type { useAlarmBell } from './useAlarmBell';

/** Width of the bell's panel: the table's columns fit without wrapping the time. */
const PANEL_WIDTH = 880;
const TABLE_HEIGHT = 320;

export interface AlarmBellPanelProps {
  bell: ReturnType<typeof useAlarmBell>;
  gb: boolean;
  /** close the panel (a row opened a page) */
  onHide: () => void;
  /** the locate dialog opened or closed: the panel stays open while it shows */
  onLocateChange: (open: boolean) => void;
}

/**
 * The bell's panel: the severity tabs with their counts, the table with read / see / live /
 * locate, view-all and mark-all-read. A chunk of its own, loaded when the bell first opens: its
 * table and the locate dialog stay out of the shell's first load (the first-load budget, bench/bundle-size.ts).
 */
export function AlarmBellPanel({ bell, gb, onHide, onLocateChange }: AlarmBellPanelProps) {
  const { t } = useTranslation('bell');
  const [tab, setTab] = useState<AlarmLevel>('criticle');
  const [busy, setBusy] = useState<string | null>(null);
  const [locate, setLocateState] = useState<{ point: LocatePoint; title: string } | null>(null);
  const setLocate = (next: { point: LocatePoint; title: string } | null) => {
    setLocateState(next);
    onLocateChange(next !== null);
  };
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
    onHide();
    bell.open(alarm, isLive);
  };

  const columns: TableColumnsType<Alarm> = [
    { title: t('column.index'), key: 'index', width: 56, render: (_v, _row, i) => rowIndex(i) },
    { title: t('column.device'), dataIndex: 'hostNameCode', key: 'device', ellipsis: true, className: 'bwc-nowrap' },
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

  return (
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
            onHide();
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
}
