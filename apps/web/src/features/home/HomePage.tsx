import { DownloadOutlined, NotificationOutlined } from '@ant-design/icons';
import type { Announcement, DownloadEntry } from '@bwc/protocol';
import { Button, Card, Empty, List, Result, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatFileSize } from '../system/upload/uploadCheck';
import { AnnouncementDialog } from './AnnouncementDialog';
import { formatTime } from '../../format/time';
import { downloadEntryFile, useHome } from './home.api';
import './home.css';

/** /menu: the latest published announcements and the downloads flagged for the home page. */
export function HomePage() {
  const { t } = useTranslation('home');
  const { data, isPending, isError, refetch } = useHome();
  const [reading, setReading] = useState<number | null>(null);

  if (isError)
    return (
      <div className="home-page">
        <Result
          status="warning"
          title={t('home.loadFailed')}
          extra={<Button onClick={() => void refetch()}>{t('home.retry')}</Button>}
        />
      </div>
    );

  return (
    <div className="home-page">
      <div className="home-columns">
        <Card
          title={
            <span>
              <NotificationOutlined /> {t('home.announcements')}
            </span>
          }
          extra={<Link to="/emegencyNotice">{t('home.more')}</Link>}
        >
          {isPending ? (
            <Skeleton active paragraph={{ rows: 6 }} />
          ) : (
            <AnnouncementList items={data.announcements} onOpen={setReading} />
          )}
        </Card>
        <Card
          title={
            <span>
              <DownloadOutlined /> {t('home.downloads')}
            </span>
          }
          extra={<Link to="/downloadCenter">{t('home.more')}</Link>}
        >
          {isPending ? <Skeleton active paragraph={{ rows: 4 }} /> : <DownloadList items={data.downloads} />}
        </Card>
      </div>
      <AnnouncementDialog id={reading} onClose={() => setReading(null)} />
    </div>
  );
}

/** Published announcements, latest first, each opening the reader. */
export function AnnouncementList({ items, onOpen }: { items: readonly Announcement[]; onOpen: (id: number) => void }) {
  const { t } = useTranslation('home');
  return (
    <List
      itemLayout="vertical"
      dataSource={items as Announcement[]}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('home.noAnnouncements')} /> }}
      renderItem={(item) => (
        <List.Item
          key={item.id}
          className="home-list-item"
          onClick={() => onOpen(item.id)}
          data-testid="announcement-item"
          extra={
            <Typography.Text type="secondary">{formatTime(item.publish_time ?? item.update_time)}</Typography.Text>
          }
        >
          <List.Item.Meta
            title={
              <a
                href={`#announcement-${item.id}`}
                onClick={(event) => {
                  event.preventDefault();
                }}
              >
                {item.title}
              </a>
            }
            description={<span className="home-excerpt">{item.content}</span>}
          />
        </List.Item>
      )}
    />
  );
}

function DownloadList({ items }: { items: readonly DownloadEntry[] }) {
  const { t } = useTranslation('home');
  return (
    <List
      dataSource={items as DownloadEntry[]}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('home.noDownloads')} /> }}
      renderItem={(item) => (
        <List.Item
          key={item.id}
          data-testid="download-item"
          actions={[
            <Button
              key="download"
              type="link"
              icon={<DownloadOutlined />}
              onClick={() => void downloadEntryFile(item).catch(() => undefined)}
            >
              {t('download.action')}
            </Button>,
          ]}
        >
          <List.Item.Meta
            title={item.version ? t('download.nameWithVersion', { name: item.name, version: item.version }) : item.name}
            description={
              <>
                {item.description && <div>{item.description}</div>}
                <Typography.Text type="secondary">
                  {t('download.fileInfo', { file: item.file_name, size: formatFileSize(item.file_size) })}
                </Typography.Text>
              </>
            }
          />
        </List.Item>
      )}
    />
  );
}
