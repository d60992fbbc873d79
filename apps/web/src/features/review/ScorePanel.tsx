import { SCORE_COMMENT_MAX, type MediaScore, type MediaScoreAnswer } from '@bwc/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Empty, Form, Input, InputNumber, List, Result, Space, Spin, Statistic, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { SCORE_MENUS, useAnyPermission } from './permission';
import { formatTime } from '../../format/time';
import { currentLanguage } from '../../i18n';
import { criterionLabel, reviewKeys, rubricVersionParams } from './reviewKeys';

type Values = Record<string, number | string | undefined>;

function Others({ answer, lang }: { answer: MediaScoreAnswer; lang: string }) {
  const { t } = useTranslation('review');
  // each score with the labels of the rubric version it was made with
  const label = (s: MediaScore, key: string) => {
    const c = s.rubric.criteria.find((x) => x.key === key);
    return c ? criterionLabel(c, lang) : key;
  };
  return (
    <List<MediaScore>
      size="small"
      data-testid="score-list"
      locale={{ emptyText: <Empty description={t('score.none')} /> }}
      dataSource={answer.scores}
      renderItem={(s) => (
        <List.Item key={s.id}>
          <List.Item.Meta
            title={
              <Space>
                <Typography.Text strong>{s.user_name}</Typography.Text>
                <Typography.Text>{t('score.total', { total: s.total, max: s.max_total })}</Typography.Text>
                <Typography.Text type="secondary">{formatTime(s.at)}</Typography.Text>
                <Typography.Text type="secondary">
                  {t('rubric.nameVersion', rubricVersionParams(s.rubric, lang))}
                </Typography.Text>
              </Space>
            }
            description={
              <>
                <div>{s.items.map((i) => `${label(s, i.key)} ${i.score}`).join(' · ')}</div>
                {s.comment && <div>{s.comment}</div>}
              </>
            }
          />
        </List.Item>
      )}
    />
  );
}

/**
 * The score of one item (media_score_get / media_score_update): the rubric with a points input per
 * criterion and a comment (supervisors with 'edit' on a library menu; saving again replaces their
 * score), the average, and every scorer's current score.
 */
export function ScorePanel({ mediaId, deleted = false }: { mediaId: number; deleted?: boolean }) {
  const { t } = useTranslation('review');
  const lang = currentLanguage();
  const canScore = useAnyPermission(SCORE_MENUS, 'edit') && !deleted;
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const score = useQuery({
    queryKey: reviewKeys.score(mediaId),
    queryFn: ({ signal }) => call('mediaScoreGet', { id: mediaId }, { signal }),
  });
  const answer = score.data;

  useEffect(() => {
    if (!answer) return;
    const values: Values = { comment: answer.mine?.comment ?? '' };
    for (const c of answer.rubric.criteria)
      values[c.key] = answer.mine?.items.find((i) => i.key === c.key)?.score ?? undefined;
    form.setFieldsValue(values);
  }, [answer, form]);

  if (score.isPending) return <Spin />;
  if (score.isError || !answer) return <Result status="warning" title={t('score.loadFailed')} />;

  const save = async () => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setBusy(true);
    try {
      const next = await call(
        'mediaScoreUpdate',
        {
          id: mediaId,
          items: answer.rubric.criteria.map((c) => ({ key: c.key, score: Number(values[c.key]) })),
          comment: String(values.comment ?? ''),
        },
        { success: true },
      );
      queryClient.setQueryData(reviewKeys.score(mediaId), next);
      void queryClient.invalidateQueries({ queryKey: ['evidence'] });
    } catch {
      // the http layer has shown the server's message
    } finally {
      setBusy(false);
    }
  };

  const rubricName = lang === 'en-US' ? answer.rubric.name_en : answer.rubric.name_zh;
  return (
    <div className="bwc-review-score" data-testid="score-panel">
      <Space align="start" size="large" wrap>
        <Statistic
          title={t('score.average')}
          value={answer.average ?? '-'}
          suffix={answer.average === null ? undefined : '%'}
          data-testid="score-average"
        />
        <Statistic title={t('score.scorers')} value={answer.scores.length} />
      </Space>
      <Typography.Title level={5}>
        {t('score.rubric', { name: rubricName, max: answer.rubric.max_total })}
      </Typography.Title>
      {deleted && <Alert type="info" showIcon message={t('score.deleted')} />}
      <Form form={form} layout="inline" disabled={!canScore || busy} data-testid="score-form">
        {answer.rubric.criteria.map((c) => (
          <Form.Item
            key={c.key}
            name={c.key}
            label={t('score.criterion', { label: criterionLabel(c, lang), max: c.max })}
            rules={[
              { required: true, message: t('score.required') },
              { type: 'number', min: 0, max: c.max, message: t('score.range', { max: c.max }) },
            ]}
          >
            <InputNumber min={0} max={c.max} step={1} style={{ width: 80 }} aria-label={criterionLabel(c, lang)} />
          </Form.Item>
        ))}
        <Form.Item name="comment" label={t('score.comment')} style={{ width: '100%', marginTop: 8 }}>
          <Input.TextArea rows={2} maxLength={SCORE_COMMENT_MAX} showCount />
        </Form.Item>
        {canScore && (
          <Form.Item>
            <Button type="primary" loading={busy} onClick={() => void save()} data-testid="score-save">
              {answer.mine ? t('score.update') : t('score.save')}
            </Button>
          </Form.Item>
        )}
      </Form>
      <Typography.Title level={5}>{t('score.others')}</Typography.Title>
      <Others answer={answer} lang={lang} />
    </div>
  );
}

/** The player's tab title of the score panel. */
export function ScoreTabLabel() {
  const { t } = useTranslation('review');
  return <>{t('score.tab')}</>;
}
