import { CheckCircleOutlined, FileExcelOutlined, FilePdfOutlined, WarningOutlined } from '@ant-design/icons';
import type { CustodyAction, CustodyEntry, MediaItem } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Modal, Result, Space, Spin, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, download } from '../../api/http';
import { formatTime } from '../../format/time';
import { keysOf } from '../../i18n/keys';

export const CUSTODY_LABELS = keysOf('data', {
  uploaded: 'custody.action.uploaded',
  viewed: 'custody.action.viewed',
  streamed: 'custody.action.streamed',
  downloaded: 'custody.action.downloaded',
  revised: 'custody.action.revised',
  marked: 'custody.action.marked',
  scored: 'custody.action.scored',
  linked: 'custody.action.linked',
  shared: 'custody.action.shared',
  deleted: 'custody.action.deleted',
  restored: 'custody.action.restored',
  retention: 'custody.action.retention',
  purged: 'custody.action.purged',
  verified: 'custody.action.verified',
  tamper: 'custody.action.tamper',
} satisfies Record<CustodyAction, string>);

/**
 * The item's chain of custody (mediaCustody): whether the chain verifies, or the first entry that
 * does not, shown above the entries.
 */
export function CustodyDialog({ item, onClose }: { item: MediaItem | null; onClose: () => void }) {
  const { t } = useTranslation('data');
  const custody = useQuery({
    queryKey: ['evidence', 'custody', item?.id],
    queryFn: ({ signal }) => call('mediaCustody', { id: item!.id }, { signal }),
    enabled: item !== null,
    staleTime: 0,
  });
  const data = custody.data;
  const [exporting, setExporting] = useState<'pdf' | 'xlsx' | null>(null);
  /** the custody report as a file (errors are shown by download()) */
  const exportReport = async (format: 'pdf' | 'xlsx') => {
    if (!item) return;
    setExporting(format);
    try {
      await download('mediaCustodyExport', { id: item.id, format });
    } catch {
      // already reported
    } finally {
      setExporting(null);
    }
  };

  return (
    <Modal open={item !== null} title={t('custody.title', { name: item?.title ?? '' })} footer={null} onCancel={onClose} width={960} destroyOnHidden>
      <div data-testid="custody-dialog">
        {custody.isPending ? (
          <Spin />
        ) : custody.isError || !data ? (
          <Result status="warning" title={t('custody.failed')} />
        ) : (
          <>
            {data.chain_ok ? (
              <Alert
                type="success"
                showIcon
                icon={<CheckCircleOutlined />}
                data-testid="custody-verdict"
                message={t('custody.ok', { count: data.entries.length })}
              />
            ) : (
              <Alert
                type="error"
                showIcon
                icon={<WarningOutlined />}
                data-testid="custody-verdict"
                message={t('custody.broken', { seq: data.broken_at ?? '-' })}
                description={t('custody.brokenHint')}
              />
            )}
            <Space className="bwc-data-custody-export">
              <Button
                size="small"
                icon={<FilePdfOutlined />}
                loading={exporting === 'pdf'}
                onClick={() => void exportReport('pdf')}
                data-testid="custody-export-pdf"
              >
                {t('custody.exportPdf')}
              </Button>
              <Button
                size="small"
                icon={<FileExcelOutlined />}
                loading={exporting === 'xlsx'}
                onClick={() => void exportReport('xlsx')}
                data-testid="custody-export-xlsx"
              >
                {t('custody.exportXlsx')}
              </Button>
            </Space>
            <Typography.Paragraph className="bwc-data-hash" copyable={{ text: data.sha256 }}>
              {t('field.sha256')}: {data.sha256}
            </Typography.Paragraph>
            <Table<CustodyEntry>
              size="small"
              rowKey="seq"
              dataSource={data.entries}
              pagination={{ pageSize: 50, hideOnSinglePage: true }}
              rowClassName={(row) => (data.broken_at !== null && row.seq >= data.broken_at ? 'bwc-data-broken' : '')}
              locale={{ emptyText: t('custody.empty') }}
              columns={[
                { title: t('custody.seq'), dataIndex: 'seq', width: 60 },
                {
                  title: t('custody.actionColumn'),
                  dataIndex: 'action',
                  width: 100,
                  render: (action: CustodyAction) => (
                    <Tag color={action === 'tamper' ? 'red' : undefined}>{t(CUSTODY_LABELS[action])}</Tag>
                  ),
                },
                { title: t('custody.actor'), dataIndex: 'actor', width: 120, ellipsis: true },
                { title: t('column.unit'), dataIndex: 'unit_name', width: 120, ellipsis: true },
                { title: t('custody.at'), dataIndex: 'at', width: 160, render: (at: string) => formatTime(at) },
                { title: t('custody.ip'), dataIndex: 'ip', width: 120 },
                { title: t('custody.detail'), dataIndex: 'detail', ellipsis: true },
                {
                  title: t('custody.hash'),
                  dataIndex: 'hash',
                  width: 110,
                  render: (hash: string) => (
                    <Typography.Text code title={hash}>
                      {hash.slice(0, 10)}
                    </Typography.Text>
                  ),
                },
              ]}
            />
          </>
        )}
      </div>
    </Modal>
  );
}
