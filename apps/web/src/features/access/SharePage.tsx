import { type ShareOpenAnswer, type SharedItem } from '@bwc/protocol';
import { Alert, Button, Card, Form, Input, List, Result, Spin, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { call } from '../../api/http';
import { formatSize } from '../data/mediaQuery';
import { formatTime } from '../../format/time';
import './access.css';

const STATUS_TEXT: Record<Exclude<ShareOpenAnswer['status'], 'ok' | 'password'>, string> = {
  wrongPassword: 'page.wrongPassword',
  locked: 'page.locked',
  expired: 'page.expired',
  revoked: 'page.revoked',
  unknown: 'page.unknown',
};

function SharedMedia({ item }: { item: SharedItem }) {
  const { t } = useTranslation('access');
  return (
    <div className="bwc-share-item" data-testid={`shared-${item.id}`}>
      <Typography.Text strong>{item.title || item.file_name}</Typography.Text>
      <Typography.Text type="secondary">
        {t('page.itemInfo', { time: formatTime(item.recorded_at), size: formatSize(item.size) })}
      </Typography.Text>
      {item.media_type === 1 && <video src={item.play_url} controls preload="metadata" className="bwc-share-player" />}
      {item.media_type === 2 && <audio src={item.play_url} controls preload="metadata" />}
      {item.media_type === 3 && <img src={item.play_url} alt={item.title} className="bwc-share-player" />}
      <Typography.Text type="secondary" className="bwc-share-hash" copyable={{ text: item.sha256 }}>
        {t('page.sha256', { sha: item.sha256 })}
      </Typography.Text>
      <Button href={item.download_url} data-testid={`shared-download-${item.id}`}>
        {t('page.download')}
      </Button>
    </div>
  );
}

/**
 * /share/<token>, outside the login: the items of an external share link, played and downloaded at
 * addresses the server signs for this visit (open the page again once they expire). A link with a
 * password asks for it first; an expired, revoked or unknown link says so.
 */
export function SharePage() {
  const { t } = useTranslation('access');
  const { token = '' } = useParams();
  const [answer, setAnswer] = useState<ShareOpenAnswer | null>(null);
  const [busy, setBusy] = useState(false);
  const [password, setPassword] = useState('');

  const open = useCallback(
    async (pw: string) => {
      setBusy(true);
      try {
        setAnswer(await call('shareOpen', { token, password: pw }));
      } catch {
        // the http layer has shown the message
      } finally {
        setBusy(false);
      }
    },
    [token],
  );
  useEffect(() => {
    void open('');
  }, [open]);

  if (!answer) return <Spin className="bwc-share-loading" />;
  const asking = answer.status === 'password' || answer.status === 'wrongPassword';
  return (
    <div className="bwc-share-page" data-testid="share-page">
      {answer.status === 'ok' ? (
        <Card title={t('page.title', { unit: answer.unit_name })}>
          <Typography.Paragraph>
            {t('page.intro', { recipient: answer.recipient, time: formatTime(answer.expires_at) })}
          </Typography.Paragraph>
          <List dataSource={answer.items} renderItem={(item) => <List.Item>{<SharedMedia item={item} />}</List.Item>} />
          <Typography.Paragraph type="secondary">
            {t('page.urlsExpire', { time: formatTime(new Date(answer.urls_expire).toISOString()) })}
          </Typography.Paragraph>
        </Card>
      ) : asking ? (
        <Card title={t('page.passwordTitle')} className="bwc-share-password">
          {answer.status === 'wrongPassword' && (
            <Alert type="error" showIcon message={t(STATUS_TEXT.wrongPassword)} data-testid="share-wrong" />
          )}
          <Form layout="vertical" onFinish={() => void open(password)}>
            <Form.Item label={t('field.password')}>
              <Input.Password
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                data-testid="share-page-password"
                autoFocus
              />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={busy} data-testid="share-page-open">
              {t('page.open')}
            </Button>
          </Form>
        </Card>
      ) : (
        <div data-testid="share-gone">
          <Result status="warning" title={t(STATUS_TEXT[answer.status as keyof typeof STATUS_TEXT])} />
        </div>
      )}
    </div>
  );
}
