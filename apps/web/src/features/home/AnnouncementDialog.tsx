import { Empty, Modal, Skeleton, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../format/time';
import { useAnnouncement } from './home.api';
import './home.css';

interface AnnouncementDialogProps {
  /** id to read, null when closed */
  id: number | null;
  onClose: () => void;
}

/** Reads one announcement: title, status, author and times, the full text. */
export function AnnouncementDialog({ id, onClose }: AnnouncementDialogProps) {
  const { t } = useTranslation('home');
  const { data, isPending, isError } = useAnnouncement(id);
  return (
    <Modal
      open={id !== null}
      onCancel={onClose}
      footer={null}
      width={720}
      title={data?.title ?? t('announcement.reading')}
      destroyOnHidden
    >
      {isPending ? (
        <Skeleton active paragraph={{ rows: 5 }} />
      ) : isError || !data ? (
        <Empty description={t('announcement.loadFailed')} />
      ) : (
        <article className="announcement-article" data-testid="announcement-article">
          <div className="announcement-meta">
            <Tag color={data.status === 1 ? 'green' : 'default'}>
              {t(data.status === 1 ? 'announcement.status.published' : 'announcement.status.draft')}
            </Tag>
            <Typography.Text type="secondary">
              {t('announcement.meta', { author: data.author, time: formatTime(data.publish_time ?? data.update_time) })}
            </Typography.Text>
          </div>
          <div className="announcement-content">{data.content}</div>
        </article>
      )}
    </Modal>
  );
}
