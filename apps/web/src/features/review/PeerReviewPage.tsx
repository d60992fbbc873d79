import type { VideoScoreRow } from '@bwc/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Card, Tabs } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { call } from '../../api/http';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import type { FilterValues, SearchItem } from '../../components/search-bar';
import { unitSearchItem } from '../../components/unit-tree';
import { formatTime } from '../../format/time';
import { currentLanguage } from '../../i18n';
import { OfficerSelect } from '../data/OfficerSelect';
import { PlayerDialog } from '../data/PlayerDialog';
import { SCORE_MENUS, useAnyPermission } from './permission';
import { RubricEditor } from './RubricEditor';
import { reviewKeys, rubricVersionParams } from './reviewKeys';

const IDS = ['unit_id', 'user_id', 'scored', 'mine'];

/** The videoscore payload of the list's filters (bad values are left out, the server checks the rest). */
export function scoreQuery(filters: FilterValues) {
  const out: Record<string, string | number> = {};
  for (const [name, raw] of Object.entries(filters)) {
    const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
    if (!value) continue;
    if (name === 'recorded_start' || name === 'recorded_end') {
      if (dayjs(value).isValid()) out[name] = dayjs(value).toISOString();
    } else if (IDS.includes(name)) {
      if (/^\d+$/.test(value)) out[name] = Number(value);
    } else if (name === 'score_min' || name === 'score_max') {
      const n = Number(value);
      if (Number.isFinite(n)) out[name] = n;
    } else if (name === 'keyword') out[name] = value;
  }
  return out;
}

/**
 * The scored recordings of the caller's units (videoscore): item, officer, unit, the rubric and
 * scorer of the newest score, the average; a row opens the player at its score tab.
 */
export function ScoreList() {
  const { t } = useTranslation('review');
  const lang = currentLanguage();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<VideoScoreRow | null>(null);

  const searchItems = useMemo<SearchItem[]>(
    () => [
      unitSearchItem(t('list.unit')),
      {
        type: 'custom',
        name: 'user_id',
        label: t('list.officer'),
        render: ({ value, onChange }) => <OfficerSelect value={value} onChange={onChange} />,
      },
      { type: 'dateTimeRange', names: ['recorded_start', 'recorded_end'], label: t('list.recordedAt') },
      { type: 'text', name: 'score_min', label: t('list.scoreRange'), placeholder: t('list.scoreMin'), width: 90 },
      { type: 'text', name: 'score_max', placeholder: t('list.scoreMax'), width: 90 },
      {
        type: 'select',
        name: 'scored',
        label: t('list.state'),
        width: 120,
        options: [
          { value: '1', label: t('list.scored') },
          { value: '0', label: t('list.unscored') },
        ],
      },
      {
        type: 'select',
        name: 'mine',
        label: t('list.mine'),
        width: 130,
        options: [
          { value: '1', label: t('list.mineScored') },
          { value: '0', label: t('list.mineUnscored') },
        ],
      },
      { type: 'text', name: 'keyword', label: t('list.keyword'), width: 160 },
    ],
    [t],
  );

  const columns = useMemo<DataTableColumn<VideoScoreRow>[]>(
    () => [
      { title: t('list.title'), dataIndex: 'title', key: 'title', ellipsis: true, width: 200 },
      { title: t('list.officer'), dataIndex: 'user_name', key: 'user_name', width: 110 },
      { title: t('list.unit'), dataIndex: 'unit_name', key: 'unit_name', width: 150, ellipsis: true },
      {
        title: t('list.recordedAt'),
        dataIndex: 'recorded_at',
        key: 'recorded_at',
        width: 170,
        render: (v: string) => formatTime(v),
      },
      {
        title: t('list.rubric'),
        key: 'rubric',
        width: 190,
        render: (_: unknown, r: VideoScoreRow) =>
          r.last_score ? t('rubric.nameVersion', rubricVersionParams(r.last_score.rubric, lang)) : '-',
      },
      {
        title: t('list.score'),
        key: 'score',
        width: 140,
        render: (_: unknown, r: VideoScoreRow) => (r.score === null ? t('list.noScore') : `${r.score}%`),
      },
      {
        title: t('list.scorer'),
        key: 'scorer',
        width: 150,
        render: (_: unknown, r: VideoScoreRow) =>
          r.last_score
            ? `${r.last_score.user_name} (${t('score.total', { total: r.last_score.total, max: r.last_score.max_total })})`
            : '-',
      },
      { title: t('list.scorers'), dataIndex: 'scorers', key: 'scorers', width: 90 },
      {
        title: t('list.scoredAt'),
        key: 'scored_at',
        width: 170,
        render: (_: unknown, r: VideoScoreRow) => (r.last_score ? formatTime(r.last_score.at) : '-'),
      },
      {
        kind: 'action',
        key: 'open',
        title: t('list.open'),
        width: 100,
        label: t('list.open'),
        onClick: (row) => setOpen(row),
      },
    ],
    [t, lang],
  );

  return (
    <>
      <DataTable<VideoScoreRow>
        queryKey={[...reviewKeys.scoreList]}
        fetch={({ page, limit, filters }) => call('videoScore', { page, limit, ...scoreQuery(filters) })}
        columns={columns}
        searchItems={searchItems}
        defaultFilters={{ scored: '1' }}
        scroll={{ x: 1500 }}
      />
      <PlayerDialog
        item={open}
        tab="score"
        onClose={() => {
          setOpen(null);
          // a score saved in the player changes the list
          void queryClient.invalidateQueries({ queryKey: reviewKeys.scoreList });
        }}
      />
    </>
  );
}

/**
 * /data/peerreview/review (10261): the scored recordings and the rubrics supervisors score with.
 * The tab is in the address (`?tab=rubrics`). The list needs what scoring needs (edit on a library
 * menu); without it the page shows the rubrics only.
 */
export function PeerReviewPage() {
  const { t } = useTranslation('review');
  const [params, setParams] = useSearchParams();
  // the list is the scorers' (videoscore: edit on a library menu); without it only the rubrics
  const canList = useAnyPermission(SCORE_MENUS, 'edit');
  const tab = params.get('tab') === 'rubrics' || !canList ? 'rubrics' : 'scores';
  return (
    <Card title={t('title.peerReview')}>
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === 'rubrics' ? { tab: 'rubrics' } : {})}
        destroyOnHidden
        items={[
          ...(canList ? [{ key: 'scores', label: t('title.scores'), children: <ScoreList /> }] : []),
          { key: 'rubrics', label: t('title.rubrics'), children: <RubricEditor /> },
        ]}
      />
    </Card>
  );
}
