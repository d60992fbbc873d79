import { ArchiveMenu, CASE_STATES, type CaseRecord } from '@bwc/protocol';
import { Card, Tabs, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { call } from '../../api/http';
import { useCrud } from '../../components/crud';
import { GroupMemberPicker } from '../../components/group-member-picker';
import { loadDeviceLevel } from '../../components/unit-tree';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import type { DialogTarget } from '../../components/form-dialog';
import type { SearchItem } from '../../components/search-bar';
import { formatTime } from '../../format/time';
import { ARCHIVE_STATE_LABELS, archiveKeys, menuOfKind, STATE_LABELS } from './archiveKeys';
import { linkedMediaColumn } from './linkedMediaColumn';
import { LinkedMediaDrawer } from './LinkedMedia';
import { AddRecordDialog, ArchiveDialog, CancelDialog } from './RecordDialogs';
import { SampleDialog } from './ViolationDialogs';
import { ViolationsTable } from './ViolationsTable';

type RecordKind = 'incident' | 'case';

/**
 * Incidents (and their files) or cases: the caller's units' records with filters, register, cancel
 * with a reason, linked media, archive fields; cases are marked as samples (sample menu's add) here.
 */
function RecordsTable({ kind }: { kind: RecordKind }) {
  const { t } = useTranslation('archive');
  const { dialog, reload, addButton, permission } = useCrud<CaseRecord>({
    menu: menuOfKind(kind),
    invalidate: [archiveKeys.all],
  });
  const [cancelling, setCancelling] = useState<DialogTarget<CaseRecord>>(null);
  const [archiving, setArchiving] = useState<DialogTarget<CaseRecord>>(null);
  const [mediaOf, setMediaOf] = useState<CaseRecord | null>(null);
  const [sending, setSending] = useState<CaseRecord | null>(null);
  const [sampling, setSampling] = useState<DialogTarget<CaseRecord>>(null);

  const searchItems = useMemo<SearchItem[]>(
    () => [
      {
        type: 'text',
        name: 'keyword',
        label: t('filter.keyword'),
        placeholder: t('filter.keywordPlaceholder'),
      },
      { type: 'text', name: 'no', label: t('filter.no'), width: 160 },
      { type: 'dateTimeRange', names: ['start', 'end'], label: t('filter.time') },
      {
        type: 'select',
        name: 'state',
        label: t('filter.state'),
        // only violations are closed
        options: CASE_STATES.filter((s) => s !== 'closed').map((s) => ({ value: s, label: t(STATE_LABELS[s]) })),
        width: 110,
      },
      addButton(t(kind === 'case' ? 'action.addCase' : 'action.addIncident')),
    ],
    [t, kind, addButton],
  );

  const columns = useMemo<DataTableColumn<CaseRecord>[]>(
    () => [
      { title: t('column.no'), dataIndex: 'no', key: 'no', width: 190 },
      {
        title: t('column.title'),
        dataIndex: 'title',
        key: 'title',
        ellipsis: true,
        // a case sample says so before its title
        render: (v: string, row) => (
          <>
            {row.sample ? <Tag color="gold">{t('state.sample')}</Tag> : null}
            {v}
          </>
        ),
      },
      {
        title: t('column.occurredAt'),
        dataIndex: 'occurred_at',
        key: 'occurred_at',
        width: 170,
        render: (v: string) => formatTime(v),
      },
      { title: t('column.place'), dataIndex: 'place', key: 'place', ellipsis: true },
      { title: t('column.unit'), dataIndex: 'unit_name', key: 'unit_name', width: 140, ellipsis: true },
      kind === 'case'
        ? {
            title: t('column.incidents'),
            dataIndex: 'incident_count',
            key: 'incident_count',
            width: 90,
            align: 'center',
          }
        : { title: t('column.case'), dataIndex: 'case_no', key: 'case_no', width: 170 },
      linkedMediaColumn<CaseRecord>({ title: t('column.media'), button: t('action.media') }, setMediaOf),
      {
        title: t('column.state'),
        dataIndex: 'state',
        key: 'state',
        width: 90,
        render: (s: CaseRecord['state'], row) =>
          s === 'cancelled' ? (
            <Tag color="default" title={row.cancel_reason}>
              {t('state.cancelled')}
            </Tag>
          ) : (
            <Tag color="green">{t('state.open')}</Tag>
          ),
      },
      {
        title: t('column.archive'),
        dataIndex: 'archive_state',
        key: 'archive_state',
        width: 90,
        render: (s: CaseRecord['archive_state']) => (
          <Tag color={s === 'archived' ? 'blue' : 'default'}>{t(ARCHIVE_STATE_LABELS[s])}</Tag>
        ),
      },
      {
        kind: 'operation',
        width: 160,
        actions: [
          {
            key: 'file',
            label: t('action.file'),
            onClick: (row) => setArchiving(() => row),
            permission: permission('edit'),
          },
          {
            key: 'send',
            label: t('action.send'),
            onClick: (row) => setSending(row),
            hidden: (row) => kind !== 'incident' || row.state !== 'open',
            permission: permission('edit'),
          },
          {
            key: 'sample',
            label: t('action.markSample'),
            onClick: (row) => setSampling(() => row),
            hidden: (row) => kind !== 'case' || row.sample === 1 || row.state !== 'open',
            permission: { menu: ArchiveMenu.SAMPLE, action: 'add' },
          },
          {
            key: 'unsample',
            label: t('action.unmarkSample'),
            confirm: t('action.unmarkConfirm'),
            onClick: (row) => call('sampleDel', { id: row.id }, { success: true }),
            hidden: (row) => kind !== 'case' || row.sample !== 1,
            permission: { menu: ArchiveMenu.SAMPLE, action: 'edit' },
          },
          {
            key: 'cancel',
            label: t('action.cancel'),
            danger: true,
            onClick: (row) => setCancelling(() => row),
            hidden: (row) => row.state !== 'open',
            permission: permission('edit'),
          },
        ],
      },
    ],
    [t, kind, permission],
  );

  const saved = (close: () => void) => () => {
    close();
    void reload();
  };

  return (
    <>
      <DataTable<CaseRecord>
        queryKey={[...archiveKeys.lists, kind]}
        fetch={({ page, limit, filters }) =>
          call(kind === 'case' ? 'caseList' : 'incidentList', { page, limit, ...filters })
        }
        columns={columns}
        searchItems={searchItems}
        scroll={{ x: 1300 }}
      />
      <AddRecordDialog kind={kind} {...dialog} />
      <CancelDialog
        kind={kind}
        target={cancelling}
        onClose={() => setCancelling(null)}
        onSaved={saved(() => setCancelling(null))}
      />
      <ArchiveDialog target={archiving} onClose={() => setArchiving(null)} onSaved={saved(() => setArchiving(null))} />
      <LinkedMediaDrawer record={mediaOf} onClose={() => setMediaOf(null)} />
      {kind === 'incident' && (
        <GroupMemberPicker
          open={sending !== null}
          title={t('send.title', { no: sending?.no ?? '' })}
          loader={loadDeviceLevel}
          disabledNode={(node) => !node.jq_hostcode}
          offlinePickable
          okText={t('action.send')}
          onSend={(nodes) =>
            call(
              'incidentSend',
              { id: sending!.id, device: nodes.map((node) => Number(node.id)) },
              { success: true },
            ).then(() => setSending(null))
          }
          onCancel={() => setSending(null)}
        />
      )}
      {kind === 'case' && (
        <SampleDialog target={sampling} onClose={() => setSampling(null)} onSaved={saved(() => setSampling(null))} />
      )}
    </>
  );
}

/**
 * /data/archive/lawDoc: incidents and their files, and violation records (`?tab=violations`).
 */
export function IncidentsPage() {
  const { t } = useTranslation('archive');
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'violations' ? 'violations' : 'incidents';
  return (
    <Card title={t('title.lawDoc')}>
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === 'violations' ? { tab: 'violations' } : {})}
        destroyOnHidden
        items={[
          { key: 'incidents', label: t('tab.incidents'), children: <RecordsTable kind="incident" /> },
          { key: 'violations', label: t('tab.violations'), children: <ViolationsTable /> },
        ]}
      />
    </Card>
  );
}

/** /data/archive/case: cases and their files. */
export function CasesPage() {
  const { t } = useTranslation('archive');
  return (
    <Card title={t('title.cases')}>
      <RecordsTable kind="case" />
    </Card>
  );
}
