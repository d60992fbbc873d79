import { CheckCircleOutlined, DownloadOutlined } from '@ant-design/icons';
import type { AckType, Alarm, AlarmLevel } from '@bwc/protocol';
import { ALARM_LEVELS, MODULES, MenuId } from '@bwc/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Space, Tabs, Tag, Tooltip, Typography } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { call, download } from '../../../api/http';
import { usePermission } from '../../../app/session/Permission';
import { DataTable, useTableUrlState, type DataTableColumn } from '../../../components/data-table';
import type { SearchItem } from '../../../components/search-bar';
import { UnitTreeSelect, isUnitNode, loadUnitLevel } from '../../../components/unit-tree';
import { currentLanguage } from '../../../i18n';
import { formatTime } from '../../../format/time';
import { alarmLocatePoint, type LocatePoint } from '../bell/alarmPosition';
import { requestBellRefresh, type AlarmOpenRequest } from '../bell/bellEvents';
import { bellMode } from '../bell/bellRoutes';
import { AlarmLocateDialog } from '../locate';
import { AlarmDetailDialog } from './AlarmDetailDialog';
import { FILTERS, HISTORY_APIS, NAV_PARAM, historyQuery, navActiveOf, type HistoryMode } from './historyQuery';
import { LEVEL_LABELS } from '../levels';
import { LevelTag } from './LevelTag';
import { AckTypeTag } from './ackType';
import { SureDialog, type SureTarget } from './SureDialog';
import './history.css';

/** The table's least width: the card's content width on a 1280-pixel screen (978 px) and less. */
const HISTORY_TABLE_WIDTH = 970;

export const historyKeys = {
  all: ['alarm', 'history'] as const,
  categories: (lang: string) => ['alarm', 'categories', lang] as const,
};

/**
 * Alarm history (spec part 2 sections 2.1 and 4): DispatchAlarmHistory (/dispatch/alarm, 10104) and
 * AlarmHistory (/monitor/alarm, GB, 10154). Severity tab from `alarmNavActive` (the bell's
 * view-all), filters in the URL, acknowledge one or all with a note, details with pictures,
 * locate, see / live, export to Excel.
 */
export function AlarmHistoryPage({ mode }: { mode: HistoryMode }) {
  const { t } = useTranslation('alarm');
  const apis = HISTORY_APIS[mode];
  const gb = mode === 'gb';
  const canView = usePermission(apis.menu, 'view');
  const canEdit = usePermission(apis.menu, 'edit');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const nav = navActiveOf(params.get(NAV_PARAM));
  const lang = currentLanguage();

  const categories = useQuery({
    queryKey: historyKeys.categories(lang),
    queryFn: ({ signal }) => call('alarmCategories', undefined, { signal }),
    staleTime: 60_000,
  });

  const searchItems = useMemo<SearchItem[]>(
    () => [
      { type: 'dateTimeRange', names: [FILTERS.start, FILTERS.end], label: t('filter.time') },
      {
        type: 'select',
        name: FILTERS.type,
        label: t('filter.type'),
        options: (categories.data ?? []).map((c) => ({ value: c.key, label: c.label })),
        width: 170,
      },
      {
        type: 'custom',
        name: FILTERS.unit,
        label: t('filter.unit'),
        render: ({ value, onChange }) => (
          <UnitTreeSelect
            loader={loadUnitLevel}
            value={value}
            onChange={(next) => onChange(next)}
            selectableNode={isUnitNode}
          />
        ),
      },
      {
        type: 'text',
        name: FILTERS.device,
        label: t('filter.device'),
        placeholder: t('filter.devicePlaceholder'),
        width: 170,
      },
      {
        type: 'select',
        name: FILTERS.read,
        label: t('filter.read'),
        options: [
          { value: '0', label: t('state.unread') },
          { value: '1', label: t('state.read') },
        ],
        width: 110,
      },
      {
        type: 'select',
        name: FILTERS.sure,
        label: t('filter.sure'),
        options: [
          { value: '0', label: t('state.unsured') },
          { value: '1', label: t('state.sured') },
        ],
        width: 120,
      },
    ],
    [t, categories.data],
  );
  const { filters } = useTableUrlState(searchItems);

  const [sureTarget, setSureTarget] = useState<SureTarget | null>(null);
  const [detail, setDetail] = useState<Alarm | null>(null);
  const [locate, setLocate] = useState<{ point: LocatePoint; title: string } | null>(null);
  const [exporting, setExporting] = useState(false);

  const setNav = (key: string) => {
    const next = new URLSearchParams(params);
    if (key === 'all') next.delete(NAV_PARAM);
    else next.set(NAV_PARAM, key);
    next.delete('page');
    setParams(next, { replace: true });
  };

  const reload = useCallback(async () => {
    await queryClient.invalidateQueries({ queryKey: historyKeys.all });
    requestBellRefresh();
  }, [queryClient]);

  const acknowledge = async (target: SureTarget, note: string, ack_type: AckType) => {
    if (target.kind === 'one') await call(apis.sure, { ids: [target.alarm.id], note, ack_type }, { success: true });
    else await call(apis.sureAll, { note, ack_type }, { success: true });
    await reload();
  };

  // view / live lead to Emergency (dispatch) or VideoPatrol (GB): offered with view on that page
  const liveMenu = useMemo(() => {
    const path = bellMode(gb).livePath;
    const id = MODULES.find((m) => m.path === path)?.id ?? MenuId.EMERGENCY;
    return { menu: id, action: 'view' as const };
  }, [gb]);

  const openLive = useCallback(
    (alarm: Alarm, isLive: boolean) => {
      const request: AlarmOpenRequest = { info: alarm, isLive };
      navigate(bellMode(gb).livePath, { state: request });
    },
    [gb, navigate],
  );

  const locateAlarm = useCallback(
    async (alarm: Alarm) => {
      let point: LocatePoint = { lng: alarm.lng, lat: alarm.lat };
      try {
        point = await alarmLocatePoint(alarm, gb);
      } catch {
        // the position call failed (the http layer said why): the alarm's own position
      }
      setLocate({ point, title: alarm.hostNameCode });
    },
    [gb],
  );

  // widths: on a 1280-pixel screen the whole table fits (HISTORY_TABLE_WIDTH), so that no column
  // lies under the sticky operation column; narrower screens scroll
  const columns = useMemo<DataTableColumn<Alarm>[]>(
    () => [
      {
        title: t('column.time'),
        dataIndex: 'alarm_time',
        key: 'alarm_time',
        width: 145,
        className: 'bwc-nowrap',
        render: (value: string) => formatTime(value),
      },
      { title: t('column.type'), dataIndex: 'typeName_cur', key: 'type', width: 110, ellipsis: true },
      {
        title: t('column.level'),
        dataIndex: 'alerm_level',
        key: 'level',
        width: 76,
        render: (level: AlarmLevel) => <LevelTag level={level} />,
      },
      {
        title: t('column.device'),
        key: 'device',
        width: 124,
        className: 'bwc-nowrap',
        render: (_: unknown, row: Alarm) => (
          <div className="bwc-alarm-device">
            <div className="bwc-alarm-device-name" title={row.hostNameCode}>
              {row.hostNameCode}
            </div>
            <Tooltip title={gb ? t('column.gbbm') : t('column.hostbody')}>
              <Typography.Text type="secondary" className="bwc-alarm-device-key">
                {gb ? row.gbbm : row.hostbody}
              </Typography.Text>
            </Tooltip>
          </div>
        ),
      },
      {
        title: t('column.unit'),
        dataIndex: gb ? 'dname' : 'unitname',
        key: 'unit',
        width: 106,
        ellipsis: true,
      },
      {
        title: t('column.read'),
        dataIndex: 'hasRead',
        key: 'read',
        width: 70,
        render: (read: 0 | 1) => (read ? <Tag>{t('state.read')}</Tag> : <Tag color="gold">{t('state.unread')}</Tag>),
      },
      {
        title: t('column.sure'),
        key: 'sure',
        render: (_: unknown, row: Alarm) =>
          row.sure ? (
            <div className="bwc-alarm-sure-cell" data-testid="alarm-sure-cell">
              <Tag color="green" icon={<CheckCircleOutlined />}>
                {row.sure_user}
              </Tag>
              <AckTypeTag type={row.sure_type} />
              <Typography.Text type="secondary" className="bwc-alarm-sure-time">
                {formatTime(row.sure_time)}
              </Typography.Text>
              {row.sure_note && (
                <Tooltip title={row.sure_note}>
                  <div className="bwc-alarm-sure-note">{row.sure_note}</div>
                </Tooltip>
              )}
            </div>
          ) : (
            <Tag color="red" data-testid="alarm-sure-cell">
              {t('state.unsured')}
            </Tag>
          ),
      },
      {
        kind: 'operation',
        // the five actions on two lines
        width: 166,
        fixed: 'right',
        actions: [
          { key: 'detail', label: t('action.detail'), onClick: (row) => setDetail(row) },
          { key: 'locate', label: t('action.locate'), onClick: (row) => void locateAlarm(row) },
          { key: 'see', label: t('action.see'), onClick: (row) => openLive(row, false), permission: liveMenu },
          { key: 'live', label: t('action.live'), onClick: (row) => openLive(row, true), permission: liveMenu },
          {
            key: 'sure',
            label: t('action.sure'),
            onClick: (row) => setSureTarget({ kind: 'one', alarm: row }),
            hidden: (row) => row.sure === 1,
            permission: { menu: apis.menu, action: 'edit' },
          },
        ],
      },
    ],
    [t, gb, apis.menu, locateAlarm, openLive, liveMenu],
  );

  const exportExcel = async () => {
    setExporting(true);
    try {
      await download(apis.export, historyQuery(filters, nav));
    } catch {
      // the http layer has told the user
    } finally {
      setExporting(false);
    }
  };

  const tabItems = [
    { key: 'all', label: t('tab.all') },
    ...ALARM_LEVELS.map((level, index) => ({ key: String(index), label: t(LEVEL_LABELS[level]) })),
  ];

  return (
    <Card
      title={gb ? t('title.gb') : t('title.dispatch')}
      className="bwc-alarm-history"
      data-testid="alarm-history"
      extra={
        <Space>
          {canEdit && (
            <Button
              icon={<CheckCircleOutlined />}
              onClick={() => setSureTarget({ kind: 'all' })}
              data-testid="alarm-sure-all"
            >
              {t('action.sureAll')}
            </Button>
          )}
          {canView && (
            <Button
              icon={<DownloadOutlined />}
              loading={exporting}
              onClick={() => void exportExcel()}
              data-testid="alarm-export"
            >
              {t('action.export')}
            </Button>
          )}
        </Space>
      }
    >
      <Tabs
        activeKey={nav === null ? 'all' : String(nav)}
        onChange={setNav}
        items={tabItems}
        size="small"
        data-testid="alarm-level-tabs"
      />
      <DataTable<Alarm>
        queryKey={[...historyKeys.all, mode, nav, lang]}
        fetch={({ page, limit, filters: current }) => call(apis.search, { page, limit, ...historyQuery(current, nav) })}
        columns={columns}
        searchItems={searchItems}
        scroll={{ x: HISTORY_TABLE_WIDTH }}
      />
      <SureDialog target={sureTarget} onSubmit={acknowledge} onClose={() => setSureTarget(null)} />
      <AlarmDetailDialog alarm={detail} gb={gb} onClose={() => setDetail(null)} />
      <AlarmLocateDialog
        open={locate !== null}
        lng={locate?.point.lng}
        lat={locate?.point.lat}
        title={locate?.title}
        onClose={() => setLocate(null)}
      />
    </Card>
  );
}

/** /dispatch/alarm (menu 10104). */
export function DispatchAlarmHistory() {
  return <AlarmHistoryPage mode="dispatch" />;
}

/** /monitor/alarm (menu 10154, GB mode). */
export function AlarmHistory() {
  return <AlarmHistoryPage mode="gb" />;
}
