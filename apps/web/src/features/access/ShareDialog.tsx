import { SHARE_MAX_DAYS, ShareAddRequest, type ShareAddAnswer } from '@bwc/protocol';
import { Alert, Form, Input, InputNumber, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { zodRules } from '../../app/forms/zodRules';
import { formatTime } from '../../format/time';
import { ShellDialog } from '../data/MediaDialogs';

/** form values of these dialogs: dates, numbers, id lists */
type Values = Record<string, NonNullable<unknown> | undefined>;
const FormDialog = ShellDialog<Values>;

/** The address a recipient opens (the console's own origin). */
export const shareAddress = (path: string) => `${window.location.origin}${path}`;

/**
 * A share link for prosecutors over the given items: recipient, days (at most SHARE_MAX_DAYS),
 * optional password. The address is shown once (the server keeps only its hash).
 */
export function ShareDialog({ ids, onClose }: { ids: number[] | null; onClose: () => void }) {
  const { t } = useTranslation('access');
  const rules = useMemo(() => zodRules(ShareAddRequest), []);
  const [made, setMade] = useState<ShareAddAnswer | null>(null);
  const close = () => {
    setMade(null);
    onClose();
  };
  return (
    <FormDialog
      open={ids !== null}
      title={t('share.title', { count: ids?.length ?? 0 })}
      okText={made ? t('share.done') : t('share.ok')}
      testId="share-dialog"
      initial={{ days: 7 }}
      onClose={close}
      onSubmit={async (values) => {
        if (made || !ids) return;
        const answer = await call(
          'shareAdd',
          {
            media_ids: ids,
            recipient: String(values.recipient ?? ''),
            days: Number(values.days),
            password: String(values.password ?? ''),
            note: String(values.note ?? ''),
          },
          { success: true },
        );
        setMade(answer);
        return true;
      }}
    >
      {made ? (
        <Alert
          type="success"
          showIcon
          data-testid="share-made"
          message={t('share.made', { time: formatTime(made.link.expires_at) })}
          description={
            <Typography.Paragraph copyable={{ text: shareAddress(made.path) }} data-testid="share-address">
              {shareAddress(made.path)}
            </Typography.Paragraph>
          }
        />
      ) : (
        <>
          <Form.Item name="recipient" label={t('field.recipient')} rules={rules('recipient')} required>
            <Input maxLength={50} data-testid="share-recipient" />
          </Form.Item>
          <Form.Item name="days" label={t('field.days', { max: SHARE_MAX_DAYS })} rules={rules('days')} required>
            <InputNumber min={1} max={SHARE_MAX_DAYS} data-testid="share-days" />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('field.password')}
            extra={t('share.passwordHint')}
            rules={rules('password')}
          >
            <Input.Password maxLength={64} autoComplete="new-password" data-testid="share-password" />
          </Form.Item>
          <Form.Item name="note" label={t('field.note')} rules={rules('note')}>
            <Input maxLength={200} />
          </Form.Item>
        </>
      )}
    </FormDialog>
  );
}
