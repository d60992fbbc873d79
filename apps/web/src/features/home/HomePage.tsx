import { DownloadOutlined, NotificationOutlined } from '@ant-design/icons';
import type { Announcement, DownloadEntry } from '@bwc/protocol';
import { Button, Result, Spin } from 'antd';
import type { ReactNode } from 'react';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatFileSize } from '../system/upload/uploadCheck';
import { lazyPage } from '../../app/routing/lazyPage';
import { formatTime } from '../../format/time';
import { downloadEntryFile, useHome } from './home.api';
import './home.css';

/** /menu: the latest published announcements and the downloads flagged for the home page. */
export function HomePage() {
  const { t } = useTranslation('home');
  const { data, isPending, isError, refetch } = useHome();
  const [reading, setReadingState] = useState<number | null>(null);
  const [readerLoaded, setReaderLoaded] = useState(false);
  const setReading = (id: number | null) => {
    if (id !== null) setReaderLoaded(true);
    setReadingState(id);
  };

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
        <HomeCard
          testId="home-announcements"
          title={
            <span>
              <NotificationOutlined /> {t('home.announcements')}
            </span>
          }
          extra={<Link to="/emegencyNotice">{t('home.more')}</Link>}
        >
          {isPending ? (
            <Spin className="home-loading" />
          ) : (
            <AnnouncementList items={data.announcements} onOpen={setReading} />
          )}
        </HomeCard>
        <HomeCard
          testId="home-downloads"
          title={
            <span>
              <DownloadOutlined /> {t('home.downloads')}
            </span>
          }
          extra={<Link to="/downloadCenter">{t('home.more')}</Link>}
        >
          {isPending ? <Spin className="home-loading" /> : <DownloadList items={data.downloads} />}
        </HomeCard>
      </div>
      {readerLoaded ? (
        <Suspense fallback={null}>
          <AnnouncementDialog id={reading} onClose={() => setReading(null)} />
        </Suspense>
      ) : null}
    </div>
  );
}

// the reader opens on a click: its typography stays out of the first page after login (the first-load budget, bench/bundle-size.ts)
const AnnouncementDialog = lazyPage(() => import('./AnnouncementDialog'), 'AnnouncementDialog');

/**
 * A titled box of the home page; antd's Card would bring its tabs into the first page after login
 * (and the home page keeps to Spin and plain text where Skeleton and Empty would add more).
 */
function HomeCard({
  title,
  extra,
  testId,
  children,
}: {
  title: ReactNode;
  extra: ReactNode;
  testId: string;
  children: ReactNode;
}) {
  return (
    <section className="home-card" data-testid={testId}>
      <header className="home-card-head">
        <div className="home-card-title">{title}</div>
        {extra}
      </header>
      <div className="home-card-body">{children}</div>
    </section>
  );
}

/**
 * Published announcements, latest first, each opening the reader. Plain list markup: antd's List
 * brings its pagination and select into the home page, the first page after login (the first-load budget, bench/bundle-size.ts).
 */
export function AnnouncementList({ items, onOpen }: { items: readonly Announcement[]; onOpen: (id: number) => void }) {
  const { t } = useTranslation('home');
  if (items.length === 0) return <div className="home-empty">{t('home.noAnnouncements')}</div>;
  return (
    <ul className="home-list">
      {items.map((item) => (
        <li
          key={item.id}
          className="home-list-item home-list-item-clickable"
          onClick={() => onOpen(item.id)}
          data-testid="announcement-item"
        >
          <div className="home-list-main">
            <a
              className="home-list-title"
              href={`#announcement-${item.id}`}
              onClick={(event) => {
                event.preventDefault();
              }}
            >
              {item.title}
            </a>
            <span className="home-excerpt">{item.content}</span>
          </div>
          <span className="home-secondary home-list-side">{formatTime(item.publish_time ?? item.update_time)}</span>
        </li>
      ))}
    </ul>
  );
}

function DownloadList({ items }: { items: readonly DownloadEntry[] }) {
  const { t } = useTranslation('home');
  if (items.length === 0) return <div className="home-empty">{t('home.noDownloads')}</div>;
  return (
    <ul className="home-list">
      {items.map((item) => (
        <li key={item.id} className="home-list-item" data-testid="download-item">
          <div className="home-list-main">
            <span className="home-list-title">
              {item.version ? t('download.nameWithVersion', { name: item.name, version: item.version }) : item.name}
            </span>
            {item.description && <div>{item.description}</div>}
            <span className="home-secondary">
              {t('download.fileInfo', { file: item.file_name, size: formatFileSize(item.file_size) })}
            </span>
          </div>
          <Button
            type="link"
            icon={<DownloadOutlined />}
            className="home-list-side"
            onClick={() => void downloadEntryFile(item).catch(() => undefined)}
          >
            {t('download.action')}
          </Button>
        </li>
      ))}
    </ul>
  );
}
