import { MenuId, OPLOG_RESULTS, type OperationLogEntry } from '@bwc/protocol';
import { Button, Card, Tag, Tooltip, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, download } from '../../../api/http';
import { usePermission } from '../../../app/session/Permission';
import { DataTable, useTableUrlState, type DataTableColumn } from '../../../components/data-table';
import type { SearchItem } from '../../../components/search-bar';
import { unitSearchItem } from '../../../components/unit-tree';
import { configKeys } from '../configcenter.api';
import { keysOf } from '../../../i18n/keys';
import { OPLOG_ACTION_LABELS, OPLOG_ACTIONS, actionLabelKey, actionPath, oplogQuery } from './oplogQuery';

const RESULT_LABELS = keysOf('configcenter', {
  success: 'oplog.result.success',
  failure: 'oplog.result.failure',
} satisfies Record<(typeof OPLOG_RESULTS)[number], string>);

/** /configcenter/LogAudit/OperationLog: the audit log of the caller's scope, filters, export to Excel. */
export function OperationLogPage() {
  const { t } = useTranslation('configcenter');
  const canView = usePermission(MenuId.OPERATION_LOG, 'view');
  const [exporting, setExporting] = useState(false);

  const searchItems = useMemo<SearchItem[]>(
    () => [
      {
        type: 'text',
        name: 'username',
        label: t('oplog.filter.user'),
        placeholder: t('oplog.filter.userPlaceholder'),
        width: 150,
      },
      unitSearchItem(t('oplog.filter.unit')),
      {
        type: 'select',
        name: 'action',
        label: t('oplog.filter.action'),
        options: OPLOG_ACTIONS.map((name) => ({ value: actionPath(name), label: t(OPLOG_ACTION_LABELS[name]) })),
        width: 180,
      },
      { type: 'dateTimeRange', names: ['start', 'end'], label: t('oplog.filter.time') },
      {
        type: 'select',
        name: 'result',
        label: t('oplog.filter.result'),
        options: OPLOG_RESULTS.map((result) => ({ value: result, label: t(RESULT_LABELS[result]) })),
        width: 110,
      },
    ],
    [t],
  );
  const { filters } = useTableUrlState(searchItems);

  const columns = useMemo<DataTableColumn<OperationLogEntry>[]>(
    () => [
      {
        title: t('oplog.column.time'),
        dataIndex: 'created',
        key: 'created',
        // the message column keeps about 100 px on a 1280-pixel screen (its header whole)
        width: 150,
        render: (value: string) => dayjs(value).format('YYYY-MM-DD HH:mm:ss'),
      },
      { title: t('oplog.column.user'), dataIndex: 'username', key: 'username', width: 110 },
      { title: t('oplog.column.unit'), dataIndex: 'unit_name', key: 'unit_name', width: 120, ellipsis: true },
      {
        title: t('oplog.column.action'),
        dataIndex: 'action',
        key: 'action',
        width: 170,
        render: (path: string) => {
          const key = actionLabelKey(path);
          return key ? (
            <Tooltip title={path}>
              <span>{t(key)}</span>
            </Tooltip>
          ) : (
            <Typography.Text code>{path}</Typography.Text>
          );
        },
      },
      { title: t('oplog.column.target'), dataIndex: 'target', key: 'target', width: 70 },
      { title: t('oplog.column.ip'), dataIndex: 'ip', key: 'ip', width: 120 },
      {
        title: t('oplog.column.result'),
        dataIndex: 'result',
        key: 'result',
        width: 80,
        align: 'center',
        render: (result: OperationLogEntry['result'], row) => (
          <Tooltip title={t('oplog.column.code', { code: row.result_code })}>
            <Tag color={result === 'success' ? 'green' : 'red'}>{t(RESULT_LABELS[result])}</Tag>
          </Tooltip>
        ),
      },
      { title: t('oplog.column.msg'), dataIndex: 'msg', key: 'msg', ellipsis: { showTitle: true } },
    ],
    [t],
  );

  const exportExcel = async () => {
    setExporting(true);
    try {
      await download('logExport', oplogQuery(filters));
    } catch {
      // the http layer has told the user
    } finally {
      setExporting(false);
    }
  };

  return (
    <Card
      title={t('oplog.title')}
      extra={
        canView && (
          <Button
            icon={<DownloadOutlined />}
            loading={exporting}
            onClick={() => void exportExcel()}
            data-testid="oplog-export"
          >
            {t('oplog.action.export')}
          </Button>
        )
      }
    >
      <DataTable<OperationLogEntry>
        queryKey={configKeys.oplog}
        fetch={({ page, limit, filters: current }) => call('logList', { page, limit, ...oplogQuery(current) })}
        columns={columns}
        searchItems={searchItems}
        scroll={{ x: 970 }}
      />
    </Card>
  );
}
