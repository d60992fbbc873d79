import { TABLE_DEFAULT_PAGE_SIZE, TABLE_PAGE_SIZES } from '@bwc/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Pagination, Result, Skeleton } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AnnouncementDialog } from './AnnouncementDialog';
import { fetchPublished, homeKeys } from './home.api';
import { AnnouncementList } from './HomePage';
import './home.css';

function positiveInt(value: string | null, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** /emegencyNotice: every published announcement, latest first, paged (page in the URL), readable. */
export function EmergencyNoticePage() {
  const { t } = useTranslation('home');
  const [params, setParams] = useSearchParams();
  const page = positiveInt(params.get('page'), 1);
  const limit = positiveInt(params.get('limit'), TABLE_DEFAULT_PAGE_SIZE);
  const [reading, setReading] = useState<number | null>(null);
  const { data, isPending, isError, refetch } = useQuery({
    queryKey: [...homeKeys.published, page, limit],
    queryFn: ({ signal }) => fetchPublished(page, limit, signal),
    placeholderData: keepPreviousData,
  });

  return (
    <div className="home-section-page">
      <Card title={t('notice.title')}>
        {isError ? (
          <Result
            status="warning"
            title={t('home.loadFailed')}
            extra={<Button onClick={() => void refetch()}>{t('home.retry')}</Button>}
          />
        ) : isPending ? (
          <Skeleton active paragraph={{ rows: 8 }} />
        ) : (
          <>
            <AnnouncementList items={data.list} onOpen={setReading} />
            {data.total > 0 && (
              <Pagination
                style={{ marginTop: 16, textAlign: 'right' }}
                align="end"
                current={page}
                pageSize={limit}
                total={data.total}
                showSizeChanger
                pageSizeOptions={TABLE_PAGE_SIZES.map(String)}
                showTotal={(total) => t('notice.total', { total })}
                onChange={(next, size) => setParams({ page: String(size === limit ? next : 1), limit: String(size) })}
              />
            )}
          </>
        )}
      </Card>
      <AnnouncementDialog id={reading} onClose={() => setReading(null)} />
    </div>
  );
}
